//! The digitiser's accuracy benchmark on realistic scans: each bundled map (`maps/*.ron`) is
//! rendered at 60–90 px per hex with hex numbers and place names, turned into scans by
//! [`bataille_digitize::synth`] (rotation, keystone, paper stretch, colour cast, gamma, blur,
//! noise, JPEG 40–60, halftone, paper texture, stains and pen marks), calibrated from 4–6
//! clicked hex centres each about 1 px off, classified from a few marked samples per terrain
//! and hexside feature, and scored against the true map.
//!
//! `cargo run --release -p bataille-digitize --example scan_benchmark [-- --save DIR] [--map NAME]
//! [--mix NAME] [--seed N] [--verbose] [--no-mask] [--refine] [--bad-click]` (`--refine` refines
//! the clicks' fit on the printed grid lines, `--bad-click` clicks six hexes, one of them 10 px
//! off; `--seed` makes other scans of the same
//! mixes: other noise, stains, pen marks and click errors; `--save` writes the scans and a crop
//! around each wrong hexside; `--no-mask` scores the terrain without masking the line inks)
//!
//! Scores (marked samples are left out of them): terrain, the share of hexes right; hexsides,
//! the share of true features found and the false features per 100 hexsides (a feature put
//! where there is none, or the wrong feature); "unflagged", the wrong hexes and hexsides that
//! are not in the doubtful list.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use bataille_digitize::calibrate::{apply, fit};
use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, interior_hexsides, mask_line_inks, suggest_hexsides_with_inks,
    suggest_terrain,
};
use bataille_digitize::refine::{RefineOptions, calibrate_on_print};
use bataille_digitize::scan::Scan;
use bataille_digitize::synth::{Mix, Rng, make_scan};
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::map::{ControlPoint, FitKind, HexsideSymbol};
use bataille_schema::{HexIndex, Id, Map, Side, load_map};

/// Suggestions under this confidence are in the doubtful list.
const DOUBTFUL: f32 = bataille_digitize::classify::DOUBTFUL_BELOW;

/// How the grid is calibrated: from the clicks alone (as before), or refined on the print;
/// with or without one of six clicks 10 px off; and whether the terrain is judged again with
/// the line inks masked.
#[derive(Debug, Clone, Copy)]
struct Calibration {
    refine: bool,
    bad_click: bool,
    mask: bool,
}

struct Case {
    mix: Mix,
    px_per_hex: f32,
    clicks: usize,
}

fn cases() -> Vec<Case> {
    let mut out = vec![Case {
        mix: Mix::clean(),
        px_per_hex: 60.0,
        clicks: 4,
    }];
    for (mix, (px, clicks)) in
        Mix::benchmark()
            .into_iter()
            .zip([(72.0, 5), (90.0, 6), (80.0, 6), (66.0, 6)])
    {
        out.push(Case {
            mix,
            px_per_hex: px,
            clicks,
        });
    }
    out
}

fn code_at(map: &Map, index: HexIndex) -> Option<char> {
    map.rows
        .get(index.row as usize)?
        .chars()
        .nth(index.col as usize)
}

/// Hexes with nothing drawn on them but their terrain (the ones a volunteer picks as samples).
fn bare_hexes(map: &Map) -> BTreeSet<HexIndex> {
    let grid = &map.grid;
    let busy: BTreeSet<HexIndex> = map
        .overlays
        .keys()
        .chain(map.labels.keys())
        .filter_map(|h| grid.lookup(h))
        .collect();
    let mut featured = BTreeSet::new();
    for refs in map.hexsides.values() {
        for r in refs {
            if let Ok((i, s)) = grid.parse_hexside(r.as_str()) {
                featured.insert(i);
                if let Some(n) = grid.neighbour(i, s) {
                    featured.insert(n);
                }
            }
        }
    }
    grid.indices()
        .filter(|i| !busy.contains(i) && !featured.contains(i))
        .collect()
}

/// Up to `n` items spread over the list.
fn spread<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n)
        .map(|k| items[(2 * k + 1) * items.len() / (2 * n)].clone())
        .collect()
}

struct Score {
    hexes: usize,
    terrain_right: usize,
    terrain_unflagged: usize,
    terrain_doubtful: usize,
    hexsides: usize,
    true_features: usize,
    found: usize,
    false_features: usize,
    hexside_unflagged: usize,
    hexside_doubtful: usize,
    /// The same for the lines (fortification lines and roads on hexsides): true ones, found
    /// with the right type, suggested where the truth differs, wrong and not doubtful.
    lines: [usize; 4],
    rms_px: f64,
    terrain_ms: f64,
    hexside_ms: f64,
    confusions: BTreeMap<String, usize>,
}

#[allow(clippy::too_many_lines)]
fn run_case(
    map: &Map,
    map_name: &str,
    case: &Case,
    seed: u64,
    save: Option<&Path>,
    verbose: bool,
    calibration: Calibration,
) -> anyhow::Result<Score> {
    let mask = calibration.mask;
    let grid = &map.grid;
    let options = RenderOptions {
        px_per_hex: case.px_per_hex,
        ..RenderOptions::default()
    };
    let layout = Layout::new(grid, &options)?;
    let pixmap = render_map(map, &options)?;
    let mut rgb = Vec::with_capacity(pixmap.pixels().len() * 3);
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgb.extend_from_slice(&[c.red(), c.green(), c.blue()]);
    }
    let picture = layout.grid_to_image();
    let centres: Vec<[f64; 2]> = grid
        .indices()
        .map(|i| {
            let c = grid.centre(i);
            apply(&picture, [f64::from(c[0]), f64::from(c[1])])
        })
        .collect();
    let synthetic = make_scan(
        &rgb,
        pixmap.width(),
        pixmap.height(),
        &picture,
        &centres,
        f64::from(layout.radius_px),
        &case.mix,
        seed,
    )?;
    drop(pixmap);
    let truth = synthetic.grid_to_image;
    let scan = Scan::from(synthetic.image);

    // Clicks: hex centres near the corners and the middle, each about 1 px off.
    let mut rng = Rng::new(seed ^ 0xc11c);
    let (c1, r1) = (grid.columns - 2, grid.rows - 2);
    let mut spots = vec![
        HexIndex::new(1, 1),
        HexIndex::new(c1, 1),
        HexIndex::new(1, r1),
        HexIndex::new(c1, r1),
        HexIndex::new(grid.columns / 2, grid.rows / 2),
        HexIndex::new(grid.columns / 3, grid.rows - 4),
    ];
    let clicks = if calibration.bad_click {
        6
    } else {
        case.clicks
    };
    spots.truncate(clicks);
    let mut pairs: Vec<([f64; 2], [f64; 2])> = spots
        .iter()
        .map(|i| {
            let c = grid.centre(*i);
            let g = [f64::from(c[0]), f64::from(c[1])];
            let p = apply(&truth, g);
            (g, [p[0] + 0.7 * rng.normal(), p[1] + 0.7 * rng.normal()])
        })
        .collect();
    if calibration.bad_click {
        // One of the six 10 px off (a slip of the hand), which one by the seed.
        let bad = (seed as usize) % pairs.len();
        let a = rng.range(0.0, std::f64::consts::TAU);
        pairs[bad].1[0] += 10.0 * a.cos();
        pairs[bad].1[1] += 10.0 * a.sin();
    }
    let kind = if case.mix.projective() {
        FitKind::Projective
    } else {
        FitKind::Affine
    };
    let fitted = fit(kind, &pairs)?;
    let mut mapping = bataille_digitize::GridMapping::global(fitted.grid_to_image);
    if calibration.refine {
        let points: Vec<ControlPoint> = spots
            .iter()
            .zip(&pairs)
            .map(|(i, (_, p))| ControlPoint {
                hex: grid.name(*i),
                x: p[0],
                y: p[1],
            })
            .collect();
        let start = Instant::now();
        let calibrated = calibrate_on_print(&scan, grid, &points, kind, &RefineOptions::default())?;
        if verbose {
            println!(
                "    refined in {:.0} ms: {:?}",
                start.elapsed().as_secs_f64() * 1e3,
                calibrated.refinement.as_ref().map(|r| (
                    r.lines_found,
                    r.sides_probed,
                    r.rms_px,
                    r.mapping.warp.is_some()
                ))
            );
        }
        mapping = calibrated.mapping();
    }
    let worst_centre_px = grid
        .indices()
        .map(|i| {
            let c = grid.centre(i);
            let g = [f64::from(c[0]), f64::from(c[1])];
            let (a, b) = (apply(&truth, g), mapping.map(g));
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .fold(0.0, f64::max);

    // Samples: three bare hexes per terrain code, three hexsides per feature.
    let bare = bare_hexes(map);
    let mut terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    for code in map.terrain.keys() {
        let ch = code.chars().next();
        let of: Vec<HexIndex> = grid.indices().filter(|i| code_at(map, *i) == ch).collect();
        let bare_of: Vec<HexIndex> = of.iter().copied().filter(|i| bare.contains(i)).collect();
        let picked = if bare_of.len() >= 2 {
            spread(&bare_of, 3)
        } else {
            spread(&of, 3)
        };
        if !picked.is_empty() {
            terrain_samples.insert(code.clone(), picked);
        }
    }
    let mut true_sides: BTreeMap<(HexIndex, Side), Vec<Id>> = BTreeMap::new();
    let mut hexside_samples = HexsideSamples::default();
    for (id, refs) in &map.hexsides {
        let list: Vec<(HexIndex, Side)> = refs
            .iter()
            .filter_map(|r| grid.parse_hexside(r.as_str()).ok())
            .map(|(i, s)| grid.canonical_hexside(i, s))
            .collect();
        for h in &list {
            true_sides.entry(*h).or_default().push(id.clone());
        }
        hexside_samples
            .features
            .insert(id.clone(), spread(&list, 3));
    }

    let hexside_samples = hexside_samples.with_legend(&map.hexside_types, &map.terrain);
    let classify = ClassifyOptions::default();
    let start = Instant::now();
    let terrain = suggest_terrain(&scan, grid, &mapping, &terrain_samples, &classify)?;
    let mut terrain_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let (hexsides, inks) =
        suggest_hexsides_with_inks(&scan, grid, &mapping, &terrain, &hexside_samples, &classify)?;
    let hexside_ms = start.elapsed().as_secs_f64() * 1e3;
    let terrain = if mask {
        let start = Instant::now();
        let masked = mask_line_inks(&scan, grid, &mapping, &terrain, &inks, &classify);
        terrain_ms += start.elapsed().as_secs_f64() * 1e3;
        masked
    } else {
        terrain
    };

    let mut score = Score {
        hexes: 0,
        terrain_right: 0,
        terrain_unflagged: 0,
        terrain_doubtful: 0,
        hexsides: 0,
        true_features: 0,
        found: 0,
        false_features: 0,
        hexside_unflagged: 0,
        hexside_doubtful: 0,
        lines: [0; 4],
        rms_px: worst_centre_px,
        terrain_ms,
        hexside_ms,
        confusions: BTreeMap::new(),
    };
    // A cell the map leaves out (`short_lines`: Napoleon at Waterloo's short columns) is not a
    // hex: the print shows paper there, and the map's shape step offers it, not the terrain.
    for s in terrain
        .hexes
        .iter()
        .filter(|s| !s.marked && !map.is_absent(s.index))
    {
        score.hexes += 1;
        if s.confidence < DOUBTFUL {
            score.terrain_doubtful += 1;
        }
        let want = code_at(map, s.index).map(String::from);
        if s.code == want {
            score.terrain_right += 1;
        } else {
            if s.confidence >= DOUBTFUL {
                score.terrain_unflagged += 1;
            }
            if verbose {
                println!(
                    "  hex {} is {:?}, suggested {:?} ({:.2})",
                    grid.name(s.index),
                    want,
                    s.code,
                    s.confidence
                );
            }
        }
    }
    let all = interior_hexsides(grid);
    let suggested: BTreeMap<(HexIndex, Side), _> =
        hexsides.iter().map(|s| ((s.index, s.side), s)).collect();
    for h in &all {
        let Some(s) = suggested.get(h) else { continue };
        if s.marked {
            continue;
        }
        score.hexsides += 1;
        let want = true_sides.get(h);
        let right = match (&s.feature, want) {
            (None, None) => true,
            (Some(f), Some(w)) => w.contains(f),
            _ => false,
        };
        if s.confidence < DOUBTFUL {
            score.hexside_doubtful += 1;
        }
        if want.is_some() {
            score.true_features += 1;
            if right {
                score.found += 1;
            }
        }
        if s.feature.is_some() && !right {
            score.false_features += 1;
        }
        let is_line = |id: &Id| {
            map.hexside_types.get(id).is_some_and(|t| {
                matches!(t.symbol, HexsideSymbol::Fortification | HexsideSymbol::Road)
            })
        };
        let want_line = want.is_some_and(|w| w.iter().any(is_line));
        let suggested_line = s.feature.as_ref().is_some_and(is_line);
        if want_line {
            score.lines[0] += 1;
            score.lines[1] += usize::from(right);
        }
        if suggested_line && !right {
            score.lines[2] += 1;
        }
        if (want_line || suggested_line) && !right && s.confidence >= DOUBTFUL {
            score.lines[3] += 1;
        }
        if !right {
            if s.confidence >= DOUBTFUL {
                score.hexside_unflagged += 1;
            }
            let key = format!(
                "{} → {}",
                want.map_or("plain".to_owned(), |w| {
                    w.iter().map(Id::as_str).collect::<Vec<_>>().join("+")
                }),
                s.feature.as_ref().map_or("plain", |f| f.as_str())
            );
            *score.confusions.entry(key).or_default() += 1;
            if let Some(dir) = save {
                save_crop(dir, map_name, case.mix.name, &scan, grid, &mapping, *h)?;
            }
            if verbose {
                println!(
                    "  hexside {} is {:?}, suggested {:?} ({:.2})",
                    grid.hexside_ref(h.0, h.1),
                    want,
                    s.feature,
                    s.confidence
                );
            }
        }
    }
    if let Some(dir) = save {
        std::fs::create_dir_all(dir)?;
        let ext = if case.mix.jpeg_quality.is_some() {
            "jpg"
        } else {
            "png"
        };
        let path = dir.join(format!("{map_name}-{}.{ext}", case.mix.name));
        std::fs::write(&path, &synthetic.bytes)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(score)
}

/// Saves the scan around a wrong hexside (a hex across, three times enlarged, the side's
/// ends marked by a red dot), to look at what the classifier saw.
fn save_crop(
    dir: &Path,
    map_name: &str,
    mix: &str,
    scan: &Scan,
    grid: &bataille_schema::Grid,
    mapping: &bataille_digitize::GridMapping,
    (index, side): (HexIndex, Side),
) -> anyhow::Result<()> {
    let Some([a, b]) = grid.side_corners(index, side) else {
        return Ok(());
    };
    let [a, b] = [a, b].map(|p| mapping.map([f64::from(p[0]), f64::from(p[1])]));
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let half = ((a[0] - b[0]).hypot(a[1] - b[1]) * 1.2).ceil() as i64;
    const ZOOM: i64 = 3;
    let size = (2 * half * ZOOM) as u32;
    let mut out = image::RgbImage::new(size, size);
    for (x, y, p) in out.enumerate_pixels_mut() {
        let sx = mid[0] - half as f64 + (f64::from(x) + 0.5) / ZOOM as f64;
        let sy = mid[1] - half as f64 + (f64::from(y) + 0.5) / ZOOM as f64;
        let near = |q: [f64; 2]| (q[0] - sx).hypot(q[1] - sy) < 1.0;
        *p = image::Rgb(if near(a) || near(b) {
            [255, 0, 0]
        } else {
            scan.pixel_at(sx, sy).unwrap_or([0, 0, 0])
        });
    }
    let name = grid.hexside_ref(index, side).to_string().replace('/', "-");
    std::fs::create_dir_all(dir)?;
    out.save(dir.join(format!("{map_name}-{mix}-{name}.png")))?;
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let mut save: Option<PathBuf> = None;
    let mut only_map: Option<String> = None;
    let mut only_mix: Option<String> = None;
    let mut verbose = false;
    let mut seed: u64 = 0;
    let mut calibration = Calibration {
        refine: false,
        bad_click: false,
        mask: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--save" => save = args.next().map(PathBuf::from),
            "--map" => only_map = args.next(),
            "--mix" => only_mix = args.next(),
            "--verbose" => verbose = true,
            "--no-mask" => calibration.mask = false,
            "--refine" => calibration.refine = true,
            "--bad-click" => calibration.bad_click = true,
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .context("--seed needs a number")?;
            }
            other => anyhow::bail!("unknown argument {other}"),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
    let mut maps: Vec<PathBuf> = std::fs::read_dir(&root)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    maps.sort();
    println!(
        "| map | mix | px/hex | clicks, worst centre error | terrain right | doubtful hexes | unflagged wrong hexes | true hexside features found | false per 100 hexsides | unflagged wrong hexsides | doubtful hexsides | terrain ms | hexsides ms |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for path in maps {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if only_map
            .as_ref()
            .is_some_and(|m| !name.contains(m.as_str()))
        {
            continue;
        }
        let map = load_map(&path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            .map;
        for (k, case) in cases().iter().enumerate() {
            if only_mix.as_ref().is_some_and(|m| m != case.mix.name) {
                continue;
            }
            let s = run_case(
                &map,
                &name,
                case,
                1000 + 100 * seed + k as u64,
                save.as_deref(),
                verbose,
                calibration,
            )?;
            println!(
                "| {name} | {} | {} | {}, {:.2} px | {:.2} % ({}/{}) | {} | {} | {:.1} % ({}/{}) | {:.2} ({}) | {} | {} | {:.0} | {:.0} |",
                case.mix.name,
                case.px_per_hex,
                if calibration.bad_click {
                    6
                } else {
                    case.clicks
                },
                s.rms_px,
                100.0 * s.terrain_right as f64 / s.hexes.max(1) as f64,
                s.terrain_right,
                s.hexes,
                s.terrain_doubtful,
                s.terrain_unflagged,
                100.0 * s.found as f64 / s.true_features.max(1) as f64,
                s.found,
                s.true_features,
                100.0 * s.false_features as f64 / s.hexsides.max(1) as f64,
                s.false_features,
                s.hexside_unflagged,
                s.hexside_doubtful,
                s.terrain_ms,
                s.hexside_ms,
            );
            if s.lines[0] > 0 || s.lines[2] > 0 {
                println!(
                    "|   lines (fortification, road) | {} | | | | | | {:.1} % ({}/{}) | {:.2} ({}) | {} | | | |",
                    case.mix.name,
                    100.0 * s.lines[1] as f64 / s.lines[0].max(1) as f64,
                    s.lines[1],
                    s.lines[0],
                    100.0 * s.lines[2] as f64 / s.hexsides.max(1) as f64,
                    s.lines[2],
                    s.lines[3],
                );
            }
            if verbose {
                for (k, n) in &s.confusions {
                    println!("    {k}: {n}");
                }
            }
        }
    }
    Ok(())
}
