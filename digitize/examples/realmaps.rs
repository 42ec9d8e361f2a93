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
//! `cargo run --release -p bataille-digitize --example realmaps [-- --dir ../shared/realmaps]
//! [--draws 10] [--map naw]`

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, bail};
use bataille_digitize::calibrate::{apply, fit};
use bataille_digitize::refine::{RefineOptions, check_clicks, refine};
use bataille_digitize::scan::{Scan, ScanLimits, load_scan, no_progress};
use bataille_digitize::synth::Rng;
use bataille_schema::map::{FitKind, HexNaming, Orientation, Shifted};
use bataille_schema::{Grid, HexIndex};

/// A map with its grid and the printed centre of each lattice hex (row-major over the grid,
/// `None` where the hex is not on the print).
struct RealMap {
    name: String,
    scan: Scan,
    grid: Grid,
    truth: Vec<Option<[f64; 2]>>,
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
        centres.push((c, r, [f[1].parse()?, f[2].parse()?]));
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
        truth,
    })
}

fn tld(dir: &Path) -> anyhow::Result<RealMap> {
    let dir = dir.join("tld");
    let text = read(&dir.join("grid_centres.csv"))?;
    let mut centres = Vec::new();
    let mut on = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.trim().split(',').collect();
        let (c, r) = (f[0].parse::<i64>()? - 1, f[1].parse::<i64>()? + 1);
        // VASSAL truncates centres to whole pixels: the pixel's middle is the centre.
        let p = [f[2].parse::<f64>()? + 0.5, f[3].parse::<f64>()? + 0.5];
        centres.push((c as u32, r as u32, p));
        on.push(f[4] == "0");
    }
    let columns = centres.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let rows = centres.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let grid = pick_shift(columns, rows, 0, &centres)?;
    let mut truth = vec![None; grid.hex_count()];
    for ((c, r, p), on) in centres.into_iter().zip(on) {
        if on {
            truth[slot(&grid, HexIndex::new(c, r))] = Some(p);
        }
    }
    Ok(RealMap {
        name: "tld".into(),
        scan: load(&dir, "Map_Full.png")?,
        grid,
        truth,
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
        centres.push((col, row, [f[1].parse::<f64>()?, f[2].parse::<f64>()?]));
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
        scan: Scan { image: out },
        grid: map.grid.clone(),
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
        format!("{mean:.2} / {worst:.2} ({:+.2}, {:+.2})", bx / k, by / k)
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
    let (mut before, mut after) = (Errors::default(), Errors::default());
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
                if r.warp.is_some() {
                    warped += 1;
                }
                let (e, v, p) = positions(&|g| r.map(g));
                after.add(&e, &v);
                after_pos.push(p);
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
        "| {} | {}{} | {} | {} | {:.2} | {} | {:.2} | {} | {}{} | {} | {:.0} |",
        map.name,
        clicks,
        if bad { " (one 10 px off)" } else { "" },
        on.len(),
        before.text(),
        spread(&before_pos),
        after.text(),
        spread(&after_pos),
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
    if !dir.is_dir() {
        println!("{}: not there; nothing to measure", dir.display());
        return Ok(());
    }
    println!(
        "| map | clicks | hexes on the print | clicks' fit: error mean / worst (mean vector) px | spread over draws (px) | refined on the print: error mean / worst (mean vector) px | spread over draws (px) | draws with a local correction | good clicks named suspect | failed | refine ms |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let wanted = |name: &str| only.as_deref().is_none_or(|o| name.starts_with(o));
    let mut maps: Vec<RealMap> = Vec::new();
    if wanted("naw") {
        let base = naw(&dir)?;
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
        maps.push(base);
        maps.push(bowed);
        maps.push(lensed);
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
