//! A selected leader's command view: the outline of its command radius and which counters the
//! validator found in or out of command.

use std::collections::HashSet;

use bataille_schema::Scenario;
use egui::Pos2;

use crate::model::scenario_edit::CounterAt;
use crate::model::selection::Sel;
use bataille_validator::{Code, Diagnostic};

/// A selected leader's command: the outline of its radius (grid space) and which counters the
/// validator found in or out of command.
#[derive(Debug, Clone, Default)]
pub struct CommandView {
    pub ring: Vec<[Pos2; 2]>,
    pub in_command: Vec<CounterAt>,
    pub out_of_command: Vec<CounterAt>,
}

/// What the command view was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandKey {
    pub sel: Sel,
    pub revision: u64,
    pub diagnostics: u64,
}

/// The command view of a selected line leader, corps or commander in chief: the radius is
/// geometry (`Grid::range` of the radius the data gives); who is out of command is what the
/// validator reported (W0901 for units, W0801 for line leaders), everyone else placed is in.
pub fn command_view(
    s: &Scenario,
    grid: &bataille_schema::Grid,
    sel: Sel,
    diagnostics: &[Diagnostic],
) -> Option<CommandView> {
    let out_ids = |code: Code| -> HashSet<&str> {
        diagnostics
            .iter()
            .filter(|d| d.code == code)
            .filter_map(|d| d.subject.as_deref())
            .collect()
    };
    let on_map = |p: &bataille_schema::scenario::Placement| p.hex().and_then(|h| grid.lookup(h));
    let mut view = CommandView::default();
    match sel {
        Sel::Leader(a, c) | Sel::Corps(a, c) => {
            let army = s.armies.get(a)?;
            let corps = army.corps.get(c)?;
            let leader = corps.leader.as_ref()?;
            let centre = on_map(&leader.placement)?;
            let radius = leader
                .radius_hexes
                .unwrap_or(s.rules.command.leader_radius_hexes);
            view.ring = ring(grid, centre, radius);
            let out = out_ids(Code::W0901);
            for (u, unit) in army.units.iter().enumerate() {
                if unit.corps.as_ref() == Some(&corps.id) && on_map(&unit.placement).is_some() {
                    if out.contains(unit.id.as_str()) {
                        view.out_of_command.push(CounterAt::Unit(a, u));
                    } else {
                        view.in_command.push(CounterAt::Unit(a, u));
                    }
                }
            }
        }
        Sel::Commander(a, k) => {
            let army = s.armies.get(a)?;
            let chief = army.commanders.get(k)?;
            let centre = on_map(&chief.placement)?;
            let radius = chief
                .radius_hexes
                .unwrap_or(s.rules.command.commander_radius_hexes);
            view.ring = ring(grid, centre, radius);
            let out = out_ids(Code::W0801);
            for (c, corps) in army.corps.iter().enumerate() {
                if !chief.commands.contains(&corps.id) {
                    continue;
                }
                if let Some(leader) = &corps.leader
                    && on_map(&leader.placement).is_some()
                {
                    if out.contains(leader.id.as_str()) {
                        view.out_of_command.push(CounterAt::Leader(a, c));
                    } else {
                        view.in_command.push(CounterAt::Leader(a, c));
                    }
                }
            }
        }
        _ => return None,
    }
    Some(view)
}

/// The outline of a command radius (geometry only: who is in command is the validator's answer).
fn ring(
    grid: &bataille_schema::Grid,
    centre: bataille_schema::HexIndex,
    radius: u32,
) -> Vec<[egui::Pos2; 2]> {
    use crate::tools::zone::{OUTLINE_INSET, outline_points};
    outline_points(grid.range_outline(centre, radius, OUTLINE_INSET))
}
