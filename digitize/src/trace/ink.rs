//! The ink of a feature, read from the hexsides the user marked with it.

use bataille_schema::{Grid, HexIndex, Side};

use super::Colours;
use crate::calibrate::{apply, local_scale};
use crate::colour::{Lab, delta_e, dominant, srgb_to_lab};
use crate::mapping::GridMapping;
use crate::scan::Scan;

/// The ink of a feature: over the pixels near its marked hexsides (the middle 70 % of each,
/// ±0.3 hex radius across), those over ΔE 15 from both hexes' colours and from the grid line's
/// ink; their dominant colour.
pub(super) fn feature_ink(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    colours: &Colours,
    hexsides: &[(HexIndex, Side)],
) -> Option<Lab> {
    let grid_ink = colours.grid_ink;
    let mut pixels = Vec::new();
    for &(index, side) in hexsides {
        let Some([a, b]) = grid.side_corners(index, side) else {
            continue;
        };
        let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
        let c = grid.centre(index);
        let c = [f64::from(c[0]), f64::from(c[1])];
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        // The local correction is a shift over one hexside.
        let m = &mapping.near(mid);
        let out = [mid[0] - c[0], mid[1] - c[1]];
        let l = out[0].hypot(out[1]).max(1e-9);
        let out = [out[0] / l, out[1] / l];
        let scale = local_scale(m, mid).max(1.0);
        let steps = (0.7 * scale).ceil().max(4.0) as usize;
        let across = (0.6 * scale).ceil().max(4.0) as usize;
        let mut hexes: Vec<Lab> = Vec::new();
        for h in [Some(index), grid.neighbour(index, side)]
            .into_iter()
            .flatten()
        {
            if let Some(colour) = (colours.hex)(h) {
                hexes.push(colour);
            }
        }
        for u in 0..=steps {
            let f = 0.15 + 0.7 * u as f64 / steps as f64;
            let p = [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
            for k in 0..=across {
                let t = -0.3 + 0.6 * k as f64 / across as f64;
                let q = apply(m, [p[0] + t * out[0], p[1] + t * out[1]]);
                let Some(rgb) = scan.pixel_at(q[0], q[1]) else {
                    continue;
                };
                let lab = srgb_to_lab(rgb);
                if hexes.iter().all(|h| delta_e(lab, *h) > 15.0)
                    && grid_ink.is_none_or(|g| delta_e(lab, g) > 15.0)
                {
                    pixels.push(lab);
                }
            }
        }
    }
    if pixels.len() < 8 {
        return None;
    }
    dominant(&mut pixels).map(|(lab, _)| lab)
}
