//! Miniatures rules systems as data (`systems/*.ron`): troop types and the ratings each needs,
//! basing and ground scale per figure scale, movement, fire types, artillery classes, cavalry
//! types, named commander modifiers and national tables. A scenario names the systems it
//! supports (`Scenario::miniatures`) with conversion rules from its counters; [`expand_unit`]
//! and [`expand_leader`] turn a counter into its ratings under a system. A third system is one
//! more file: nothing here knows Age of Honor or the Louis XIV rules by name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::Id;
use crate::limits::ron_options;
use crate::reading::{LoadError, expect_kind, parse_error, probe_version, read_source, sanity};
use crate::scenario::{Army, MiniaturesUse, Rating, Scenario, Unit};
use crate::source::SourceFile;

/// A miniatures rules system: one file in `systems/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct System {
    #[schemars(range(min = 1))]
    pub format_version: u32,
    /// The id scenarios use (`"age-of-honor"`); the file is `systems/ID.ron`.
    pub id: Id,
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// The rules text the data is read from (`"seeds/003: Age of Honor, tables and charts"`).
    #[schemars(length(min = 1))]
    pub source: String,
    /// What is read from the text and what is reconstructed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::common::MAX_NOTES_CHARS))]
    pub notes: Option<String>,
    /// Minutes of real time per move, when the rules say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_minutes: Option<u32>,
    /// The ratings a unit may carry, by name.
    pub ratings: BTreeMap<Id, RatingSpec>,
    /// The ratings a leader may carry, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub leader_ratings: BTreeMap<Id, RatingSpec>,
    /// Troop types by id.
    pub troop_types: BTreeMap<Id, TroopType>,
    /// Basing, ground scale and movement by figure scale (`"15mm"`, `"25mm"`).
    pub figure_scales: BTreeMap<Id, FigureScale>,
    /// Fire types (fire points per stand).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fire_types: BTreeMap<Id, FireType>,
    /// Artillery classes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub artillery_classes: BTreeMap<Id, ArtilleryClass>,
    /// Cavalry types.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cavalry_types: BTreeMap<Id, CavalryType>,
    /// Modifiers the rules give to leaders by name (Age of Honor's reserve movement table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named_modifiers: Vec<NamedModifier>,
    /// National tables: per nation, per troop type, combat values and morale.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub national_tables: BTreeMap<Id, NationalTable>,
}

/// What values a rating takes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingSpec {
    #[schemars(length(min = 1, max = 200))]
    pub description: String,
    pub values: Values,
}

/// The allowed values of a rating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Values {
    /// A whole number in `min..=max`.
    Range { min: i32, max: i32 },
    /// One of these words.
    OneOf(Vec<String>),
    /// An id of one of the system's own tables.
    Table(TableName),
}

/// The system's tables a rating can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum TableName {
    TroopTypes,
    FireTypes,
    ArtilleryClasses,
    CavalryTypes,
    NationalTables,
}

/// The arm a troop type belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
    Leader,
}

/// Whole-number bounds, both inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    pub min: u32,
    pub max: u32,
}

/// A troop type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TroopType {
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    pub arm: Arm,
    /// What one of its units is called (`"battalion"`, `"regiment"`, `"brigade"`).
    #[schemars(length(min = 1, max = 40))]
    pub unit_name: String,
    /// Its base, from each figure scale's `bases`.
    pub base: Id,
    /// Figures on one base.
    #[schemars(range(min = 1, max = 100))]
    pub figures_per_base: u32,
    /// The ratings a unit of this type must carry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<Id>,
    /// Bases in one unit (Louis XIV: a battalion 5, a cavalry regiment 3 squadrons); a counter
    /// carries `units` such units and `bases` = `units` × this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bases_per_unit: Option<u32>,
    /// Stands a brigade of this type may have (Age of Honor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stands: Option<Bounds>,
    /// Where the values come from when not read from the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A length unit for movement rates and ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum LengthUnit {
    Inch,
    Millimetre,
}

impl LengthUnit {
    /// Millimetres in one unit.
    pub fn mm(self) -> f64 {
        match self {
            LengthUnit::Inch => 25.4,
            LengthUnit::Millimetre => 1.0,
        }
    }
}

/// Basing, ground scale and movement at one figure scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FigureScale {
    /// Metres of ground for one millimetre of table (Louis XIV at 15 mm: 2.0).
    #[schemars(range(min = 0.01, max = 1000.0))]
    pub metres_per_mm: f64,
    /// Where the ground scale comes from.
    #[schemars(length(min = 1))]
    pub ground_scale_source: String,
    /// The unit of `movement` and `artillery_ranges`.
    pub distance_unit: LengthUnit,
    /// Bases by id.
    pub bases: BTreeMap<Id, Base>,
    /// Movement per troop type.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub movement: BTreeMap<Id, Movement>,
    /// The artillery range bands, in `distance_unit` (Age of Honor: 2, 4, 8, 12, 18 at 15 mm).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artillery_ranges: Vec<f64>,
}

/// A base (stand).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Base {
    /// Frontage in millimetres.
    #[schemars(range(min = 1.0, max = 500.0))]
    pub frontage_mm: f64,
    /// Depth in millimetres.
    #[schemars(range(min = 1.0, max = 500.0))]
    pub depth_mm: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A movement rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// Basic move.
    pub basic: f64,
    /// On a road.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub road: Option<f64>,
    /// Multiplier in rough ground (Age of Honor: ½, 1, ⅓).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rough_factor: Option<f64>,
    /// Taken off the move to ford.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fording_penalty: Option<f64>,
}

/// A fire type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireType {
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Fire points per stand.
    pub fire_points: f64,
}

/// An artillery class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryClass {
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Fire points at each range band, heavy then light (`[13, 11]` at the shortest).
    pub fire_points: Vec<[f64; 2]>,
}

/// A cavalry type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CavalryType {
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Its melee die modifier.
    pub melee_modifier: i32,
}

/// A modifier the rules give to leaders by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedModifier {
    /// The leader rating it sets (`"reserve_modifier"`).
    pub rating: Id,
    pub value: i32,
    /// Names as the rules print them; a leader whose name contains one as a word matches.
    #[schemars(length(min = 1))]
    pub names: Vec<String>,
}

/// A nation's table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NationalTable {
    #[schemars(length(min = 1, max = 120))]
    pub name: String,
    /// Where the values come from (read, or reconstructed and from what).
    #[schemars(length(min = 1))]
    pub source: String,
    /// By troop type.
    pub entries: BTreeMap<Id, NationalEntry>,
}

/// One line of a national table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NationalEntry {
    /// Attack/defence points per figure, ordered.
    pub ordered: u32,
    /// Attack/defence points per figure, disordered.
    pub disordered: u32,
    /// The die score to rally or control (a lower number is better).
    #[schemars(range(min = 1, max = 6))]
    pub morale: u32,
}

/// The current format version of system files.
pub const SYSTEM_FORMAT_VERSION: u32 = 1;

/// Parses a miniatures system from source text: the same refusals as maps and scenarios (a
/// key given twice, a number that is not finite, a newer format), located.
pub fn parse_system(source: &SourceFile) -> Result<System, LoadError> {
    expect_kind(source, crate::reading::DocumentKind::System)?;
    sanity(source)?;
    let system: System = ron_options()
        .from_str(&source.text)
        .map_err(|e| parse_error(source, &e))?;
    if system.format_version > SYSTEM_FORMAT_VERSION {
        let span = probe_version(source).map_or(0..0, |(_, span)| span);
        return Err(LoadError::NewerVersion {
            location: Box::new(source.location(span)),
            found: system.format_version.into(),
        });
    }
    Ok(system)
}

/// Loads a system file.
pub fn load_system(path: &Path) -> Result<System, LoadError> {
    parse_system(&read_source(path)?)
}

/// The path of a system a scenario uses: its `file`, relative to the scenario file.
pub fn system_path_of(scenario_path: &Path, used: &MiniaturesUse) -> PathBuf {
    scenario_path
        .parent()
        .unwrap_or_else(|| Path::new(""))
        .join(&used.file)
}

/// The systems a scenario names, loaded from beside it: each with the load error if any.
pub fn load_systems_of(
    scenario_path: &Path,
    scenario: &Scenario,
) -> Vec<(Id, Result<System, LoadError>)> {
    scenario
        .miniatures
        .iter()
        .map(|used| {
            (
                used.system.clone(),
                load_system(&system_path_of(scenario_path, used)),
            )
        })
        .collect()
}

/// Ratings by name.
pub type Ratings = BTreeMap<Id, Rating>;

impl Rating {
    /// The number, if it is one.
    pub fn number(&self) -> Option<i32> {
        match self {
            Rating::Number(n) => Some(*n),
            Rating::Text(_) => None,
        }
    }

    /// The text, if it is one.
    pub fn text(&self) -> Option<&str> {
        match self {
            Rating::Text(t) => Some(t),
            Rating::Number(_) => None,
        }
    }
}

impl std::fmt::Display for Rating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rating::Number(n) => write!(f, "{n}"),
            Rating::Text(t) => f.write_str(t),
        }
    }
}

/// A unit's ratings under a system and where each came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Expanded {
    pub ratings: Ratings,
    /// Ratings the unit itself sets (overrides), as opposed to derived ones.
    pub overridden: Vec<Id>,
}

impl Expanded {
    pub fn number(&self, name: &str) -> Option<i32> {
        self.ratings.get(name).and_then(Rating::number)
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        self.ratings.get(name).and_then(Rating::text)
    }
}

/// A unit's ratings under one system: the scenario's conversion rules that match it, in order
/// (later ones win), each `per_cp` rating multiplied by its CP (a counter without CP counts 1);
/// then the unit's own `ratings[system]`; then what follows from the troop type: `bases` from
/// `units` × `bases_per_unit`, and `figures` from `bases` (or `stands`) × `figures_per_base`.
pub fn expand_unit(
    army: &Army,
    unit: &Unit,
    used: &MiniaturesUse,
    system: Option<&System>,
) -> Expanded {
    let mut ratings = Ratings::new();
    for rule in &used.convert {
        if !rule.matches(army, unit) {
            continue;
        }
        for (name, value) in &rule.set {
            ratings.insert(name.clone(), value.clone());
        }
        let cp = i32::from(unit.cp.unwrap_or(1));
        for (name, per) in &rule.per_cp {
            ratings.insert(name.clone(), Rating::Number(per.saturating_mul(cp)));
        }
    }
    let mut overridden = Vec::new();
    if let Some(own) = unit.ratings.get(&used.system) {
        for (name, value) in own {
            ratings.insert(name.clone(), value.clone());
            overridden.push(name.clone());
        }
    }
    let troop = system.and_then(|system| {
        let id = ratings.get("troop_type").and_then(Rating::text)?;
        system.troop_types.get(id)
    });
    if let Some(troop) = troop {
        if let (Some(per), Some(units), false) = (
            troop.bases_per_unit,
            ratings.get("units").and_then(Rating::number),
            ratings.contains_key("bases"),
        ) {
            let per = i32::try_from(per).unwrap_or(i32::MAX);
            ratings.insert("bases".into(), Rating::Number(units.saturating_mul(per)));
        }
        if !ratings.contains_key("figures") {
            let bases = ratings
                .get("bases")
                .or_else(|| ratings.get("stands"))
                .and_then(Rating::number);
            if let Some(bases) = bases {
                let per = i32::try_from(troop.figures_per_base).unwrap_or(i32::MAX);
                ratings.insert("figures".into(), Rating::Number(bases.saturating_mul(per)));
            }
        }
    }
    Expanded {
        ratings,
        overridden,
    }
}

/// The named modifier a leader's name matches, if any: a listed name that appears in the
/// leader's name as a whole word, accents and case ignored (`"Prince Eugène de Savoie"` matches
/// `"Eugene"`).
pub fn named_modifier<'a>(
    system: &'a System,
    rating: &str,
    leader_name: &str,
) -> Option<&'a NamedModifier> {
    let words: Vec<String> = fold(leader_name)
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    system
        .named_modifiers
        .iter()
        .filter(|m| m.rating.as_str() == rating)
        .find(|m| {
            m.names.iter().any(|name| {
                let needle: Vec<String> = fold(name)
                    .split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned)
                    .collect();
                !needle.is_empty() && words.windows(needle.len()).any(|window| window == needle)
            })
        })
}

/// Lower case without the accents of the names in the rules (é, è, ö …).
fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'â' | 'ä' | 'á' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ô' | 'ö' | 'ó' => 'o',
            'û' | 'ü' | 'ù' | 'ú' => 'u',
            'ç' => 'c',
            '’' => '\'',
            other => other,
        })
        .collect()
}

/// A leader's ratings under one system: the scenario's `leaders` entry, and, for a commander
/// in chief (the named tables are of army commanders: Age of Honor's "… Commanding"), each
/// named modifier rating it does not set, with the value the system's table gives the name.
pub fn expand_leader(
    id: &Id,
    name: &str,
    commander: bool,
    used: &MiniaturesUse,
    system: Option<&System>,
) -> Ratings {
    let mut ratings = used.leaders.get(id).cloned().unwrap_or_default();
    if let Some(system) = system.filter(|_| commander) {
        for modifier in &system.named_modifiers {
            if ratings.contains_key(&modifier.rating) {
                continue;
            }
            if let Some(found) = named_modifier(system, modifier.rating.as_str(), name) {
                ratings.insert(found.rating.clone(), Rating::Number(found.value));
            }
        }
    }
    ratings
}
