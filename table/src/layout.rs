//! Where each base stands: a counter expanded under the system (battalions of 5 bases, regiments
//! of 3 squadrons, brigades of stands) laid out in lines as wide as its hex, the counters of one
//! hex one behind another, each turned to its facing, in table millimetres of the whole map.

use std::collections::BTreeMap;

use bataille_schema::geometry::facing_bearing;
use bataille_schema::scenario::{MiniaturesUse, Placement};
use bataille_schema::system::{Arm, FigureScale, System, expand_unit};
use bataille_schema::{HexIndex, Map, Scenario};

/// Gap between sub-units side by side and between lines, in mm.
const GAP_MM: f64 = 2.0;
/// Most sub-units or stands laid out for one counter (a guard against absurd ratings).
const MAX_BASES: usize = 400;

/// One base at true size.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedBase {
    /// Its centre, in millimetres.
    pub centre: [f64; 2],
    pub frontage_mm: f64,
    pub depth_mm: f64,
}

/// A counter (unit or leader) on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedUnit {
    pub id: String,
    pub name: String,
    pub army: usize,
    /// The hex it stands on.
    pub hex: String,
    /// The hex's centre, in millimetres.
    pub hex_centre: [f64; 2],
    /// The centre of its block of bases, in millimetres.
    pub centre: [f64; 2],
    /// Bearing of its front, degrees clockwise from north.
    pub bearing: f64,
    /// Frontage and depth of its block.
    pub block: [f64; 2],
    /// Bases' centres relative to the block centre before turning (x right, y back).
    pub local: Vec<[f64; 2]>,
    pub base: [f64; 2],
    pub leader: bool,
    pub colour: String,
    /// The stack's total depth in its hex, mm.
    pub stack_depth: f64,
}

impl PlacedUnit {
    /// Its bases in table millimetres.
    pub fn bases(&self) -> Vec<PlacedBase> {
        let (s, c) = self.bearing.to_radians().sin_cos();
        self.local
            .iter()
            .map(|[x, y]| PlacedBase {
                // Local y grows towards the rear; the front faces the bearing.
                centre: [
                    self.centre[0] + x * c - y * s,
                    self.centre[1] + x * s + y * c,
                ],
                frontage_mm: self.base[0],
                depth_mm: self.base[1],
            })
            .collect()
    }
}

/// Everything laid out, plus what is not on the table at set-up.
pub(crate) struct Laid {
    pub units: Vec<PlacedUnit>,
    pub later: Vec<String>,
}

pub(crate) fn lay_out(
    scenario: &Scenario,
    map: &Map,
    system: &System,
    used: &MiniaturesUse,
    scale: &FigureScale,
    mm_per_grid: f64,
) -> Laid {
    let grid = &map.grid;
    let hex_width = 3f64.sqrt() * mm_per_grid;
    let mut by_hex: BTreeMap<(u32, u32), Vec<PlacedUnit>> = BTreeMap::new();
    let mut later = Vec::new();
    let leader_type = system
        .troop_types
        .values()
        .find(|t| t.arm == Arm::Leader)
        .and_then(|t| scale.bases.get(&t.base));
    let mut place = |hex: HexIndex, unit: PlacedUnit| {
        by_hex.entry((hex.row, hex.col)).or_default().push(unit);
    };
    for (a, army) in scenario.armies.iter().enumerate() {
        let colour_of = |corps: Option<&bataille_schema::Id>| {
            corps
                .and_then(|c| army.corps.iter().find(|k| &k.id == c))
                .map_or_else(|| "#555555".to_owned(), |k| k.colour.0.to_string())
        };
        let mut leaders: Vec<(&str, &str, &Placement, Option<&bataille_schema::Id>)> = army
            .commanders
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str(), &c.placement, None))
            .collect();
        for corps in &army.corps {
            if let Some(l) = &corps.leader {
                leaders.push((
                    l.id.as_str(),
                    l.name.as_str(),
                    &l.placement,
                    Some(&corps.id),
                ));
            }
        }
        if let Some(base) = leader_type {
            for (id, name, placement, corps) in leaders {
                let Some(hex) = placement.hex().and_then(|h| grid.lookup(h)) else {
                    continue;
                };
                place(
                    hex,
                    PlacedUnit {
                        id: id.to_owned(),
                        name: name.to_owned(),
                        army: a,
                        hex: grid.name(hex).to_string(),
                        hex_centre: centre_mm(map, hex, mm_per_grid),
                        centre: [0.0; 2],
                        bearing: 0.0,
                        block: [base.frontage_mm, base.depth_mm],
                        local: vec![[0.0, 0.0]],
                        base: [base.frontage_mm, base.depth_mm],
                        leader: true,
                        colour: colour_of(corps),
                        stack_depth: 0.0,
                    },
                );
            }
        }
        for unit in &army.units {
            let expanded = expand_unit(army, unit, used, Some(system));
            let Some(troop) = expanded
                .text("troop_type")
                .and_then(|t| system.troop_types.get(t))
            else {
                continue;
            };
            let Some(base) = scale.bases.get(&troop.base) else {
                continue;
            };
            let Some(hex) = unit.placement.hex().and_then(|h| grid.lookup(h)) else {
                if let Placement::Reinforcement { turn, entry } = &unit.placement {
                    let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
                    later.push(format!(
                        "{} (turn {turn}, at {})",
                        unit.name,
                        entry.join(" or ")
                    ));
                }
                continue;
            };
            // Sub-units: Louis XIV battalions/regiments/batteries of `bases_per_unit` bases;
            // Age of Honor: one brigade of `stands` stands, laid as sub-units of one stand.
            let (count, per) = match (troop.bases_per_unit, expanded.number("units")) {
                (Some(per), Some(units)) => (units.max(1) as usize, per.max(1) as usize),
                _ => {
                    let stands = expanded
                        .number("stands")
                        .or_else(|| expanded.number("bases"))
                        .unwrap_or(1);
                    (stands.max(1) as usize, 1)
                }
            };
            // Both bounded before anything is allocated: a `bases_per_unit` of 4 billion is
            // one unit of MAX_BASES bases, not an allocation the machine cannot make.
            let per = per.min(MAX_BASES);
            let count = count.min(MAX_BASES / per.max(1)).max(1);
            let sub_width = per as f64 * base.frontage_mm;
            let per_row =
                (((hex_width + GAP_MM) / (sub_width + GAP_MM)).floor() as usize).clamp(1, count);
            let rows = count.div_ceil(per_row);
            let block_w = per_row as f64 * sub_width + (per_row - 1) as f64 * GAP_MM;
            let block_d = rows as f64 * base.depth_mm + (rows - 1) as f64 * GAP_MM;
            let mut local = Vec::with_capacity(count * per);
            for i in 0..count {
                let row = i / per_row;
                let in_row = (count - row * per_row).min(per_row);
                let col = i % per_row;
                let row_w = in_row as f64 * sub_width + (in_row - 1) as f64 * GAP_MM;
                let x0 = -row_w / 2.0 + col as f64 * (sub_width + GAP_MM);
                let y =
                    -block_d / 2.0 + row as f64 * (base.depth_mm + GAP_MM) + base.depth_mm / 2.0;
                for b in 0..per {
                    local.push([x0 + (b as f64 + 0.5) * base.frontage_mm, y]);
                }
            }
            let bearing = unit.facing.map_or(0.0, |side| {
                f64::from(facing_bearing(grid.orientation, side))
            });
            place(
                hex,
                PlacedUnit {
                    id: unit.id.to_string(),
                    name: unit.name.to_string(),
                    army: a,
                    hex: grid.name(hex).to_string(),
                    hex_centre: centre_mm(map, hex, mm_per_grid),
                    centre: [0.0; 2],
                    bearing,
                    block: [block_w, block_d],
                    local,
                    base: [base.frontage_mm, base.depth_mm],
                    leader: false,
                    colour: colour_of(unit.corps.as_ref()),
                    stack_depth: 0.0,
                },
            );
        }
    }
    // The counters of a hex one behind another, along the rear of the first combat counter
    // (leaders last, behind their troops), the whole stack centred on the hex.
    let mut units = Vec::new();
    for (_, mut stack) in by_hex {
        stack.sort_by_key(|u| u.leader);
        let bearing = stack.first().map_or(0.0, |u| u.bearing);
        for u in &mut stack {
            if u.leader {
                u.bearing = bearing;
            }
        }
        let total: f64 = stack.iter().map(|u| u.block[1]).sum::<f64>()
            + GAP_MM * (stack.len().saturating_sub(1)) as f64;
        let (s, c) = bearing.to_radians().sin_cos();
        let rear = [-s, c];
        let mut offset = -total / 2.0;
        for mut u in stack {
            let along = offset + u.block[1] / 2.0;
            u.centre = [
                u.hex_centre[0] + rear[0] * along,
                u.hex_centre[1] + rear[1] * along,
            ];
            u.stack_depth = total;
            offset += u.block[1] + GAP_MM;
            units.push(u);
        }
    }
    Laid { units, later }
}

/// A hex's centre in table millimetres (the first hex's centre is the origin).
pub(crate) fn centre_mm(map: &Map, hex: HexIndex, mm_per_grid: f64) -> [f64; 2] {
    let [x, y] = map.grid.centre(hex);
    [f64::from(x) * mm_per_grid, f64::from(y) * mm_per_grid]
}
