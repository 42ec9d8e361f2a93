//! Terrain, rivers and the map's shape on the Arnhem paper scan, against the hand-labelled
//! truth in `arnhem_truth.txt` (ours: how it was labelled is written at its top; it holds hex
//! names and codes only, no map art).
//!
//! Per quadrant and click draw (the same two read clicks ± 2 px as [`super::arnhem`]), the grid
//! is fitted from the clicks and refined on the print (or, with the clicks' fit only, for
//! comparison), the map's shape is read from the printed sides, the terrain is suggested from a
//! few marked hexes of each labelled code, the hexsides from two or three marked river
//! hexsides (all as the `bataille digitize` command does: terrain, hexsides with their inks,
//! then the hexes in doubt judged again with the lines' inks masked). Marked hexes and
//! hexsides are not scored, nor `?` ones.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bataille_digitize::calibrate::fit;
use bataille_digitize::classify::{
    ClassifyOptions, DOUBTFUL_BELOW, FeatureKind, HexsideSamples, interior_hexsides,
    suggest_hexsides_and_terrain, suggest_terrain,
};
use bataille_digitize::refine::{RefineOptions, refine};
use bataille_digitize::scan::{ScanLimits, load_scan, no_progress};
use bataille_digitize::shape::{Place, from_printed_sides, from_scan_bounds};
use bataille_digitize::synth::Rng;
use bataille_schema::map::{FitKind, HexsideSymbol};
use bataille_schema::{Grid, HexIndex, Id, Side};

use super::arnhem::{QUADRANTS, quadrant_grid};

/// One quadrant's labels.
#[derive(Default)]
struct Truth {
    /// Hex → code (`.`, `f`, `b`, `o`, `t`, `v`), `?` or `off`.
    hexes: BTreeMap<HexIndex, String>,
    rivers: BTreeSet<(HexIndex, Side)>,
    unsure_rivers: BTreeSet<(HexIndex, Side)>,
}

/// The fills (the rest are symbols over the paper: towns, villages).
const FILLS: [&str; 4] = [".", "f", "b", "o"];

fn read_truth(text: &str, quadrant: &str, grid: &Grid) -> anyhow::Result<Truth> {
    let mut truth = Truth::default();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[') {
            inside = name.trim_end_matches(']') == quadrant;
            continue;
        }
        if !inside {
            continue;
        }
        let mut words = line.split_whitespace();
        let label = words.next().unwrap_or_default();
        for word in words {
            match label {
                "river" | "river?" => {
                    let side = grid
                        .parse_hexside(word)
                        .map_err(|e| anyhow::anyhow!("{quadrant} {word}: {e}"))?;
                    let side = grid.canonical_hexside(side.0, side.1);
                    if label == "river" {
                        truth.rivers.insert(side);
                    } else {
                        truth.unsure_rivers.insert(side);
                    }
                }
                _ => {
                    let hex = grid
                        .parse(word)
                        .map_err(|e| anyhow::anyhow!("{quadrant} {word}: {e}"))?;
                    truth.hexes.insert(hex, label.to_owned());
                }
            }
        }
    }
    Ok(truth)
}

/// `count` items spread over `items` (in their order).
fn spread<T: Copy>(items: &[T], count: usize) -> Vec<T> {
    (0..count)
        .filter_map(|k| items.get((2 * k + 1) * items.len() / (2 * count)).copied())
        .collect()
}

#[derive(Default)]
struct Tally {
    fills: (usize, usize),
    fills_wrong_unlisted: usize,
    towns: (usize, usize),
    hexes_doubtful: usize,
    not_offered: usize,
    off_found: (usize, usize),
    rivers: (usize, usize),
    false_rivers: usize,
    hexsides: usize,
    hexsides_wrong_unlisted: usize,
    hexsides_doubtful: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        let pair = |a: &mut (usize, usize), b: (usize, usize)| {
            a.0 += b.0;
            a.1 += b.1;
        };
        pair(&mut self.fills, o.fills);
        pair(&mut self.towns, o.towns);
        pair(&mut self.off_found, o.off_found);
        pair(&mut self.rivers, o.rivers);
        self.fills_wrong_unlisted += o.fills_wrong_unlisted;
        self.hexes_doubtful += o.hexes_doubtful;
        self.not_offered += o.not_offered;
        self.false_rivers += o.false_rivers;
        self.hexsides += o.hexsides;
        self.hexsides_wrong_unlisted += o.hexsides_wrong_unlisted;
        self.hexsides_doubtful += o.hexsides_doubtful;
    }
}

fn percent(a: (usize, usize)) -> f64 {
    100.0 * a.0 as f64 / a.1.max(1) as f64
}

/// Classifies one quadrant with one grid and scores it.
fn score(
    scan: &bataille_digitize::scan::Scan,
    grid: &Grid,
    truth: &Truth,
    matrix: &bataille_digitize::GridMapping,
    place: &dyn Fn(HexIndex) -> Place,
) -> anyhow::Result<Tally> {
    // The marked samples: of each code, up to three spread over its hexes (one when it has
    // two, the only one when it has one); of the rivers two or three.
    let mut by_code: BTreeMap<&str, Vec<HexIndex>> = BTreeMap::new();
    for (hex, code) in &truth.hexes {
        if FILLS.contains(&code.as_str()) || code == "t" || code == "v" {
            by_code.entry(code).or_default().push(*hex);
        }
    }
    let terrain_samples: BTreeMap<String, Vec<HexIndex>> = by_code
        .iter()
        .map(|(code, hexes)| {
            let n = if hexes.len() == 1 {
                1
            } else {
                hexes.len().div_ceil(2).min(3)
            };
            ((*code).to_owned(), spread(hexes, n))
        })
        .collect();
    let rivers: Vec<(HexIndex, Side)> = truth.rivers.iter().copied().collect();
    let marked_rivers = spread(&rivers, rivers.len().min((rivers.len() / 2).clamp(2, 3)));
    if std::env::var_os("REALMAPS_LIST").is_some() {
        let names: Vec<String> = marked_rivers
            .iter()
            .map(|h| grid.hexside_ref(h.0, h.1).to_string())
            .collect();
        eprintln!("  marked rivers {names:?}, terrain {terrain_samples:?}");
    }
    let river = Id::from("river");
    let mut samples = HexsideSamples::default();
    samples
        .features
        .insert(river.clone(), marked_rivers.clone());
    samples.kinds.insert(
        river,
        FeatureKind {
            water: true,
            bridge: false,
            symbol: Some(HexsideSymbol::River),
        },
    );
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(scan, grid, matrix, &terrain_samples, &options)?;
    // The pass `bataille digitize` and the editor run: hexsides, then the terrain in doubt
    // judged again with the lines' inks masked.
    let (hexsides, terrain) = suggest_hexsides_and_terrain(
        scan,
        grid,
        matrix,
        &terrain,
        &samples,
        &options,
        &no_progress,
    )?;
    let mut t = Tally::default();
    for (hex, code) in &truth.hexes {
        if code == "off" {
            t.off_found.1 += 1;
            t.off_found.0 += usize::from(place(*hex) != Place::On);
            continue;
        }
        if code == "?" {
            continue;
        }
        let Some(s) = terrain.get(grid, *hex) else {
            continue;
        };
        if s.marked {
            continue;
        }
        let right = s.code.as_deref() == Some(code.as_str());
        let offered = place(*hex) == Place::On;
        t.not_offered += usize::from(!offered);
        let listed = s.confidence < DOUBTFUL_BELOW;
        t.hexes_doubtful += usize::from(offered && listed);
        let tally = if FILLS.contains(&code.as_str()) {
            t.fills_wrong_unlisted += usize::from(!right && (!listed || !offered));
            &mut t.fills
        } else {
            &mut t.towns
        };
        tally.1 += 1;
        tally.0 += usize::from(right && offered);
        if std::env::var_os("REALMAPS_LIST").is_some() && !(right && offered) {
            eprintln!(
                "  hex {}: truth {code}, suggested {:?} ({:.2}){}",
                grid.name(*hex),
                s.code,
                s.confidence,
                if offered { "" } else { ", not on the print" }
            );
        }
    }
    let marked: BTreeSet<_> = marked_rivers.into_iter().collect();
    let by: BTreeMap<(HexIndex, Side), (bool, f32)> = hexsides
        .iter()
        .map(|s| ((s.index, s.side), (s.feature.is_some(), s.confidence)))
        .collect();
    for h in interior_hexsides(grid) {
        let h = grid.canonical_hexside(h.0, h.1);
        let labelled = |i: Option<HexIndex>| {
            i.and_then(|i| truth.hexes.get(&i))
                .is_some_and(|c| c != "off")
        };
        if !labelled(Some(h.0)) || !labelled(grid.neighbour(h.0, h.1)) {
            continue;
        }
        if marked.contains(&h) || truth.unsure_rivers.contains(&h) {
            continue;
        }
        let Some(&(feature, confidence)) = by.get(&h) else {
            continue;
        };
        let is = truth.rivers.contains(&h);
        t.hexsides += 1;
        let listed = confidence < DOUBTFUL_BELOW;
        t.hexsides_doubtful += usize::from(listed);
        if is {
            t.rivers.1 += 1;
            t.rivers.0 += usize::from(feature);
        } else {
            t.false_rivers += usize::from(feature);
        }
        t.hexsides_wrong_unlisted += usize::from(feature != is && !listed);
        if std::env::var_os("REALMAPS_LIST").is_some() && feature != is {
            eprintln!(
                "  hexside {}: truth {}, suggested {} ({confidence:.2})",
                grid.hexside_ref(h.0, h.1),
                if is { "river" } else { "plain" },
                if feature { "river" } else { "plain" },
            );
        }
    }
    Ok(t)
}

/// Measures terrain, rivers and shape on the four quadrants over `draws` click draws.
pub fn measure(dir: &Path, draws: u64) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/realmaps/arnhem_truth.txt"),
    )?;
    println!(
        "| grid | quadrant | fills right (lowest over draws) | towns, villages right | fills wrong and not doubtful (highest) | hexes doubtful (mean) | off the print found | rivers found, per draw (%) | false rivers per 100 hexsides (highest; hexsides scored) | hexsides wrong and not doubtful (highest) | hexsides doubtful (mean) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for refined in [false, true] {
        let mut totals: Vec<Tally> = (0..draws).map(|_| Tally::default()).collect();
        for q in &QUADRANTS {
            let scan = load_scan(
                &dir.join("photos-and-scans").join(q.file),
                &ScanLimits::default(),
                &no_progress,
            )?;
            let grid = quadrant_grid(q);
            let truth = read_truth(&text, &q.file[7..9], &grid)?;
            let mut tallies = Vec::new();
            for draw in 0..draws {
                let mut rng = Rng::new(9000 + draw * 11);
                let pairs: Vec<([f64; 2], [f64; 2])> = q
                    .clicks
                    .iter()
                    .map(|(name, p)| {
                        let [x, y] = grid.centre(grid.parse(name)?);
                        Ok((
                            [f64::from(x), f64::from(y)],
                            [p[0] + rng.range(-2.0, 2.0), p[1] + rng.range(-2.0, 2.0)],
                        ))
                    })
                    .collect::<Result<_, bataille_schema::NameError>>()?;
                let start = fit(FitKind::Similarity, &pairs)?.grid_to_image;
                if std::env::var_os("REALMAPS_LIST").is_some() {
                    eprintln!("{} draw {draw}, refined: {refined}", q.file);
                }
                let tally = if refined {
                    let seeds: Vec<[f64; 2]> = pairs.iter().map(|p| p.0).collect();
                    let r = refine(
                        &scan,
                        &grid,
                        &start,
                        &seeds,
                        FitKind::Affine,
                        &RefineOptions::default(),
                    )
                    .map_err(|e| anyhow::anyhow!("{}: {e}", q.file))?;
                    let shape = from_printed_sides(
                        &grid,
                        &r.printed_sides,
                        &|i| r.centre(&grid, i),
                        scan.width(),
                        scan.height(),
                    );
                    score(&scan, &grid, &truth, &r.mapping, &|i| shape.place(&grid, i))?
                } else {
                    let shape = from_scan_bounds(&grid, &start, scan.width(), scan.height());
                    score(&scan, &grid, &truth, &start.into(), &|i| {
                        shape.place(&grid, i)
                    })?
                };
                totals[draw as usize].add(&tally);
                tallies.push(tally);
            }
            row(
                if refined { "refined" } else { "clicks" },
                &q.file[7..9],
                &tallies,
            );
        }
        row(if refined { "refined" } else { "clicks" }, "all", &totals);
    }
    Ok(())
}

fn row(grid: &str, quadrant: &str, tallies: &[Tally]) {
    let lowest = |f: &dyn Fn(&Tally) -> (usize, usize)| {
        tallies
            .iter()
            .map(f)
            .min_by(|a, b| percent(*a).total_cmp(&percent(*b)))
            .unwrap_or_default()
    };
    let highest = |f: &dyn Fn(&Tally) -> usize| tallies.iter().map(f).max().unwrap_or(0);
    let mean = |f: &dyn Fn(&Tally) -> usize| {
        tallies.iter().map(f).sum::<usize>() as f64 / tallies.len().max(1) as f64
    };
    let fills = lowest(&|t| t.fills);
    let towns = lowest(&|t| t.towns);
    let off = lowest(&|t| t.off_found);
    let found: Vec<String> = tallies
        .iter()
        .map(|t| format!("{:.0}", percent(t.rivers)))
        .collect();
    let false_per_100 = tallies
        .iter()
        .map(|t| 100.0 * t.false_rivers as f64 / t.hexsides.max(1) as f64)
        .fold(0.0, f64::max);
    println!(
        "| {grid} | {quadrant} | {:.1} % ({}/{}) | {}/{} | {} | {:.1} | {}/{} | {} of {} | {false_per_100:.2} ({}) | {} | {:.1} |",
        percent(fills),
        fills.0,
        fills.1,
        towns.0,
        towns.1,
        highest(&|t| t.fills_wrong_unlisted),
        mean(&|t| t.hexes_doubtful),
        off.0,
        off.1,
        found.join(", "),
        tallies.first().map_or(0, |t| t.rivers.1),
        tallies.first().map_or(0, |t| t.hexsides),
        highest(&|t| t.hexsides_wrong_unlisted),
        mean(&|t| t.hexsides_doubtful),
    );
}
