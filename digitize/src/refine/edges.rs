//! The print's edge told by its colours across the sides: where the colour beyond the print
//! (the brown round an operational map, a frame's band, a margin: the median of what lies
//! beyond the grid's outward sides whose two sides differ, a line drawn on them or not) meets
//! the print's own at a hexside, the hex on the print's side is on the print and the other is
//! not, whatever lines are drawn there (a track band's black rules can fall where the grid
//! puts a side, a river along a side hides its line). See [`crate::shape::from_printed_sides`].

use super::probe::{EDGE, SideGeometry};
use super::{OnScan, PrintedSides};
use crate::colour::{Lab, delta_e};

/// The colour beyond the print tells the print's edge only when the print itself is not of
/// that colour: when at most this share of the colours read on the two sides of the grid's
/// inner sides are within [`EDGE`] of it (a white margin round a map whose clear terrain is
/// the same paper, or a sea both beyond the frame and on the map, tell nothing).
const BEYOND_INSIDE_AT_MOST: f64 = 0.1;

/// Counts, per hex, the sides where the print ends by its colours with the hex inside
/// (`edge_inside`) or outside (`edge_outside`; inner sides only: beyond an outward side there
/// is no hex). A side shows such an edge when its two sides differ by [`EDGE`] and exactly one
/// of them is within [`EDGE`] of `beyond`.
pub(super) fn tally(
    geometry: &[SideGeometry],
    on_scan: &[OnScan],
    beyond: Option<Lab>,
    printed: &mut [PrintedSides],
) {
    let Some(beyond) = beyond else {
        return;
    };
    let near = |c: Lab| delta_e(c, beyond) < EDGE;
    let inner: Vec<Lab> = on_scan
        .iter()
        .filter(|(s, _, _)| geometry[*s].other.is_some())
        .filter_map(|(_, _, c)| *c)
        .flat_map(|(a, b)| [a, b])
        .collect();
    let like_beyond = inner.iter().filter(|c| near(**c)).count();
    if inner.is_empty() || like_beyond as f64 > BEYOND_INSIDE_AT_MOST * inner.len() as f64 {
        return;
    }
    for (s, _, colours) in on_scan {
        let Some((towards, across)) = *colours else {
            continue;
        };
        if delta_e(towards, across) < EDGE {
            continue;
        }
        let g = &geometry[*s];
        let (inside, outside) = match (near(towards), near(across)) {
            (false, true) => (Some(g.hex), g.other),
            (true, false) => match g.other {
                Some(other) => (Some(other), Some(g.hex)),
                None => (None, None),
            },
            _ => (None, None),
        };
        if let Some(h) = inside {
            printed[h].edge_inside = printed[h].edge_inside.saturating_add(1);
        }
        if let Some(h) = outside {
            printed[h].edge_outside = printed[h].edge_outside.saturating_add(1);
        }
    }
}
