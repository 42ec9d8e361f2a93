//! Roads and railways drawn through the hexes on `tld`, against our labels in
//! `tld_roads_truth.txt` (hexside names and kinds only, no map art; how they were made is
//! written at its top): which hexsides a road or a railway crosses, as a map file's `paths`
//! join neighbouring hexes.
//!
//! Per click draw (four clicks, each the printed centre ± 2 px, an affine fit, refined on the
//! print with `--refine`), as the command runs it: terrain from three hexes each of clear,
//! bocage and sea, then the one pass the command and the editor share
//! ([`bataille_digitize::classify::suggest_features`]: the hexsides with three marked rivers,
//! then the lines through the hexes from the crossings of each kind marked in the truth file). Scored: the hexsides of the labelled areas, both hexes on the print, not `?` and not
//! marked.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use bataille_digitize::calibrate::{apply, fit};
use bataille_digitize::classify::{
    ClassifyOptions, DOUBTFUL_BELOW, FeatureKind, HexsideSamples, PathSamples, interior_hexsides,
    suggest_features, suggest_terrain,
};
use bataille_digitize::refine::{RefineOptions, refine};
use bataille_digitize::scan::no_progress;
use bataille_digitize::synth::Rng;
use bataille_schema::map::{FitKind, HexsideSymbol};
use bataille_schema::{HexIndex, Id};

use super::{
    Hexside, RealMap, blue_hexes, click_hexes, nearest_hex, river_truth, slot, truth_matrix,
};

/// The kinds labelled, in the order of the lines traced.
const KINDS: [&str; 2] = ["road", "railway"];

/// The labels: each scored hexside's kind (`None`: crosses nothing), and the unscored ones.
struct Truth {
    areas: Vec<[f64; 4]>,
    /// A user's marks, per kind.
    marks: Vec<Vec<Hexside>>,
    kinds: HashMap<Hexside, usize>,
    unsure: HashSet<Hexside>,
}

fn read_truth(map: &RealMap) -> anyhow::Result<Truth> {
    let text = include_str!("tld_roads_truth.txt");
    let mut truth = Truth {
        areas: Vec::new(),
        marks: vec![Vec::new(); KINDS.len()],
        kinds: HashMap::new(),
        unsure: HashSet::new(),
    };
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "area" {
            let v: Vec<f64> = words[1..]
                .iter()
                .map(|w| w.parse::<f64>())
                .collect::<Result<_, _>>()?;
            truth.areas.push([v[0], v[1], v[2], v[3]]);
            continue;
        }
        if words[0] == "mark" {
            let (index, side) = map.grid.parse_hexside(words[1])?;
            let kind = KINDS
                .iter()
                .position(|k| *k == words[2])
                .ok_or_else(|| anyhow::anyhow!("unknown kind {}", words[2]))?;
            truth.marks[kind].push(map.grid.canonical_hexside(index, side));
            continue;
        }
        let (index, side) = map.grid.parse_hexside(words[0])?;
        let h = map.grid.canonical_hexside(index, side);
        match KINDS.iter().position(|k| *k == words[1]) {
            Some(kind) => {
                truth.kinds.insert(h, kind);
            }
            None => {
                truth.unsure.insert(h);
            }
        }
    }
    Ok(truth)
}

/// The roads benchmark (see the module's documentation).
pub(super) fn measure(map: &RealMap, draws: u64, refined: bool) -> anyhow::Result<()> {
    let exact = truth_matrix(map)?;
    let truth = read_truth(map)?;
    let middle = |&(i, s): &Hexside| {
        let [a, b] = map.grid.side_corners(i, s).unwrap_or([[0.0; 2]; 2]);
        apply(
            &exact,
            [f64::from(a[0] + b[0]) / 2.0, f64::from(a[1] + b[1]) / 2.0],
        )
    };
    let hexsides = interior_hexsides(&map.grid);
    // In an area (3 px inside its edges, where our labelling's grid and this one agree).
    let scored: Vec<Hexside> = hexsides
        .iter()
        .copied()
        .filter(|h| {
            let n = map.grid.neighbour(h.0, h.1);
            let p = middle(h);
            map.on_print[slot(&map.grid, h.0)]
                && n.is_some_and(|n| map.on_print[slot(&map.grid, n)])
                && !truth.unsure.contains(h)
                && truth.areas.iter().any(|a| {
                    p[0] >= a[0] + 3.0
                        && p[0] < a[2] - 3.0
                        && p[1] >= a[1] + 3.0
                        && p[1] < a[3] - 3.0
                })
        })
        .collect();
    let marked = truth.marks.clone();
    let marked_set: HashSet<Hexside> = marked.iter().flatten().copied().collect();
    let paths = PathSamples {
        lines: KINDS
            .iter()
            .zip(&marked)
            .map(|(kind, m)| (Id::from(*kind), m.clone()))
            .collect(),
    };
    // Terrain and rivers as in the rivers benchmark: the colours the trace tells ink from.
    let blue = blue_hexes(map, &exact);
    let (river_scored, rivers) = river_truth(map, &exact, &blue);
    let river_list: Vec<Hexside> = river_scored
        .iter()
        .copied()
        .filter(|h| rivers.contains(h))
        .collect();
    let mut river_marked = Vec::new();
    for p in [[1800.0, 2300.0], [3500.0, 3500.0], [2500.0, 4500.0]] {
        river_marked.extend(super::nearest_hexside(map, &exact, &river_list, p));
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
    let river = Id::from("river");
    let mut samples = HexsideSamples::default();
    samples.features.insert(river.clone(), river_marked);
    samples.kinds.insert(
        river,
        FeatureKind {
            water: true,
            bridge: false,
            symbol: Some(HexsideSymbol::River),
        },
    );
    samples.water_terrain.insert("~".to_owned());
    let crossings = scored
        .iter()
        .filter(|h| truth.kinds.contains_key(h))
        .count();
    println!(
        "tld roads: {} hexsides scored in {} areas, {} crossed ({} roads, {} railways), {} marked",
        scored.len(),
        truth.areas.len(),
        crossings,
        scored
            .iter()
            .filter(|h| truth.kinds.get(h) == Some(&0))
            .count(),
        scored
            .iter()
            .filter(|h| truth.kinds.get(h) == Some(&1))
            .count(),
        marked_set.len()
    );
    println!(
        "| grid | draws | found with the right type, per draw (%) | found as a line (%) | false per 100 hexsides (highest) | wrong and not doubtful (highest) | doubtful (mean) | of them wrong (mean) | pass ms (mean: hexsides and trace) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let hexes = click_hexes(map, 4);
    let list = std::env::var_os("REALMAPS_LIST").is_some();
    let (
        mut found,
        mut as_line,
        mut false_per_100,
        mut unflagged,
        mut doubtful,
        mut wrong_doubtful,
    ) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    let mut seconds = 0.0;
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
        let options = ClassifyOptions::default();
        let terrain = suggest_terrain(&map.scan, &map.grid, &m, &terrain_samples, &options)?;
        let t = Instant::now();
        let features = suggest_features(
            &map.scan,
            &map.grid,
            &m,
            &terrain,
            &samples,
            &paths,
            &options,
            &no_progress,
        )?;
        seconds += t.elapsed().as_secs_f64();
        let suggested = features.crossings.unwrap_or_default();
        let by: HashMap<Hexside, (Option<usize>, f32)> = suggested
            .iter()
            .map(|c| {
                let kind = c
                    .line
                    .as_ref()
                    .and_then(|l| KINDS.iter().position(|k| *k == l.as_str()));
                ((c.index, c.side), (kind, c.confidence))
            })
            .collect();
        let (mut hit, mut line_hit, mut total, mut false_ones, mut wrong_sure, mut listed) =
            (0, 0, 0, 0, 0, 0);
        let (mut listed_wrong, mut n) = (0, 0);
        for h in &scored {
            if marked_set.contains(h) {
                continue;
            }
            n += 1;
            let (feature, confidence) = by.get(h).copied().unwrap_or((None, 0.0));
            let is = truth.kinds.get(h).copied();
            if is.is_some() {
                total += 1;
                hit += usize::from(feature == is);
                line_hit += usize::from(feature.is_some());
            } else if feature.is_some() {
                false_ones += 1;
            }
            let doubtful_here = confidence < DOUBTFUL_BELOW;
            listed += usize::from(doubtful_here);
            listed_wrong += usize::from(doubtful_here && feature != is);
            if feature != is && !doubtful_here {
                wrong_sure += 1;
            }
            if list && feature != is {
                let p = middle(h);
                let name = |f: Option<usize>| f.map_or("nothing", |f| KINDS[f]);
                eprintln!(
                    "{} at ({:.0}, {:.0}): {} suggested {} ({confidence:.2})",
                    map.grid.hexside_ref(h.0, h.1),
                    p[0],
                    p[1],
                    name(is),
                    name(feature)
                );
            }
        }
        found.push(100.0 * hit as f64 / total.max(1) as f64);
        as_line.push(100.0 * line_hit as f64 / total.max(1) as f64);
        false_per_100.push(100.0 * false_ones as f64 / n.max(1) as f64);
        unflagged.push(wrong_sure);
        doubtful.push(listed);
        wrong_doubtful.push(listed_wrong);
    }
    let text = |v: &[f64]| {
        v.iter()
            .map(|f| format!("{f:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
    println!(
        "| {} | {} | {} | {} | {:.2} | {} | {:.0} | {:.0} | {:.0} |",
        if refined {
            "4 clicks ±2 px, refined on the print"
        } else {
            "4 clicks ±2 px, affine"
        },
        draws,
        text(&found),
        text(&as_line),
        false_per_100.iter().copied().fold(0.0, f64::max),
        unflagged.iter().copied().max().unwrap_or(0),
        mean(&doubtful),
        mean(&wrong_doubtful),
        1000.0 * seconds / draws.max(1) as f64
    );
    Ok(())
}
