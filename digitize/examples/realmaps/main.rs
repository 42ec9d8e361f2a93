//! The calibration benchmark on real published maps (`../shared/realmaps/`, outside the
//! repository: the map art is the publishers'; nothing here runs when the folder is absent).
//!
//! For each map with a known grid (`naw`, `tld`, `asl-bd02`, and `naw` bent by a synthetic
//! scanner bow and by a lens), clicks are drawn at well-spread hexes, each the printed centre
//! plus a uniform error of up to ±2 px in x and y (ten draws by default; one variant puts one of
//! six clicks 10 px off), the clicks are fitted as today and then refined on the print
//! ([`bataille_digitize::refine`]). Reported per case: the error of every hex centre on the
//! print against the truth (mean and worst, over the draws), the spread of each hex's fitted
//! centre over the draws (the largest, over hexes), and the clicks named suspect.
//!
//! With `--rivers`, the hexside features instead: on `tld` (rivers drawn along hexsides, sea and
//! lakes of the same blue), per click draw the hexsides are classified from three marked river
//! hexsides and a few terrain samples, with and without the line tracing, against a truth read
//! from the art's own river colour along each hexside of the exact grid (see [`river_truth`]).
//!
//! With `--terrain`, naw's woods against its truth, flat, bowed and through a lens, read with
//! the refinement's global fit alone and with its local correction (see [`naw_terrain`]).
//!
//! With `--roads`, the roads and railways drawn through the hexes on `tld`, against our
//! labels (see [`roads`]).
//!
//! With `--arnhem`, the Arnhem paper scan (see [`arnhem`]); with `--arnhem --features`, its
//! terrain, rivers and shape against our hand-labelled truth (see [`arnhem_features`]).
//!
//! `cargo run --release -p bataille-digitize --example realmaps [-- --dir ../shared/realmaps]
//! [--draws 10] [--map naw] [--terrain] [--rivers [--refine]] [--roads [--refine]] [--arnhem [--features]]`

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, bail};
use std::collections::{BTreeMap, HashSet};

use bataille_digitize::calibrate::{apply, fit};
use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, interior_hexsides, suggest_hexsides_with_inks, suggest_terrain,
};
use bataille_digitize::refine::{RefineOptions, check_clicks, refine};
use bataille_digitize::scan::{Scan, ScanLimits, load_scan, no_progress};
use bataille_digitize::synth::Rng;
use bataille_schema::map::{FitKind, HexNaming, HexsideSymbol, Orientation, Shifted};
use bataille_schema::{Grid, HexIndex, Id, Side};

mod arnhem;
mod arnhem_features;
mod naw_terrain;
mod roads;
mod tld_shape;

/// A map with its grid and the printed centre of each lattice hex (row-major over the grid,
/// `None` where the hex is not on the print).
struct RealMap {
    name: String,
    scan: Scan,
    grid: Grid,
    truth: Vec<Option<[f64; 2]>>,
    /// Which hexes are on the print (row-major), whether or not their centre is known.
    on_print: Vec<bool>,
    /// Which hexes are *wholly* on the print, when that differs from `on_print` (tld's
    /// module flags only its centres: [`tld_shape`]): the map's shape is checked against it.
    whole: Option<Vec<bool>>,
}

fn grid(columns: u32, rows: u32, first_row: u32, shifted: Shifted) -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted,
        first_column: 1,
        first_row,
        columns,
        rows,
        hex_names: HexNaming::default(),
    }
}

fn slot(grid: &Grid, i: HexIndex) -> usize {
    i.row as usize * grid.columns as usize + i.col as usize
}

/// The shift whose lattice the truth centres follow (an affine fit of grid to truth leaves
/// under a pixel).
fn pick_shift(
    columns: u32,
    rows: u32,
    first_row: u32,
    centres: &[(u32, u32, [f64; 2])],
) -> anyhow::Result<Grid> {
    for shifted in [Shifted::Odd, Shifted::Even] {
        let g = grid(columns, rows, first_row, shifted);
        let pairs: Vec<([f64; 2], [f64; 2])> = centres
            .iter()
            .map(|(c, r, p)| {
                let [x, y] = g.centre(HexIndex::new(*c, *r));
                ([f64::from(x), f64::from(y)], *p)
            })
            .collect();
        if let Ok(f) = fit(FitKind::Affine, &pairs)
            && f.rms_px < 1.0
        {
            return Ok(g);
        }
    }
    bail!("no shift of the grid fits the truth centres")
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| path.display().to_string())
}

fn load(dir: &Path, file: &str) -> anyhow::Result<Scan> {
    Ok(load_scan(
        &dir.join(file),
        &ScanLimits::default(),
        &no_progress,
    )?)
}

fn naw(dir: &Path) -> anyhow::Result<RealMap> {
    let dir = dir.join("naw");
    let text = read(&dir.join("truth_hexes.csv"))?;
    let mut centres = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (c, r) = (
            f[0][..2].parse::<u32>()? - 1,
            f[0][2..4].parse::<u32>()? - 1,
        );
        // Fitted in pixel-index coordinates (the top-left pixel's middle at (0, 0)); ours put
        // it at (0.5, 0.5).
        let (x, y): (f64, f64) = (f[1].parse()?, f[2].parse()?);
        centres.push((c, r, [x + 0.5, y + 0.5]));
    }
    let grid = pick_shift(23, 17, 1, &centres)?;
    let mut truth = vec![None; grid.hex_count()];
    for (c, r, p) in centres {
        truth[slot(&grid, HexIndex::new(c, r))] = Some(p);
    }
    Ok(RealMap {
        name: "naw".into(),
        scan: load(&dir, "napoleon_at_waterloo.jpeg")?,
        grid,
        on_print: truth.iter().map(Option::is_some).collect(),
        whole: None,
        truth,
    })
}

/// The grid line's colours in `tld`'s colour-mapped art (between land hexes; between clear
/// and bocage or town hexes).
const TLD_GRID_INKS: [[u8; 3]; 2] = [[49, 82, 68], [131, 123, 117]];

/// A hex's printed centre on `tld`, read from its own printed outline: for each of its six
/// sides, the grid-ink pixels within 4 px across the side's middle 60 % (around where
/// VASSAL's grid puts it), the mean distance across the side of those within 1.5 px of their
/// median the line's offset (a side where other ink of that colour, a label's letters, is over
/// a fifth of it is not read); the centre is
/// the shift that best explains the offsets (least squares over the sides found, at least 4,
/// both of two opposite sides among them or 5). Independent of the refinement: no colour
/// profile, no fit over the sheet, each hex alone. `None` when too few sides show the ink
/// (under a river, a town, the sea).
fn printed_centre(scan: &Scan, around: [f64; 2], radius: f64) -> Option<[f64; 2]> {
    let apothem = radius * 3f64.sqrt() / 2.0;
    let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut found = [false; 6];
    for (k, slot) in found.iter_mut().enumerate() {
        // Flat tops: the sides' normals at 30° + 60° k.
        let angle = (30.0 + 60.0 * k as f64).to_radians();
        let n = [angle.cos(), angle.sin()];
        let t = [-n[1], n[0]];
        let mid = [around[0] + apothem * n[0], around[1] + apothem * n[1]];
        let (x0, x1) = ((mid[0] - radius).floor(), (mid[0] + radius).ceil());
        let (y0, y1) = ((mid[1] - radius).floor(), (mid[1] + radius).ceil());
        let mut inked: Vec<f64> = Vec::new();
        let mut y = y0;
        while y <= y1 {
            let mut x = x0;
            while x <= x1 {
                let c = [x + 0.5, y + 0.5];
                let d = [c[0] - mid[0], c[1] - mid[1]];
                let (across, along) = (d[0] * n[0] + d[1] * n[1], d[0] * t[0] + d[1] * t[1]);
                if across.abs() <= 4.0
                    && along.abs() <= 0.3 * radius
                    && scan
                        .pixel_at(c[0], c[1])
                        .is_some_and(|p| TLD_GRID_INKS.contains(&p))
                {
                    inked.push(across);
                }
                x += 1.0;
            }
            y += 1.0;
        }
        // The line: the ink within 1.5 px of the median; a side where other ink of the grid's
        // colour (a label's letters) is over a fifth of it is not read. A one-pixel line over
        // 60 % of a 37 px side is about 22 pixels.
        if inked.is_empty() {
            continue;
        }
        inked.sort_by(f64::total_cmp);
        let median = inked[inked.len() / 2];
        let line: Vec<f64> = inked
            .iter()
            .copied()
            .filter(|a| (a - median).abs() <= 1.5)
            .collect();
        if line.len() < (0.4 * radius) as usize || 5 * line.len() < 4 * inked.len() {
            continue;
        }
        *slot = true;
        let offset = line.iter().sum::<f64>() / line.len() as f64;
        a11 += n[0] * n[0];
        a12 += n[0] * n[1];
        a22 += n[1] * n[1];
        b1 += n[0] * offset;
        b2 += n[1] * offset;
    }
    let sides = found.iter().filter(|f| **f).count();
    let opposite = (0..3).any(|k| found[k] && found[k + 3]);
    let det = a11 * a22 - a12 * a12;
    if sides < 4 || !opposite && sides < 5 || det.abs() < 1e-9 {
        return None;
    }
    // The outline's shift; opposite sides pull equally, so a hex drawn a little large or
    // small does not move its centre.
    let shift = [(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det];
    Some([around[0] + shift[0], around[1] + shift[1]])
}

/// `tld`: the lattice from the module's VASSAL grid (which hex is where, which is off the
/// print); each hex's printed centre read from its own outline ([`printed_centre`]). VASSAL's
/// grid is the module maker's, not the art's: its centres are whole pixels and the art's hexes
/// stray from it by up to a few pixels (measured and printed by this benchmark).
fn tld(dir: &Path) -> anyhow::Result<RealMap> {
    let dir = dir.join("tld");
    let text = read(&dir.join("grid_centres.csv"))?;
    let mut centres = Vec::new();
    let mut on = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.trim().split(',').collect();
        let (c, r) = (f[0].parse::<i64>()? - 1, f[1].parse::<i64>()? + 1);
        // VASSAL's pixel coordinates are Java2D's: (x, y) is a pixel's top-left corner, as
        // ours (the pixel's middle is at +0.5); its centres are truncated to whole pixels.
        let p = [f[2].parse::<f64>()?, f[3].parse::<f64>()?];
        centres.push((c as u32, r as u32, p));
        on.push(f[4] == "0");
    }
    let columns = centres.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let rows = centres.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let grid = pick_shift(columns, rows, 0, &centres)?;
    let scan = load(&dir, "Map_Full.png")?;
    // VASSAL's own (untruncated) lattice: dx = 55.43, dy = 64 px.
    let pairs: Vec<([f64; 2], [f64; 2])> = centres
        .iter()
        .map(|(c, r, p)| {
            let [x, y] = grid.centre(HexIndex::new(*c, *r));
            ([f64::from(x), f64::from(y)], *p)
        })
        .collect();
    let vassal = fit(FitKind::Affine, &pairs)?.grid_to_image;
    let radius = bataille_digitize::calibrate::local_scale(&vassal, [0.0, 0.0]);
    let mut truth = vec![None; grid.hex_count()];
    let mut on_print_flags = vec![false; grid.hex_count()];
    let (mut read_from_print, mut on_print) = (0usize, 0usize);
    let mut vassal_errors = Vec::new();
    for ((c, r, p), on) in centres.into_iter().zip(on) {
        if !on {
            continue;
        }
        on_print += 1;
        let index = HexIndex::new(c, r);
        on_print_flags[slot(&grid, index)] = true;
        let [x, y] = grid.centre(index);
        let nominal = apply(&vassal, [f64::from(x), f64::from(y)]);
        if let Some(printed) = printed_centre(&scan, nominal, radius) {
            read_from_print += 1;
            vassal_errors.push((p[0] - printed[0]).hypot(p[1] - printed[1]));
            truth[slot(&grid, index)] = Some(printed);
        }
    }
    let worst = vassal_errors.iter().copied().fold(0.0, f64::max);
    let mean = vassal_errors.iter().sum::<f64>() / vassal_errors.len().max(1) as f64;
    eprintln!(
        "tld: {read_from_print} of {on_print} hexes on the print have a printed centre read from their own outline; VASSAL's grid is {mean:.2} px off them on average, {worst:.2} px at worst"
    );
    let whole = tld_shape::whole_on_print(&scan, &grid, &vassal, &on_print_flags);
    Ok(RealMap {
        name: "tld".into(),
        scan,
        grid,
        truth,
        on_print: on_print_flags,
        whole: Some(whole),
    })
}

fn asl(dir: &Path) -> anyhow::Result<RealMap> {
    let dir = dir.join("asl-bd02");
    let text = read(&dir.join("grid_centres.csv"))?;
    let mut centres = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.trim().split(',').collect();
        let letters: String = f[0].chars().take_while(char::is_ascii_alphabetic).collect();
        let row: u32 = f[0][letters.len()..].parse()?;
        let first = u32::from(letters.as_bytes()[0] - b'A');
        let col = if letters.len() == 1 {
            first
        } else {
            26 + first
        };
        // Pixel-index coordinates, as naw's.
        centres.push((
            col,
            row,
            [f[1].parse::<f64>()? + 0.5, f[2].parse::<f64>()? + 0.5],
        ));
    }
    let grid = pick_shift(33, 11, 0, &centres)?;
    let mut truth = vec![None; grid.hex_count()];
    for (c, r, p) in centres {
        truth[slot(&grid, HexIndex::new(c, r))] = Some(p);
    }
    Ok(RealMap {
        name: "asl-bd02".into(),
        scan: load(&dir, "asl_02.png")?,
        grid,
        on_print: truth.iter().map(Option::is_some).collect(),
        whole: None,
        truth,
    })
}

/// The same map bent by a smooth displacement (image pixels → where that paper point lands):
/// the scan resampled, the truth moved.
fn bent(map: &RealMap, name: &str, shift: &dyn Fn([f64; 2]) -> [f64; 2]) -> RealMap {
    let (w, h) = (map.scan.width(), map.scan.height());
    let mut out = image::RgbImage::new(w, h);
    // Where each output pixel came from: x = p + D(p) solved for p by fixed point.
    let source = |x: [f64; 2]| {
        let mut p = x;
        for _ in 0..4 {
            let d = shift(p);
            p = [x[0] - d[0], x[1] - d[1]];
        }
        p
    };
    for (i, j, px) in out.enumerate_pixels_mut() {
        let p = source([f64::from(i) + 0.5, f64::from(j) + 0.5]);
        let fx = (p[0] - 0.5).clamp(0.0, f64::from(w - 1));
        let fy = (p[1] - 0.5).clamp(0.0, f64::from(h - 1));
        let (i0, j0) = (fx.floor() as u32, fy.floor() as u32);
        let (i1, j1) = ((i0 + 1).min(w - 1), (j0 + 1).min(h - 1));
        let (u, v) = (fx - f64::from(i0), fy - f64::from(j0));
        let g = |a, b| map.scan.image.get_pixel(a, b).0.map(f64::from);
        let (a, b, c, d) = (g(i0, j0), g(i1, j0), g(i0, j1), g(i1, j1));
        for k in 0..3 {
            let value = (1.0 - u) * (1.0 - v) * a[k]
                + u * (1.0 - v) * b[k]
                + (1.0 - u) * v * c[k]
                + u * v * d[k];
            px.0[k] = value.round().clamp(0.0, 255.0) as u8;
        }
    }
    RealMap {
        name: name.to_owned(),
        scan: Scan::from(out),
        grid: map.grid.clone(),
        on_print: map.on_print.clone(),
        whole: map.whole.clone(),
        truth: map
            .truth
            .iter()
            .map(|t| {
                t.map(|p| {
                    let d = shift(p);
                    [p[0] + d[0], p[1] + d[1]]
                })
            })
            .collect(),
    }
}

/// Well-spread hexes on the print: the ones nearest the corners of the printed area (inset a
/// little) and, for six, two more at a third and two thirds along the middle.
fn click_hexes(map: &RealMap, count: usize) -> Vec<HexIndex> {
    let on: Vec<(HexIndex, [f64; 2])> = map
        .grid
        .indices()
        .filter_map(|i| map.truth[slot(&map.grid, i)].map(|p| (i, p)))
        .filter(|(_, p)| {
            p[0] > 40.0
                && p[1] > 40.0
                && p[0] < f64::from(map.scan.width()) - 40.0
                && p[1] < f64::from(map.scan.height()) - 40.0
        })
        .collect();
    let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for (_, p) in &on {
        for k in 0..2 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    let at = |fx: f64, fy: f64| {
        [
            min[0] + fx * (max[0] - min[0]),
            min[1] + fy * (max[1] - min[1]),
        ]
    };
    let targets = [
        at(0.08, 0.08),
        at(0.92, 0.92),
        at(0.92, 0.08),
        at(0.08, 0.92),
        at(0.35, 0.5),
        at(0.65, 0.5),
    ];
    targets
        .iter()
        .take(count)
        .map(|t| {
            on.iter()
                .min_by(|a, b| {
                    let da = (a.1[0] - t[0]).hypot(a.1[1] - t[1]);
                    let db = (b.1[0] - t[0]).hypot(b.1[1] - t[1]);
                    da.total_cmp(&db)
                })
                .map(|(i, _)| *i)
                .unwrap_or(HexIndex::new(0, 0))
        })
        .collect()
}

#[derive(Default)]
struct Errors {
    mean: Vec<f64>,
    worst: Vec<f64>,
    /// Hexes over 1 px off, and hexes, over all draws.
    over_1px: usize,
    hexes: usize,
    /// The mean error vector (fitted − truth) of each draw: a constant offset is a convention.
    bias: Vec<[f64; 2]>,
}

impl Errors {
    fn add(&mut self, errors: &[f64], vectors: &[[f64; 2]]) {
        let n = errors.len().max(1) as f64;
        let (sx, sy) = vectors
            .iter()
            .fold((0.0, 0.0), |a, v| (a.0 + v[0], a.1 + v[1]));
        self.bias.push([sx / n, sy / n]);
        self.mean.push(errors.iter().sum::<f64>() / n);
        self.over_1px += errors.iter().filter(|e| **e > 1.0).count();
        self.hexes += errors.len();
        self.worst.push(errors.iter().copied().fold(0.0, f64::max));
    }

    fn text(&self) -> String {
        let mean = self.mean.iter().sum::<f64>() / self.mean.len().max(1) as f64;
        let worst = self.worst.iter().copied().fold(0.0, f64::max);
        let k = self.bias.len().max(1) as f64;
        let (bx, by) = self
            .bias
            .iter()
            .fold((0.0, 0.0), |a, v| (a.0 + v[0], a.1 + v[1]));
        format!(
            "{mean:.2} / {worst:.2} ({:+.2}, {:+.2}), {:.1} % over 1 px",
            bx / k,
            by / k,
            100.0 * self.over_1px as f64 / self.hexes.max(1) as f64
        )
    }
}

fn spread(positions: &[Vec<[f64; 2]>]) -> f64 {
    let Some(first) = positions.first() else {
        return 0.0;
    };
    (0..first.len())
        .map(|h| {
            let mut worst = 0.0f64;
            for a in positions {
                for b in positions {
                    worst = worst.max((a[h][0] - b[h][0]).hypot(a[h][1] - b[h][1]));
                }
            }
            worst
        })
        .fold(0.0, f64::max)
}

fn run_case(map: &RealMap, clicks: usize, bad: bool, draws: u64) {
    let hexes = click_hexes(map, clicks);
    let kind = if clicks >= 3 {
        FitKind::Affine
    } else {
        FitKind::Similarity
    };
    let on: Vec<(HexIndex, [f64; 2])> = map
        .grid
        .indices()
        .filter_map(|i| map.truth[slot(&map.grid, i)].map(|p| (i, p)))
        .filter(|(_, p)| {
            p[0] >= 0.0
                && p[1] >= 0.0
                && p[0] < f64::from(map.scan.width())
                && p[1] < f64::from(map.scan.height())
        })
        .collect();
    let (mut before, mut after, mut own) =
        (Errors::default(), Errors::default(), Errors::default());
    let mut shifted = 0usize;
    let (mut before_pos, mut after_pos) = (Vec::new(), Vec::new());
    let (mut false_suspects, mut bad_named, mut failed, mut warped) = (0, 0, 0, 0);
    let mut seconds = 0.0f64;
    for draw in 0..draws {
        let mut rng = Rng::new(1000 + draw * 7 + clicks as u64);
        let bad_index = bad.then(|| (draw as usize) % clicks);
        let pairs: Vec<(String, [f64; 2], [f64; 2])> = hexes
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let truth = map.truth[slot(&map.grid, i)].unwrap_or([0.0; 2]);
                let mut p = [
                    truth[0] + rng.range(-2.0, 2.0),
                    truth[1] + rng.range(-2.0, 2.0),
                ];
                if Some(k) == bad_index {
                    let a = rng.range(0.0, std::f64::consts::TAU);
                    p = [truth[0] + 10.0 * a.cos(), truth[1] + 10.0 * a.sin()];
                }
                let [x, y] = map.grid.centre(i);
                (
                    map.grid.name(i).to_string(),
                    [f64::from(x), f64::from(y)],
                    p,
                )
            })
            .collect();
        let fit_pairs: Vec<([f64; 2], [f64; 2])> = pairs.iter().map(|p| (p.1, p.2)).collect();
        let Ok(start) = fit(kind, &fit_pairs) else {
            failed += 1;
            continue;
        };
        let positions = |f: &dyn Fn([f64; 2]) -> [f64; 2]| {
            let mut errors = Vec::new();
            let mut vectors = Vec::new();
            let mut points = Vec::new();
            for (i, t) in &on {
                let [x, y] = map.grid.centre(*i);
                let p = f([f64::from(x), f64::from(y)]);
                errors.push((p[0] - t[0]).hypot(p[1] - t[1]));
                vectors.push([p[0] - t[0], p[1] - t[1]]);
                points.push(p);
            }
            (errors, vectors, points)
        };
        let (e, v, p) = positions(&|g| apply(&start.grid_to_image, g));
        before.add(&e, &v);
        before_pos.push(p);
        let clicked: Vec<[f64; 2]> = pairs.iter().map(|p| p.1).collect();
        let t = Instant::now();
        let refined = refine(
            &map.scan,
            &map.grid,
            &start.grid_to_image,
            &clicked,
            kind,
            &RefineOptions::default(),
        );
        seconds += t.elapsed().as_secs_f64();
        match refined {
            Ok(r) => {
                if r.mapping.warp.is_some() {
                    warped += 1;
                }
                let (e, v, p) = positions(&|g| r.map(g));
                if draw == 0 && std::env::var_os("REALMAPS_LIST").is_some() {
                    for ((i, t), e) in on.iter().zip(&e) {
                        if *e > 1.0 {
                            eprintln!(
                                "{} {}: refined {e:.2} px off the truth at ({:.1}, {:.1})",
                                map.name,
                                map.grid.name(*i),
                                t[0],
                                t[1]
                            );
                        }
                    }
                }
                after.add(&e, &v);
                after_pos.push(p);
                if draw == 0 {
                    shape_check(map, &r);
                }
                // Each hex's own centre (its printed sides, where read clearly).
                let (mut e, mut v) = (Vec::new(), Vec::new());
                for (i, t) in &on {
                    let p = r.mapping.hex_centre(&map.grid, *i);
                    e.push((p[0] - t[0]).hypot(p[1] - t[1]));
                    if draw == 0
                        && std::env::var_os("REALMAPS_OWN").is_some()
                        && (p[0] - t[0]).hypot(p[1] - t[1]) > 0.8
                    {
                        eprintln!(
                            "{} {}: own {:.2} px off at ({:.1}, {:.1})",
                            map.name,
                            map.grid.name(*i),
                            (p[0] - t[0]).hypot(p[1] - t[1]),
                            t[0],
                            t[1]
                        );
                    }
                    v.push([p[0] - t[0], p[1] - t[1]]);
                }
                own.add(&e, &v);
                shifted += r
                    .mapping
                    .hex_shifts
                    .as_ref()
                    .map_or(0, |s| s.iter().filter(|d| **d != [0.0, 0.0]).count());
                for (k, c) in check_clicks(&r, &pairs).iter().enumerate() {
                    if c.suspect && Some(k) != bad_index {
                        false_suspects += 1;
                    }
                    if c.suspect && Some(k) == bad_index {
                        bad_named += 1;
                    }
                }
            }
            Err(error) => {
                eprintln!("{} draw {draw}: {error}", map.name);
                failed += 1;
            }
        }
    }
    println!(
        "| {} | {}{} | {} | {} | {:.2} | {} | {:.2} | {}, {} hexes moved | {} | {}{} | {} | {:.0} |",
        map.name,
        clicks,
        if bad { " (one 10 px off)" } else { "" },
        on.len(),
        before.text(),
        spread(&before_pos),
        after.text(),
        spread(&after_pos),
        own.text(),
        shifted / draws.max(1) as usize,
        warped,
        false_suspects,
        if bad {
            format!(", bad one named {bad_named}/{draws}")
        } else {
            String::new()
        },
        failed,
        1000.0 * seconds / draws as f64
    );
}

/// The map's shape found from a refinement ([`bataille_digitize::shape`]) against which hexes
/// are wholly on the print (`on_print`: naw's and asl's hexes with a truth centre; tld's
/// `whole`, see [`tld_shape`]), to stderr: hexes wholly on the print offered as half or off
/// (wrong), the others found, and those missed (offered as on).
fn shape_check(map: &RealMap, r: &bataille_digitize::refine::Refinement) {
    use bataille_digitize::shape::{Place, from_printed_sides};
    let grid = &map.grid;
    let shape = from_printed_sides(
        grid,
        &r.printed_sides,
        &|i| r.centre(grid, i),
        map.scan.width(),
        map.scan.height(),
    );
    let (mut wrong, mut found, mut off) = (Vec::new(), 0usize, 0usize);
    let mut missed = Vec::new();
    for i in grid.indices() {
        let printed = map.whole.as_ref().unwrap_or(&map.on_print)[slot(grid, i)];
        let place = shape.place(grid, i);
        if printed && place != Place::On {
            wrong.push(grid.name(i).to_string());
        }
        if !printed {
            off += 1;
            found += usize::from(place != Place::On);
            // Half on the print, offered as on (a hex wholly off it is not named: many).
            if place == Place::On && map.on_print[slot(grid, i)] {
                missed.push(grid.name(i).to_string());
            }
        }
    }
    eprintln!(
        "{} shape: {found} of {off} hexes off the print found{}; {} on it offered as half or off{}{}",
        map.name,
        if missed.is_empty() {
            String::new()
        } else {
            format!(" (half hexes missed: {})", missed.join(" "))
        },
        wrong.len(),
        if wrong.is_empty() { "" } else { ": " },
        wrong.join(" ")
    );
}

/// `naw`, and the same sheet bent by a flatbed's bow and by a lens.
fn naw_maps(dir: &Path) -> anyhow::Result<Vec<RealMap>> {
    let base = naw(dir)?;
    let (w, h) = (f64::from(base.scan.width()), f64::from(base.scan.height()));
    // A flatbed's bow: the sheet lifted along the middle, up to 5 px.
    let bow = move |p: [f64; 2]| {
        let s = (std::f64::consts::PI * p[1] / h).sin();
        [
            5.0 * s * (p[0] / w - 0.5) * 2.0,
            3.0 * (std::f64::consts::PI * p[0] / w).sin() * s,
        ]
    };
    // A lens: barrel distortion, 6 px at the corners.
    let (cx, cy) = (w / 2.0, h / 2.0);
    let r2max = cx * cx + cy * cy;
    let lens = move |p: [f64; 2]| {
        let (dx, dy) = (p[0] - cx, p[1] - cy);
        let k = -6.0 / r2max.sqrt() * (dx * dx + dy * dy) / r2max;
        [dx * k, dy * k]
    };
    let bowed = bent(&base, "naw, bowed 5 px", &bow);
    let lensed = bent(&base, "naw, lens 6 px", &lens);
    Ok(vec![base, bowed, lensed])
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let dir = value("--dir")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/realmaps"));
    let draws: u64 = value("--draws").map_or(Ok(10), |d| d.parse())?;
    let only = value("--map");
    if args.iter().any(|a| a == "--arnhem") {
        if !dir.is_dir() {
            println!("{}: not there; nothing to measure", dir.display());
            return Ok(());
        }
        if args.iter().any(|a| a == "--features") {
            return arnhem_features::measure(&dir, draws);
        }
        return arnhem::measure(&dir, draws);
    }
    if args.iter().any(|a| a == "--terrain") {
        if !dir.is_dir() {
            println!("{}: not there; nothing to measure", dir.display());
            return Ok(());
        }
        return naw_terrain::measure(&dir, &naw_maps(&dir)?, draws);
    }
    if args.iter().any(|a| a == "--roads") {
        if !dir.is_dir() {
            println!("{}: not there; nothing to measure", dir.display());
            return Ok(());
        }
        return roads::measure(&tld(&dir)?, draws, args.iter().any(|a| a == "--refine"));
    }
    if args.iter().any(|a| a == "--rivers") {
        if !dir.is_dir() {
            println!("{}: not there; nothing to measure", dir.display());
            return Ok(());
        }
        return rivers(&tld(&dir)?, draws, args.iter().any(|a| a == "--refine"));
    }
    if !dir.is_dir() {
        println!("{}: not there; nothing to measure", dir.display());
        return Ok(());
    }
    println!(
        "| map | clicks | hexes on the print | clicks' fit: error mean / worst (mean vector) px | spread over draws (px) | refined on the print: error mean / worst (mean vector) px | spread over draws (px) | each hex's own centre: error mean / worst px | draws with a local correction | good clicks named suspect | failed | refine ms |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let wanted = |name: &str| only.as_deref().is_none_or(|o| name.starts_with(o));
    let mut maps: Vec<RealMap> = Vec::new();
    if wanted("naw") {
        maps.extend(naw_maps(&dir)?);
    }
    if wanted("asl") {
        maps.push(asl(&dir)?);
    }
    if wanted("tld") {
        maps.push(tld(&dir)?);
    }
    for map in &maps {
        for (clicks, bad) in [(2, false), (3, false), (4, false), (6, false), (6, true)] {
            run_case(map, clicks, bad, draws);
        }
    }
    Ok(())
}

type Hexside = (HexIndex, Side);

/// The art's river colour on `tld` (an 8-bit colour map: rivers, sea and lakes share it).
const TLD_BLUE: [u8; 3] = [0, 133, 207];

fn is_blue(p: [u8; 3]) -> bool {
    p.iter()
        .zip(TLD_BLUE)
        .all(|(a, b)| (i32::from(*a) - i32::from(b)).abs() <= 24)
}

/// Where the exact grid puts each hex (`None` off the print), from the truth centres (an affine
/// fit over them: VASSAL's whole-pixel centres leave under a pixel).
fn truth_matrix(map: &RealMap) -> anyhow::Result<[f64; 9]> {
    let pairs: Vec<([f64; 2], [f64; 2])> = map
        .grid
        .indices()
        .filter_map(|i| {
            let t = map.truth[slot(&map.grid, i)]?;
            let [x, y] = map.grid.centre(i);
            Some(([f64::from(x), f64::from(y)], t))
        })
        .collect();
    Ok(fit(FitKind::Affine, &pairs)?.grid_to_image)
}

/// The hexes filled with the river blue (sea, lakes): over half of a disc of 0.5 hex radius.
fn blue_hexes(map: &RealMap, m: &[f64; 9]) -> HashSet<HexIndex> {
    map.grid
        .indices()
        .filter(|i| {
            let [cx, cy] = map.grid.centre(*i);
            let (mut blue, mut all) = (0, 0);
            for a in 0..12 {
                for r in 1..=4 {
                    let (angle, radius) = (
                        f64::from(a) * std::f64::consts::FRAC_PI_6,
                        0.125 * f64::from(r),
                    );
                    let p = apply(
                        m,
                        [
                            f64::from(cx) + radius * angle.cos(),
                            f64::from(cy) + radius * angle.sin(),
                        ],
                    );
                    if let Some(px) = map.scan.pixel_at(p[0], p[1]) {
                        all += 1;
                        blue += usize::from(is_blue(px));
                    }
                }
            }
            all > 0 && 2 * blue > all
        })
        .collect()
}

/// The river hexsides by the art's own colour on the exact grid: both hexes on the print and
/// not blue-filled, and the river blue within 0.35 hex radius across the side at 60 % or more
/// of 20 places along its middle 90 % (a river drawn beside the side, wiggling; a road or a
/// river crossing it covers a few places). Checked by eye on crops around Saint-Lô and Caen.
fn river_truth(
    map: &RealMap,
    m: &[f64; 9],
    blue: &HashSet<HexIndex>,
) -> (Vec<Hexside>, HashSet<Hexside>) {
    let scored: Vec<(HexIndex, Side)> = interior_hexsides(&map.grid)
        .into_iter()
        .filter(|(i, s)| {
            let n = map.grid.neighbour(*i, *s);
            map.on_print[slot(&map.grid, *i)]
                && n.is_some_and(|n| map.on_print[slot(&map.grid, n)])
                && !blue.contains(i)
                && n.is_none_or(|n| !blue.contains(&n))
        })
        .collect();
    let rivers = scored
        .iter()
        .copied()
        .filter(|&(i, s)| {
            let Some([a, b]) = map.grid.side_corners(i, s) else {
                return false;
            };
            let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
            let [cx, cy] = map.grid.centre(i);
            let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
            let out = [mid[0] - f64::from(cx), mid[1] - f64::from(cy)];
            let l = out[0].hypot(out[1]);
            let out = [out[0] / l, out[1] / l];
            let hits = (0..20)
                .filter(|u| {
                    let f = 0.05 + 0.9 * f64::from(*u) / 19.0;
                    let p = [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
                    (0..=28).any(|k| {
                        let t = -0.35 + 0.7 * f64::from(k) / 28.0;
                        let q = apply(m, [p[0] + t * out[0], p[1] + t * out[1]]);
                        map.scan.pixel_at(q[0], q[1]).is_some_and(is_blue)
                    })
                })
                .count();
            hits >= 12
        })
        .collect();
    (scored, rivers)
}

/// The truth hexside nearest an image point.
fn nearest_hexside(
    map: &RealMap,
    m: &[f64; 9],
    among: &[(HexIndex, Side)],
    p: [f64; 2],
) -> Option<(HexIndex, Side)> {
    let mid = |&(i, s): &(HexIndex, Side)| {
        let [a, b] = map.grid.side_corners(i, s).unwrap_or([[0.0; 2]; 2]);
        apply(
            m,
            [f64::from(a[0] + b[0]) / 2.0, f64::from(a[1] + b[1]) / 2.0],
        )
    };
    among.iter().copied().min_by(|x, y| {
        let (a, b) = (mid(x), mid(y));
        (a[0] - p[0])
            .hypot(a[1] - p[1])
            .total_cmp(&(b[0] - p[0]).hypot(b[1] - p[1]))
    })
}

fn nearest_hex(map: &RealMap, m: &[f64; 9], p: [f64; 2]) -> HexIndex {
    map.grid
        .indices()
        .filter(|i| map.on_print[slot(&map.grid, *i)])
        .map(|i| {
            let [x, y] = map.grid.centre(i);
            (i, apply(m, [f64::from(x), f64::from(y)]))
        })
        .min_by(|a, b| {
            (a.1[0] - p[0])
                .hypot(a.1[1] - p[1])
                .total_cmp(&(b.1[0] - p[0]).hypot(b.1[1] - p[1]))
        })
        .map(|(i, _)| i)
        .unwrap_or(HexIndex::new(0, 0))
}

/// The hexside features benchmark on `tld` (see the module's documentation).
fn rivers(map: &RealMap, draws: u64, refined: bool) -> anyhow::Result<()> {
    let exact = truth_matrix(map)?;
    let blue = blue_hexes(map, &exact);
    let (scored, truth) = river_truth(map, &exact, &blue);
    let river = Id::from("river");
    // What a user marks: three river hexsides spread over the sheet, clear, bocage and sea.
    let mut marked: Vec<(HexIndex, Side)> = Vec::new();
    let truth_list: Vec<(HexIndex, Side)> = scored
        .iter()
        .copied()
        .filter(|h| truth.contains(h))
        .collect();
    for p in [[1800.0, 2300.0], [3500.0, 3500.0], [2500.0, 4500.0]] {
        marked.extend(nearest_hexside(map, &exact, &truth_list, p));
    }
    let terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::from([
        (
            ".".to_owned(),
            [[1870.0, 2150.0], [1980.0, 2145.0], [2060.0, 2275.0]]
                .map(|p| nearest_hex(map, &exact, p))
                .to_vec(),
        ),
        (
            "b".to_owned(),
            [[1810.0, 2560.0], [2030.0, 2515.0], [3000.0, 3600.0]]
                .map(|p| nearest_hex(map, &exact, p))
                .to_vec(),
        ),
        (
            "~".to_owned(),
            [[375.0, 1650.0], [5000.0, 1450.0], [750.0, 2400.0]]
                .map(|p| nearest_hex(map, &exact, p))
                .to_vec(),
        ),
    ]);
    let mut samples = HexsideSamples::default();
    samples.features.insert(river.clone(), marked.clone());
    samples.kinds.insert(
        river.clone(),
        bataille_digitize::classify::FeatureKind {
            water: true,
            bridge: false,
            symbol: Some(HexsideSymbol::River),
        },
    );
    samples.water_terrain.insert("~".to_owned());
    println!(
        "tld: {} hexsides scored (both hexes on the print, neither sea nor lake), {} rivers by the art's colour, {} marked",
        scored.len(),
        truth.len(),
        marked.len()
    );
    println!(
        "| grid | tracing | draws | rivers found, per draw (%) | false per 100 hexsides (highest) | wrong and not doubtful (highest) | doubtful hexsides (mean) | of them wrong (mean) | hexsides ms (mean) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let hexes = click_hexes(map, 4);
    let mut matrices = Vec::new();
    for draw in 0..draws {
        let mut rng = Rng::new(5000 + draw * 13);
        let pairs: Vec<([f64; 2], [f64; 2])> = hexes
            .iter()
            .map(|&i| {
                let t = map.truth[slot(&map.grid, i)].unwrap_or([0.0; 2]);
                let [x, y] = map.grid.centre(i);
                (
                    [f64::from(x), f64::from(y)],
                    [t[0] + rng.range(-2.0, 2.0), t[1] + rng.range(-2.0, 2.0)],
                )
            })
            .collect();
        let start = fit(FitKind::Affine, &pairs)?.grid_to_image;
        let m = if refined {
            let clicked: Vec<[f64; 2]> = pairs.iter().map(|p| p.0).collect();
            refine(
                &map.scan,
                &map.grid,
                &start,
                &clicked,
                FitKind::Affine,
                &RefineOptions::default(),
            )?
            .mapping
        } else {
            start.into()
        };
        matrices.push(m);
    }
    let marked_set: HashSet<(HexIndex, Side)> = marked.iter().copied().collect();
    for tracing in [false, true] {
        let options = ClassifyOptions {
            trace_lines: tracing,
            ..ClassifyOptions::default()
        };
        let (mut found, mut false_per_100, mut unflagged, mut doubtful, mut doubtful_wrong) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut seconds = 0.0;
        for m in &matrices {
            let terrain = suggest_terrain(&map.scan, &map.grid, m, &terrain_samples, &options)?;
            let t = Instant::now();
            let (suggestions, _) =
                suggest_hexsides_with_inks(&map.scan, &map.grid, m, &terrain, &samples, &options)?;
            seconds += t.elapsed().as_secs_f64();
            let by: BTreeMap<(HexIndex, Side), (bool, f32)> = suggestions
                .iter()
                .map(|s| ((s.index, s.side), (s.feature.is_some(), s.confidence)))
                .collect();
            let (mut hit, mut total, mut false_ones, mut wrong_sure, mut listed, mut n) =
                (0, 0, 0, 0, 0, 0);
            let mut listed_wrong = 0;
            for h in &scored {
                if marked_set.contains(h) {
                    continue;
                }
                let Some(&(feature, confidence)) = by.get(h) else {
                    continue;
                };
                n += 1;
                let is = truth.contains(h);
                if is {
                    total += 1;
                    hit += usize::from(feature);
                    if !feature && std::env::var_os("REALMAPS_LIST").is_some() {
                        let [a, b] = map.grid.side_corners(h.0, h.1).unwrap_or([[0.0; 2]; 2]);
                        let p = apply(
                            &exact,
                            [f64::from(a[0] + b[0]) / 2.0, f64::from(a[1] + b[1]) / 2.0],
                        );
                        eprintln!(
                            "missed {} at ({:.0}, {:.0}) confidence {confidence:.2}",
                            map.grid.hexside_ref(h.0, h.1),
                            p[0],
                            p[1]
                        );
                    }
                } else if feature {
                    false_ones += 1;
                    if std::env::var_os("REALMAPS_LIST").is_some() {
                        let [a, b] = map.grid.side_corners(h.0, h.1).unwrap_or([[0.0; 2]; 2]);
                        let p = apply(
                            &exact,
                            [f64::from(a[0] + b[0]) / 2.0, f64::from(a[1] + b[1]) / 2.0],
                        );
                        eprintln!(
                            "false {} at ({:.0}, {:.0}) confidence {confidence:.2}",
                            map.grid.hexside_ref(h.0, h.1),
                            p[0],
                            p[1]
                        );
                    }
                }
                let doubtful_here = confidence < bataille_digitize::classify::DOUBTFUL_BELOW;
                listed += usize::from(doubtful_here);
                listed_wrong += usize::from(doubtful_here && feature != is);
                if feature != is && !doubtful_here {
                    wrong_sure += 1;
                }
            }
            found.push(100.0 * hit as f64 / total.max(1) as f64);
            false_per_100.push(100.0 * false_ones as f64 / n.max(1) as f64);
            unflagged.push(wrong_sure);
            doubtful.push(listed);
            doubtful_wrong.push(listed_wrong);
        }
        let list: Vec<String> = found.iter().map(|f| format!("{f:.1}")).collect();
        println!(
            "| {} | {} | {} | {} | {:.2} | {} | {:.0} | {:.0} | {:.0} |",
            if refined {
                "4 clicks ±2 px, refined on the print"
            } else {
                "4 clicks ±2 px, affine"
            },
            if tracing { "on" } else { "off" },
            matrices.len(),
            list.join(", "),
            false_per_100.iter().copied().fold(0.0, f64::max),
            unflagged.iter().copied().max().unwrap_or(0),
            doubtful.iter().sum::<usize>() as f64 / doubtful.len().max(1) as f64,
            doubtful_wrong.iter().sum::<usize>() as f64 / doubtful_wrong.len().max(1) as f64,
            1000.0 * seconds / matrices.len().max(1) as f64
        );
    }
    Ok(())
}
