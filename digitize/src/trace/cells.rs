//! The scan at the trace's working scale, each cell given to the feature whose ink most of its
//! pixels are (the nearest of the map's colours, through a look-up table over 6 bits a
//! channel).

use bataille_schema::{Grid, HexIndex};
use rayon::prelude::*;

use super::{Colours, WORK_RADIUS_PX};
use crate::colour::{Lab, delta_e, srgb_to_lab};
use crate::mapping::GridMapping;
use crate::scan::Scan;

/// The working image.
pub(super) struct Cells {
    /// Row-major, `w × h`: 0 no feature's ink, `f + 1` feature `f`'s.
    pub cells: Vec<u8>,
    pub w: usize,
    pub h: usize,
    /// Scan pixels a cell across.
    pub k: usize,
    /// Cells a hex radius.
    pub unit: f64,
}

/// Every cell of `k × k` scan pixels (at least [`WORK_RADIUS_PX`] pixels a hex radius) given
/// to the feature most of its pixels are ink of: a pixel is feature `f`'s when `inks[f]` is the
/// nearest of the map's colours (the terrain samples', the grid line's, the inks) and within
/// half the way to the nearest other colour (ΔE 8 to 30). Distances to the grid line's ink
/// count `grid_weight` times (1: as any colour; more: a pixel between the grid line's ink and
/// a line's goes to the line, as the dark middle of a line a pixel wide, mixed with the paper).
/// `None` when no feature has an ink, there are over 250 features or the mapping is degenerate.
pub(super) fn ink_cells(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    inks: &[Option<Lab>],
    colours: &Colours,
    grid_weight: f32,
) -> Option<Cells> {
    ink_cells_many(scan, grid, mapping, &[(inks, colours, grid_weight)])?
        .pop()
        .flatten()
}

/// [`ink_cells`] for several sets of inks and colours at once, the scan read once: per set, its
/// cells (`None` when it has no ink or over 250). `None` when the mapping is degenerate.
pub(super) fn ink_cells_many(
    scan: &Scan,
    grid: &Grid,
    mapping: &GridMapping,
    sets: &[(&[Option<Lab>], &Colours, f32)],
) -> Option<Vec<Option<Cells>>> {
    let tables: Vec<Option<Vec<u8>>> = sets
        .iter()
        .map(|(inks, colours, grid_weight)| table(inks, colours, *grid_weight))
        .collect();
    // The working image: each cell the feature most of its pixels are ink of.
    let middle = grid.centre(HexIndex::new(grid.columns / 2, grid.rows / 2));
    let scale = mapping.scale([f64::from(middle[0]), f64::from(middle[1])]);
    if !(scale.is_finite() && scale > 2.0) {
        return None;
    }
    let k = ((scale / WORK_RADIUS_PX).floor() as usize).max(1);
    let (sw, sh) = (scan.width() as usize, scan.height() as usize);
    let (w, h) = (sw.div_ceil(k), sh.div_ceil(k));
    let raw = scan.image.as_raw();
    let used: Vec<(usize, &Vec<u8>)> = tables
        .iter()
        .enumerate()
        .filter_map(|(t, table)| table.as_ref().map(|table| (t, table)))
        .collect();
    let counted: Vec<usize> = used.iter().map(|(t, _)| sets[*t].0.len() + 1).collect();
    let mut cells: Vec<Vec<u8>> = used.iter().map(|_| vec![0u8; w * h]).collect();
    {
        // Row by row, every set's row at once.
        let mut rows: Vec<Vec<&mut [u8]>> = (0..h).map(|_| Vec::new()).collect();
        for set in &mut cells {
            for (y, row) in set.chunks_mut(w).enumerate() {
                rows[y].push(row);
            }
        }
        rows.par_iter_mut().enumerate().for_each(|(y, row)| {
            let mut counts: Vec<Vec<u32>> = counted.iter().map(|n| vec![0u32; *n]).collect();
            for x in 0..w {
                counts
                    .iter_mut()
                    .for_each(|c| c.iter_mut().for_each(|v| *v = 0));
                for py in y * k..((y + 1) * k).min(sh) {
                    for px in x * k..((x + 1) * k).min(sw) {
                        let o = 3 * (py * sw + px);
                        let code = (usize::from(raw[o]) >> 2) << 12
                            | (usize::from(raw[o + 1]) >> 2) << 6
                            | usize::from(raw[o + 2]) >> 2;
                        for ((_, table), c) in used.iter().zip(counts.iter_mut()) {
                            c[usize::from(table[code])] += 1;
                        }
                    }
                }
                for (out, c) in row.iter_mut().zip(&counts) {
                    out[x] = (1..c.len())
                        .filter(|f| c[*f] > 0)
                        .max_by_key(|f| c[*f])
                        .map_or(0, |f| f as u8);
                }
            }
        });
    }
    let mut out: Vec<Option<Cells>> = (0..sets.len()).map(|_| None).collect();
    for ((t, _), cells) in used.iter().zip(cells) {
        out[*t] = Some(Cells {
            cells,
            w,
            h,
            k,
            unit: scale / k as f64,
        });
    }
    Some(out)
}

/// A look-up table over 6 bits a channel: 0 none, f + 1 feature f's ink (see [`ink_cells`]);
/// `None` when no feature has an ink or there are over 250.
fn table(inks: &[Option<Lab>], colours: &Colours, grid_weight: f32) -> Option<Vec<u8>> {
    if inks.iter().all(Option::is_none) || inks.len() > 250 {
        return None;
    }
    // The map's other colours: the terrain samples' and the grid line's (weighted).
    let mut others: Vec<(Lab, f32)> = colours.terrain.iter().map(|c| (*c, 1.0)).collect();
    others.extend(colours.grid_ink.map(|g| (g, grid_weight)));
    // How close to its ink a pixel must be: half the way to the nearest other colour.
    let radius: Vec<f32> = inks
        .iter()
        .map(|k| {
            k.map_or(0.0, |k| {
                let nearest = others
                    .iter()
                    .map(|(o, weight)| weight * delta_e(k, *o))
                    .fold(f32::INFINITY, f32::min);
                (0.5 * nearest).clamp(8.0, 30.0)
            })
        })
        .collect();
    Some(
        (0..1usize << 18)
            .into_par_iter()
            .map(|code| {
                let level = |shift: usize| (((code >> shift) & 63) as u8) << 2 | 2;
                let lab = srgb_to_lab([level(12), level(6), level(0)]);
                let (mut best, mut best_d) = (None, f32::INFINITY);
                for (f, k) in inks.iter().enumerate() {
                    if let Some(k) = k {
                        let d = delta_e(lab, *k);
                        if d < best_d {
                            (best, best_d) = (Some(f), d);
                        }
                    }
                }
                let Some(f) = best else { return 0 };
                if best_d > radius[f]
                    || others
                        .iter()
                        .any(|(o, weight)| weight * delta_e(lab, *o) < best_d)
                {
                    return 0;
                }
                (f + 1) as u8
            })
            .collect(),
    )
}
