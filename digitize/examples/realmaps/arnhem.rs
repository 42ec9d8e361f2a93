//! The Arnhem paper scan (`photos-and-scans/arnhem_{NW,NE,SW,SE}.jpg`): four corners of one
//! printed operational map, each scanned apart (2000 × 2000 px, a hex radius of about 128 px),
//! grey-brown hex outlines on mottled white paper, the area beyond the map printed brown, CCRR
//! numbers printed at each hex's top. There is no grid file: each quadrant is calibrated from
//! two hexes read by their printed numbers (their centres read by eye on crops, ±5 px), as a
//! user would, then refined on the print.
//!
//! The truth for each hex centre is its *own printed outline*: for each of its six sides the
//! darkest valley of the luminance across the side's middle (within 6 px of where the refined
//! grid puts it, averaged along the middle 60 %), its sub-pixel position the centroid of the
//! valley below half its depth; the centre is the shift that best explains the sides found
//! (at least four, two of them opposite). It is read for each hex alone, with no fit over the
//! sheet, so it shows what a sheet-wide model leaves locally. Hexes with fewer clear sides
//! (under a forest, a town, the brown beyond the map) are not scored.

use bataille_digitize::calibrate::{Matrix, apply, fit};
use bataille_digitize::refine::{RefineOptions, Refinement, check_clicks, refine};
use bataille_digitize::scan::Scan;
use bataille_digitize::shape::{Place, from_printed_sides};
use bataille_digitize::synth::Rng;
use bataille_schema::map::{FitKind, HexNaming, Orientation, Shifted};
use bataille_schema::{Grid, HexIndex};
use std::path::Path;
use std::time::Instant;

pub struct Quadrant {
    pub file: &'static str,
    first_column: u32,
    first_row: u32,
    columns: u32,
    rows: u32,
    /// Two hexes read by their printed numbers, their centres read by eye.
    pub clicks: [(&'static str, [f64; 2]); 2],
}

pub const QUADRANTS: [Quadrant; 4] = [
    Quadrant {
        file: "arnhem_NW.jpg",
        first_column: 1,
        first_row: 1,
        columns: 9,
        rows: 9,
        clicks: [("0101", [367.0, 422.0]), ("0707", [1526.0, 1747.0])],
    },
    Quadrant {
        file: "arnhem_NE.jpg",
        first_column: 32,
        first_row: 5,
        columns: 8,
        rows: 5,
        clicks: [("3306", [432.0, 1515.0]), ("3907", [1590.0, 1732.0])],
    },
    Quadrant {
        file: "arnhem_SW.jpg",
        first_column: 1,
        first_row: 19,
        columns: 9,
        rows: 8,
        clicks: [("0120", [380.0, 285.0]), ("0526", [1152.0, 1612.0])],
    },
    Quadrant {
        file: "arnhem_SE.jpg",
        first_column: 31,
        first_row: 19,
        columns: 9,
        rows: 8,
        clicks: [("3222", [260.0, 822.0]), ("3726", [1235.0, 1597.0])],
    },
];

/// The quadrant's grid, shifted so that the odd-numbered columns are the upper ones (as the
/// print's numbers show: 0101 above 0201).
pub fn quadrant_grid(q: &Quadrant) -> Grid {
    let make = |shifted| Grid {
        orientation: Orientation::Flat,
        shifted,
        first_column: q.first_column,
        first_row: q.first_row,
        columns: q.columns,
        rows: q.rows,
        hex_names: HexNaming::default(),
    };
    let odd_index = u32::from(q.first_column.is_multiple_of(2));
    [Shifted::Odd, Shifted::Even]
        .into_iter()
        .map(make)
        .find(|g| {
            let up = g.centre(HexIndex::new(odd_index, 0));
            let down = g.centre(HexIndex::new(odd_index + 1, 0));
            up[1] < down[1]
        })
        .unwrap_or_else(|| make(Shifted::Odd))
}

fn luminance(p: [f32; 3]) -> f64 {
    f64::from(0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])
}

fn sample(scan: &Scan, x: f64, y: f64) -> Option<f64> {
    let (w, h) = (f64::from(scan.width()), f64::from(scan.height()));
    if !(x >= 0.5 && y >= 0.5 && x < w - 1.5 && y < h - 1.5) {
        return None;
    }
    let (fx, fy) = (x - 0.5, y - 0.5);
    let (i, j) = (fx.floor(), fy.floor());
    let (u, v) = (fx - i, fy - j);
    let px = |a: f64, b: f64| luminance(scan.image.get_pixel(a as u32, b as u32).0.map(f32::from));
    Some(
        (1.0 - u) * (1.0 - v) * px(i, j)
            + u * (1.0 - v) * px(i + 1.0, j)
            + (1.0 - u) * v * px(i, j + 1.0)
            + u * v * px(i + 1.0, j + 1.0),
    )
}

/// Where a hex's own printed outline puts its centre, starting from the refined grid's local
/// geometry (see the module's documentation), or `None`.
pub fn outline_centre(
    scan: &Scan,
    grid: &Grid,
    r: &Refinement,
    index: HexIndex,
) -> Option<[f64; 2]> {
    let [cx, cy] = grid.centre(index);
    let centre = r.map([f64::from(cx), f64::from(cy)]);
    let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut found = [false; 6];
    for (k, side) in bataille_schema::geometry::sides(grid.orientation)
        .iter()
        .enumerate()
    {
        let [a, b] = grid.side_corners(index, *side)?;
        let [a, b] = [a, b].map(|p| r.map([f64::from(p[0]), f64::from(p[1])]));
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        let length = (b[0] - a[0]).hypot(b[1] - a[1]);
        let t = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
        let mut n = [-t[1], t[0]];
        if n[0] * (mid[0] - centre[0]) + n[1] * (mid[1] - centre[1]) < 0.0 {
            n = [-n[0], -n[1]];
        }
        let steps = 48;
        let profile: Option<Vec<f64>> = (0..=steps)
            .map(|s| {
                let across = -6.0 + 12.0 * f64::from(s) / f64::from(steps);
                let mut sum = 0.0;
                for u in 0..24 {
                    let along = (-0.3 + 0.6 * f64::from(u) / 23.0) * length;
                    sum += sample(
                        scan,
                        mid[0] + t[0] * along + n[0] * across,
                        mid[1] + t[1] * along + n[1] * across,
                    )?;
                }
                Some(sum / 24.0)
            })
            .collect();
        let Some(profile) = profile else { continue };
        let (low, min) = profile
            .iter()
            .copied()
            .enumerate()
            .min_by(|x, y| x.1.total_cmp(&y.1))?;
        let left = profile[..=low].iter().copied().fold(f64::MIN, f64::max);
        let right = profile[low..].iter().copied().fold(f64::MIN, f64::max);
        let paper = left.min(right);
        // A line: darker than the paper on both sides by a clear margin.
        if paper - min < 25.0 || low == 0 || low == steps as usize {
            continue;
        }
        let half = (paper + min) / 2.0;
        let (mut lo, mut hi) = (low, low);
        while lo > 0 && profile[lo - 1] < half {
            lo -= 1;
        }
        while hi < steps as usize && profile[hi + 1] < half {
            hi += 1;
        }
        if lo == 0 || hi == steps as usize {
            continue;
        }
        let (mut sw, mut st) = (0.0, 0.0);
        for (s, l) in profile.iter().enumerate().take(hi + 1).skip(lo) {
            let w = half - l;
            sw += w;
            st += w * (-6.0 + 12.0 * s as f64 / f64::from(steps));
        }
        let offset = st / sw;
        found[k] = true;
        a11 += n[0] * n[0];
        a12 += n[0] * n[1];
        a22 += n[1] * n[1];
        b1 += n[0] * offset;
        b2 += n[1] * offset;
    }
    let sides = found.iter().filter(|f| **f).count();
    let opposite = (0..3).any(|k| found[k] && found[k + 3]);
    let det = a11 * a22 - a12 * a12;
    if sides < 4 || !opposite || det.abs() < 1e-9 {
        return None;
    }
    Some([
        centre[0] + (a22 * b1 - a12 * b2) / det,
        centre[1] + (a11 * b2 - a12 * b1) / det,
    ])
}

fn stats(errors: &[f64]) -> (f64, f64) {
    let mean = errors.iter().sum::<f64>() / errors.len().max(1) as f64;
    (mean, errors.iter().copied().fold(0.0, f64::max))
}

/// Measures each quadrant over `draws` click draws (each read centre ± 2 px).
pub fn measure(dir: &Path, draws: u64) -> anyhow::Result<()> {
    println!(
        "| quadrant | hexes scored | lines found / probed | RMS px (global) | clicks' fit vs outline: mean / worst px | refined vs outline: mean / worst px | each hex's own centre vs outline | spread over draws px | local correction | clicks named | shape: half / off | refine ms |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for q in &QUADRANTS {
        let scan = bataille_digitize::scan::load_scan(
            &dir.join("photos-and-scans").join(q.file),
            &bataille_digitize::scan::ScanLimits::default(),
            &bataille_digitize::scan::no_progress,
        )?;
        let grid = quadrant_grid(q);
        let clicked: Vec<(HexIndex, [f64; 2], [f64; 2])> = q
            .clicks
            .iter()
            .map(|(name, p)| {
                let index = grid
                    .parse(name)
                    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
                let [x, y] = grid.centre(index);
                Ok((index, [f64::from(x), f64::from(y)], *p))
            })
            .collect::<anyhow::Result<_>>()?;
        let mut refinements: Vec<(Matrix, Refinement)> = Vec::new();
        let mut named = 0;
        let mut seconds = 0.0;
        for draw in 0..draws {
            let mut rng = Rng::new(9000 + draw * 11);
            let pairs: Vec<([f64; 2], [f64; 2])> = clicked
                .iter()
                .map(|(_, g, p)| {
                    (
                        *g,
                        [p[0] + rng.range(-2.0, 2.0), p[1] + rng.range(-2.0, 2.0)],
                    )
                })
                .collect();
            let start = fit(FitKind::Similarity, &pairs)?.grid_to_image;
            let seeds: Vec<[f64; 2]> = pairs.iter().map(|p| p.0).collect();
            let t = Instant::now();
            let r = refine(
                &scan,
                &grid,
                &start,
                &seeds,
                FitKind::Affine,
                &RefineOptions::default(),
            );
            seconds += t.elapsed().as_secs_f64();
            let r = r.map_err(|e| anyhow::anyhow!("{}: {e}", q.file))?;
            let checks: Vec<(String, [f64; 2], [f64; 2])> = clicked
                .iter()
                .zip(&pairs)
                .map(|((i, g, _), p)| (grid.name(*i).to_string(), *g, p.1))
                .collect();
            named += check_clicks(&r, &checks)
                .iter()
                .filter(|c| c.suspect)
                .count();
            refinements.push((start, r));
        }
        let (_, first) = &refinements[0];
        let shape = from_printed_sides(
            &grid,
            &first.printed_sides,
            &|i| first.centre(&grid, i),
            scan.width(),
            scan.height(),
        );
        let names = |place| {
            shape
                .hexes(&grid, place)
                .iter()
                .map(|i| grid.name(*i).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        // The outline truth, read around the first draw's grid (it is the same in every draw
        // to well under the outline's 6 px reach).
        let truth: Vec<(HexIndex, [f64; 2])> = grid
            .indices()
            .filter(|i| shape.place(&grid, *i) == Place::On)
            .filter_map(|i| outline_centre(&scan, &grid, first, i).map(|t| (i, t)))
            .collect();
        if std::env::var_os("REALMAPS_LIST").is_some() {
            for (i, t) in &truth {
                let [x, y] = grid.centre(*i);
                let p = first.map([f64::from(x), f64::from(y)]);
                eprintln!(
                    "{} {}: outline at ({:.1}, {:.1}), refined {:+.2} {:+.2}",
                    q.file,
                    grid.name(*i),
                    t[0],
                    t[1],
                    p[0] - t[0],
                    p[1] - t[1]
                );
            }
        }
        let (mut before, mut after, mut own) = (Vec::new(), Vec::new(), Vec::new());
        let mut spread = 0.0f64;
        for (i, t) in &truth {
            let [x, y] = grid.centre(*i);
            let g = [f64::from(x), f64::from(y)];
            let mut positions = Vec::new();
            for (start, r) in &refinements {
                let p = apply(start, g);
                before.push((p[0] - t[0]).hypot(p[1] - t[1]));
                let p = r.map(g);
                after.push((p[0] - t[0]).hypot(p[1] - t[1]));
                positions.push(p);
                let q = r.mapping.hex_centre(&grid, *i);
                own.push((q[0] - t[0]).hypot(q[1] - t[1]));
            }
            for a in &positions {
                for b in &positions {
                    spread = spread.max((a[0] - b[0]).hypot(a[1] - b[1]));
                }
            }
        }
        let (bm, bw) = stats(&before);
        let (am, aw) = stats(&after);
        let (om, ow) = stats(&own);
        let moved = first
            .mapping
            .hex_shifts
            .as_ref()
            .map_or(0, |s| s.iter().filter(|d| **d != [0.0, 0.0]).count());
        println!(
            "| {} | {} | {} / {} | {:.2} ({:.2}) | {bm:.2} / {bw:.2} | {am:.2} / {aw:.2} | {om:.2} / {ow:.2}, {moved} moved | {spread:.2} | {}/{draws} | {named} | {} / {} | {:.0} |",
            q.file,
            truth.len(),
            first.lines_found,
            first.sides_probed,
            first.rms_px,
            first.global_rms_px,
            refinements
                .iter()
                .filter(|(_, r)| r.mapping.warp.is_some())
                .count(),
            names(Place::Half),
            names(Place::Off),
            1000.0 * seconds / draws as f64,
        );
    }
    Ok(())
}
