//! Starting points shipped with the editor: the legends of the bundled games' maps (a new map
//! starts with terrain, overlay and hexside types, so a river needs no legend visit first) and
//! the rules of the bundled scenarios (a new scenario starts with their unit kinds, stacking
//! and command rules). Another map or scenario file can serve the same way.

use std::collections::BTreeMap;
use std::path::Path;

use bataille_schema::map::{HexsideType, OverlayType, TerrainType};
use bataille_schema::scenario::Rules;
use bataille_schema::{Id, Map, Scenario};

/// The bundled games' maps, by title.
pub const BUNDLED_MAPS: [(&str, &str); 2] = [
    ("Denain 1712", include_str!("../../../maps/denain-1712.ron")),
    (
        "Fontenoy 1745",
        include_str!("../../../maps/fontenoy-1745.ron"),
    ),
];

/// The bundled games' scenarios, by title.
pub const BUNDLED_SCENARIOS: [(&str, &str); 2] = [
    (
        "Denain 1712",
        include_str!("../../../scenarios/denain-1712.ron"),
    ),
    (
        "Fontenoy 1745",
        include_str!("../../../scenarios/fontenoy-1745.ron"),
    ),
];

/// A map's legend: its terrain, overlay and hexside types.
#[derive(Debug, Clone, PartialEq)]
pub struct Legend {
    pub terrain: BTreeMap<String, TerrainType>,
    pub overlay_types: BTreeMap<Id, OverlayType>,
    pub hexside_types: BTreeMap<Id, HexsideType>,
}

impl Legend {
    /// The legend of a map.
    pub fn of(map: &Map) -> Legend {
        Legend {
            terrain: map.terrain.clone(),
            overlay_types: map.overlay_types.clone(),
            hexside_types: map.hexside_types.clone(),
        }
    }

    /// Gives a map this legend (a new map: its rows use the default code, which stays if the
    /// legend has it, else the legend's first code is used).
    pub fn apply_to(&self, map: &mut Map) {
        if self.terrain.is_empty() {
            return;
        }
        let old_default = map.terrain.keys().next().cloned();
        map.terrain = self.terrain.clone();
        map.overlay_types = self.overlay_types.clone();
        map.hexside_types = self.hexside_types.clone();
        let keep = old_default.is_some_and(|c| map.terrain.contains_key(&c));
        if !keep && let Some(code) = map.terrain.keys().next().and_then(|c| c.chars().next()) {
            for row in &mut map.rows {
                *row = std::iter::repeat_n(code, row.chars().count()).collect();
            }
        }
    }
}

/// Where a new map's legend comes from.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum LegendSource {
    /// The starter legend: terrain only.
    #[default]
    Basic,
    /// A bundled game's map (index into [`BUNDLED_MAPS`]).
    Bundled(usize),
    /// Another map file.
    File(String),
}

/// Where a new scenario's rules come from.
#[derive(Debug, Clone, PartialEq)]
pub enum RulesSource {
    /// A bundled game's scenario (index into [`BUNDLED_SCENARIOS`]).
    Bundled(usize),
    /// Another scenario file.
    File(String),
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    bataille_schema::io::ron_options()
        .from_str(text)
        .map_err(|e| e.to_string())
}

/// The legend a source gives (`None` for the starter legend); another map's file is read by
/// `open_map` (the door: `services::door::open_map`).
pub fn legend(
    source: &LegendSource,
    open_map: impl FnOnce(&Path) -> Result<Map, String>,
) -> Result<Option<Legend>, String> {
    let map: Map = match source {
        LegendSource::Basic => return Ok(None),
        LegendSource::Bundled(i) => {
            let (_, text) = BUNDLED_MAPS.get(*i).ok_or("no such bundled map")?;
            parse(text)?
        }
        LegendSource::File(path) => open_map(Path::new(path.trim()))?,
    };
    Ok(Some(Legend::of(&map)))
}

/// The rules a source gives, without what belongs to its own battle: fire restrictions name
/// its armies, corps and its map's terrain codes, which a new scenario has not (Denain's made
/// four errors on an empty scenario); a unit kind only some armies may field names them
/// (Fontenoy 10: artillery French only, E0206 on an empty scenario), so every kind is open to
/// any army and loses the words of its name that said so ("Artillery (French only, never
/// moves)" becomes "Artillery"); markers in an army's colour come neutral. Kinds, stacking,
/// command and the counters' layout come as they are.
///
/// Another scenario's file is read by `open_scenario` (the door:
/// `services::door::open_scenario_alone`).
pub fn rules(
    source: &RulesSource,
    open_scenario: impl FnOnce(&Path) -> Result<Scenario, String>,
) -> Result<Rules, String> {
    let scenario: Scenario = match source {
        RulesSource::Bundled(i) => {
            let (_, text) = BUNDLED_SCENARIOS
                .get(*i)
                .ok_or("no such bundled scenario")?;
            parse(text)?
        }
        RulesSource::File(path) => open_scenario(Path::new(path.trim()))?,
    };
    let mut rules = Rules {
        fire_restrictions: Vec::new(),
        ..scenario.rules
    };
    // Markers in an army's colour (Denain 9.4's aides de camp) name that battle's armies: they
    // come neutral, their counts merged.
    let mut markers: Vec<bataille_schema::scenario::MarkerUse> = Vec::new();
    for mut marker in std::mem::take(&mut rules.counters.markers) {
        marker.army = None;
        match markers.iter_mut().find(|m| m.marker == marker.marker) {
            Some(same) => same.count = same.count.saturating_add(marker.count).min(200),
            None => markers.push(marker),
        }
    }
    rules.counters.markers = markers;
    for kind in rules.unit_kinds.values_mut() {
        if !kind.armies.is_empty() {
            kind.armies.clear();
            if let Some((plain, _)) = kind.name.split_once(" (") {
                kind.name = plain.trim().to_owned();
            }
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_legends_and_rules_read() {
        for i in 0..BUNDLED_MAPS.len() {
            let legend = legend(&LegendSource::Bundled(i), |_| Err("no file".into()))
                .expect("reads")
                .expect("a legend");
            assert!(!legend.terrain.is_empty());
            assert!(
                !legend.hexside_types.is_empty(),
                "rivers and streams to draw"
            );
        }
        for i in 0..BUNDLED_SCENARIOS.len() {
            let rules = rules(&RulesSource::Bundled(i), |_| Err("no file".into())).expect("reads");
            assert!(!rules.unit_kinds.is_empty());
        }
    }
}
