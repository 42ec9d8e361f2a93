//! Canonical form: the one way each document is written, so that loading and saving changes no
//! byte and two people's saves of the same content are identical.

use crate::map::Map;
use crate::scenario::Scenario;

fn sort_dedup<T: Ord>(list: &mut Vec<T>) {
    list.sort();
    list.dedup();
}

impl Map {
    /// Puts the map in canonical form: overlay lists sorted, each hexside under its canonical
    /// name (`2314/NW` becomes `2213/SE`), lists (checked and half hexes, `allow`) sorted without repeats, empty entries dropped.
    /// Names that do not parse are kept as written, for the validator to report.
    pub fn canonicalize(&mut self) {
        for overlays in self.overlays.values_mut() {
            sort_dedup(overlays);
        }
        self.overlays.retain(|_, overlays| !overlays.is_empty());
        let grid = self.grid.clone();
        for sides in self.hexsides.values_mut() {
            for side in sides.iter_mut() {
                if let Ok((index, s)) = grid.parse_hexside(side.as_str()) {
                    *side = grid.hexside_ref(index, s);
                }
            }
            // Each name parsed once, not at every comparison (a million hexsides: seconds).
            sides.sort_by_cached_key(|side| sort_key_of_hexside(&grid, side.as_str()));
            sides.dedup();
        }
        self.hexsides.retain(|_, sides| !sides.is_empty());
        sort_dedup(&mut self.checked);
        sort_dedup(&mut self.half_hexes);
        sort_dedup(&mut self.allow);
        for sides in self.friendly_edges.values_mut() {
            sort_dedup(sides);
        }
    }
}

/// Hexsides sort by row, then column, then side, so a river reads in map order.
fn sort_key_of_hexside(grid: &crate::map::Grid, text: &str) -> (u32, u32, u8, String) {
    match grid.parse_hexside(text) {
        Ok((index, side)) => (index.row, index.col, side as u8, String::new()),
        Err(_) => (u32::MAX, u32::MAX, 0, text.to_owned()),
    }
}

impl Scenario {
    /// Puts the scenario in canonical form: zone hexes and suppression lists sorted without
    /// repeats. Armies, corps and units keep the order the author gave them.
    pub fn canonicalize(&mut self) {
        sort_dedup(&mut self.allow);
        for zone in &mut self.zones {
            zone.hexes.sort();
            zone.hexes.dedup();
        }
        for army in &mut self.armies {
            sort_dedup(&mut army.friendly_edges);
            // Only a list there is sorted: writing through an absent one would box an empty
            // list in every unit (`Thin`).
            for unit in army.units.iter_mut().filter(|u| !u.allow.is_empty()) {
                sort_dedup(&mut unit.allow);
            }
            for corps in &mut army.corps {
                sort_dedup(&mut corps.friendly_edges);
                sort_dedup(&mut corps.allow);
            }
        }
    }
}
