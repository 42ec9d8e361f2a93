//! Hexside suggestion that models the printed line. Each hexside is sampled as a small patch
//! of cross-sections (along the side × across it, in hex radii, the same grid of cells for
//! every hexside). The plain grid line is learnt from all hexsides (nearly all carry nothing):
//! an ink colour and, per cell and side direction, how much of that ink lies over the paper —
//! so hex names, corners and the line's width and blur at this scan's scale are part of it.
//! Each feature is learnt the same way from its marked samples, on top of the grid line: its
//! ink and where that ink lies (width, pattern: solid, teeth, rails across the side).
//!
//! A hexside is then explained by each hypothesis — plain, or one feature — rendered over the
//! colours of the two hexes next to it (read from the patch's outer cells), and scored by a
//! robust distance to what the scan shows (each cell's ΔE, capped so names, roads and pen marks
//! weigh little). The best explanation wins; its confidence is how far the runner-up's score
//! lies behind, as a share of how much the two explanations differ at all. The map's structure
//! then weighs in: features run in chains (a hexside whose neighbours along the chain carry the
//! same feature is more likely, a lone one less), a bridge sits on water, and a water feature
//! does not run between two water hexes.
//!
//! Over 600 lines: sampling, learning, scoring and the map's structure share the patch, model
//! and score types; the structure (chains, doubt) is the part to move out when it next grows.

use std::collections::{BTreeMap, HashMap};

use bataille_schema::geometry::sides;
use bataille_schema::{Grid, HexIndex, Id, Side};
use rayon::prelude::*;

use crate::calibrate::{Matrix, apply, local_scale};
use crate::colour::{Lab, delta_e, median_lab, srgb_to_lab};
use crate::scan::Progress;
use crate::suggestion::{
    ClassifyError, ClassifyOptions, FeatureKind, HexsideSamples, HexsideSuggestion,
    TerrainSuggestions, interior_hexsides,
};

/// Half the length of side sampled (hex radii; the side is 1 long): clear of the corners.
const HALF_ALONG: f64 = 0.36;
/// Half the width sampled across the side (hex radii).
const HALF_ACROSS: f64 = 0.28;
/// Cells further than this share of `HALF_ACROSS` from the side give the hexes' colours.
const OUTER: f64 = 0.65;
/// The ΔE at which one cell's disagreement is capped.
const CAP: f32 = 22.0;
/// A hexside whose best explanation is this many times worse than the typical one's is
/// cluttered.
const CLUTTER: f32 = 1.3;
/// The typical explanation around a hexside is taken over the hexsides within this many hex
/// radii of it (about sixty)...
const LOCAL_RADIUS: f32 = 4.0;
/// ... as this quantile of their best scores: a region whose paper is textured all over
/// (bocage, a halftone) raises it, a crowded spot inside a calmer region (a town's label and
/// its road over a line) does not.
const LOCAL_QUANTILE: f32 = 0.3;
/// The confidence at most of a plain hexside in a gap of a chain, and of a water feature
/// beside a water hex (under [`crate::suggestion::DOUBTFUL_BELOW`]: for review).
const GAP_CONFIDENCE: f32 = 0.2;
/// A neighbour continues a chain when a feature drawn alike explains it better than the plain
/// line by this share of how much the two differ, however unsure its own decision.
const FAINT_LINK: f32 = 0.05;
/// A hexside's own evidence is clear, for or against a feature, beyond this share of how
/// much the feature and the plain line differ.
const CLEAR_INK: f32 = 0.2;

/// The cells sampled on every hexside.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cells {
    along: usize,
    across: usize,
}

impl Cells {
    fn for_scale(px_per_unit: f64) -> Self {
        // About one cell per pixel across (thin lines), coarser along.
        let across = ((2.0 * HALF_ACROSS * px_per_unit).ceil() as usize).clamp(13, 31) | 1;
        let along = ((2.0 * HALF_ALONG * px_per_unit / 2.0).ceil() as usize).clamp(8, 20);
        Self { along, across }
    }

    fn len(self) -> usize {
        self.along * self.across
    }

    /// The offset across of column `k`, in hex radii (negative: the named hex's side).
    fn t(self, k: usize) -> f64 {
        -HALF_ACROSS + 2.0 * HALF_ACROSS * k as f64 / (self.across - 1) as f64
    }

    /// The index of the same cell mirrored across the side.
    fn mirror(self, i: usize) -> usize {
        let (u, k) = (i / self.across, i % self.across);
        u * self.across + (self.across - 1 - k)
    }
}

/// One hexside as sampled.
#[derive(Debug, Clone)]
struct Patch {
    /// Lab per cell, along-major.
    cells: Vec<Lab>,
    /// The colours of the two hexes beside the side (named hex, neighbour), from the outer
    /// cells.
    sides: [Lab; 2],
    /// Which of the three forward side directions.
    direction: usize,
}

fn sample_patch(
    scan: &crate::scan::Scan,
    grid: &Grid,
    m: &Matrix,
    index: HexIndex,
    side: Side,
    cells: Cells,
    direction: usize,
) -> Option<Patch> {
    let [a, b] = grid.side_corners(index, side)?;
    let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
    let c = grid.centre(index);
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let along = [b[0] - a[0], b[1] - a[1]];
    let across = {
        let v = [mid[0] - f64::from(c[0]), mid[1] - f64::from(c[1])];
        let l = (v[0] * v[0] + v[1] * v[1]).sqrt().max(1e-9);
        [v[0] / l, v[1] / l]
    };
    let mut out = Vec::with_capacity(cells.len());
    let mut missing = 0usize;
    let mut last = [50.0, 0.0, 0.0];
    for s in 0..cells.along {
        let u = -HALF_ALONG + 2.0 * HALF_ALONG * (s as f64 + 0.5) / cells.along as f64;
        let base = [mid[0] + along[0] * u, mid[1] + along[1] * u];
        for k in 0..cells.across {
            let t = cells.t(k);
            let [x, y] = apply(m, [base[0] + across[0] * t, base[1] + across[1] * t]);
            match scan.pixel_at(x, y) {
                Some(rgb) => {
                    last = srgb_to_lab(rgb);
                    out.push(last);
                }
                None => {
                    missing += 1;
                    out.push(last);
                }
            }
        }
    }
    if missing * 4 > cells.len() {
        return None;
    }
    // Lines run along the side: average each cell with its neighbours along it, which halves
    // the noise, the halftone screen and the JPEG blocks and keeps the profile across.
    let raw = out.clone();
    {
        for s in 0..cells.along {
            for k in 0..cells.across {
                let mut sum = [0.0f32; 3];
                let mut n = 0.0f32;
                for t in s.saturating_sub(1)..=(s + 1).min(cells.along - 1) {
                    let c = raw[t * cells.across + k];
                    sum = [sum[0] + c[0], sum[1] + c[1], sum[2] + c[2]];
                    n += 1.0;
                }
                out[s * cells.across + k] = [sum[0] / n, sum[1] / n, sum[2] / n];
            }
        }
    }
    let mut near: Vec<Lab> = Vec::new();
    let mut far: Vec<Lab> = Vec::new();
    for (i, lab) in out.iter().enumerate() {
        let t = cells.t(i % cells.across);
        if t <= -OUTER * HALF_ACROSS {
            near.push(*lab);
        } else if t >= OUTER * HALF_ACROSS {
            far.push(*lab);
        }
    }
    let sides = [median_lab(&mut near)?, median_lab(&mut far)?];
    Some(Patch {
        cells: out,
        sides,
        direction,
    })
}

/// Ink `k` laid over `base` with coverage `alpha`.
#[inline]
fn over(base: Lab, k: Lab, alpha: f32) -> Lab {
    [
        base[0] + (k[0] - base[0]) * alpha,
        base[1] + (k[1] - base[1]) * alpha,
        base[2] + (k[2] - base[2]) * alpha,
    ]
}

/// The coverage of ink `k` over `base` that best explains `seen` (`None` when the ink is too
/// close to the base to tell).
#[inline]
fn coverage(seen: Lab, base: Lab, k: Lab) -> Option<f32> {
    let d = [k[0] - base[0], k[1] - base[1], k[2] - base[2]];
    let n = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if n < 64.0 {
        return None;
    }
    let s = [seen[0] - base[0], seen[1] - base[1], seen[2] - base[2]];
    Some(((s[0] * d[0] + s[1] * d[1] + s[2] * d[2]) / n).clamp(0.0, 1.0))
}

#[inline]
fn capped(a: Lab, b: Lab) -> f32 {
    delta_e(a, b).min(CAP)
}

fn median(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    values.select_nth_unstable_by(mid, f32::total_cmp);
    Some(values[mid])
}

/// An ink and where it lies on the patch.
#[derive(Debug, Clone, PartialEq)]
struct InkModel {
    ink: Lab,
    /// Coverage per cell.
    alpha: Vec<f32>,
}

/// The plain grid line, per side direction.
#[derive(Debug, Clone)]
struct GridModel {
    ink: Lab,
    alpha: [Vec<f32>; 3],
}

impl GridModel {
    fn learn(patches: &[&Patch], cells: Cells) -> Option<Self> {
        // The grid ink: in each patch's middle columns, the cell that stands out most from the
        // hexes' colours; their median.
        let centre = cells.across / 2;
        let mut picks: Vec<Lab> = patches
            .iter()
            .filter_map(|p| {
                let mut best: Option<(f32, Lab)> = None;
                for u in 0..cells.along {
                    for k in centre.saturating_sub(1)..=(centre + 1).min(cells.across - 1) {
                        let lab = p.cells[u * cells.across + k];
                        let base = if k < centre { p.sides[0] } else { p.sides[1] };
                        let d = delta_e(lab, base);
                        if best.is_none_or(|(bd, _)| d > bd) {
                            best = Some((d, lab));
                        }
                    }
                }
                best.map(|(_, lab)| lab)
            })
            .collect();
        let ink = median_lab(&mut picks)?;
        let alpha = [0usize, 1, 2].map(|direction| {
            let of: Vec<&&Patch> = patches
                .iter()
                .filter(|p| p.direction == direction)
                .collect();
            let mut column: Vec<f32> = Vec::with_capacity(of.len());
            (0..cells.len())
                .map(|i| {
                    column.clear();
                    let k = i % cells.across;
                    for p in &of {
                        let base = if k < centre { p.sides[0] } else { p.sides[1] };
                        if let Some(a) = coverage(p.cells[i], base, ink) {
                            column.push(a);
                        }
                    }
                    median(&mut column).unwrap_or(0.0)
                })
                .collect()
        });
        Some(Self { ink, alpha })
    }

    /// The plain hexside as the grid line over the two hexes' colours.
    fn predict(&self, patch: &Patch, cells: Cells, out: &mut Vec<Lab>) {
        out.clear();
        let centre = cells.across / 2;
        let alpha = &self.alpha[patch.direction];
        for (i, a) in alpha.iter().enumerate() {
            let k = i % cells.across;
            let base = if k < centre {
                patch.sides[0]
            } else if k > centre {
                patch.sides[1]
            } else {
                mean(patch.sides[0], patch.sides[1])
            };
            out.push(over(base, self.ink, *a));
        }
    }
}

fn mean(a: Lab, b: Lab) -> Lab {
    [
        (a[0] + b[0]) / 2.0,
        (a[1] + b[1]) / 2.0,
        (a[2] + b[2]) / 2.0,
    ]
}

/// A feature learnt from its samples, laid over the plain prediction.
fn learn_feature(samples: &[(&Patch, Vec<Lab>)], cells: Cells) -> Option<InkModel> {
    // The ink: each sample's most distinct cells (a tenth of them) against the plain line.
    let mut picks: Vec<Lab> = Vec::new();
    for (patch, plain) in samples {
        let mut order: Vec<(f32, Lab)> = patch
            .cells
            .iter()
            .zip(plain)
            .map(|(seen, p)| (delta_e(*seen, *p), *seen))
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        picks.extend(
            order
                .iter()
                .take((cells.len() / 10).max(3))
                .map(|(_, l)| *l),
        );
    }
    let ink = median_lab(&mut picks)?;
    // Each sample's coverage map, mirrored across the side to agree with the first.
    let maps: Vec<Vec<f32>> = samples
        .iter()
        .map(|(patch, plain)| {
            patch
                .cells
                .iter()
                .zip(plain)
                .map(|(seen, p)| coverage(*seen, *p, ink).unwrap_or(f32::NAN))
                .collect()
        })
        .collect();
    let first = maps.first()?.clone();
    let agree = |m: &Vec<f32>, mirrored: bool| -> f32 {
        (0..cells.len())
            .map(|i| {
                let j = if mirrored { cells.mirror(i) } else { i };
                let (a, b) = (first[i], m[j]);
                if a.is_nan() || b.is_nan() {
                    0.0
                } else {
                    (a - b).abs()
                }
            })
            .sum()
    };
    let aligned: Vec<Vec<f32>> = maps
        .iter()
        .map(|m| {
            if agree(m, true) < agree(m, false) {
                (0..cells.len()).map(|i| m[cells.mirror(i)]).collect()
            } else {
                m.clone()
            }
        })
        .collect();
    let mut column = Vec::with_capacity(aligned.len());
    let alpha = (0..cells.len())
        .map(|i| {
            column.clear();
            column.extend(aligned.iter().map(|m| m[i]).filter(|v| !v.is_nan()));
            median(&mut column).unwrap_or(0.0)
        })
        .collect();
    Some(InkModel { ink, alpha })
}

/// The scores of one hexside: per hypothesis (0 plain, then each feature), the robust
/// distance to the scan, and how much every two hypotheses differ.
#[derive(Debug, Clone)]
struct Scored {
    score: Vec<f32>,
    /// Row-major `n × n`.
    differ: Vec<f32>,
}

/// Scores one hexside under every hypothesis (plain, then each feature).
fn score_patch(
    patch: &Patch,
    grid_model: &GridModel,
    models: &[Option<InkModel>],
    cells: Cells,
) -> Scored {
    let hypotheses = 1 + models.len();
    let mut plain = Vec::with_capacity(cells.len());
    grid_model.predict(patch, cells, &mut plain);
    let mut predictions: Vec<Vec<Lab>> = Vec::with_capacity(hypotheses);
    predictions.push(plain.clone());
    for model in models {
        let Some(model) = model else {
            predictions.push(plain.clone());
            continue;
        };
        // The feature as learnt, or mirrored across the side: the closer.
        let make = |mirrored: bool| -> Vec<Lab> {
            (0..cells.len())
                .map(|c| {
                    let j = if mirrored { cells.mirror(c) } else { c };
                    over(plain[c], model.ink, model.alpha[j])
                })
                .collect()
        };
        let straight = make(false);
        let mirrored = make(true);
        let d =
            |p: &Vec<Lab>| -> f32 { patch.cells.iter().zip(p).map(|(a, b)| capped(*a, *b)).sum() };
        predictions.push(if d(&mirrored) < d(&straight) {
            mirrored
        } else {
            straight
        });
    }
    // Per row along the side: each hypothesis' disagreement with the scan.
    let rows: Vec<Vec<f32>> = predictions
        .iter()
        .map(|p| {
            patch
                .cells
                .chunks(cells.across)
                .zip(p.chunks(cells.across))
                .map(|(a, b)| a.iter().zip(b).map(|(x, y)| capped(*x, *y)).sum())
                .collect()
        })
        .collect();
    // Each feature's advantage over the plain line, row by row along the side, as the mean
    // of the lower middle of those rows (from the sixth to the median, sorted): a line must
    // run along most of the side, so a road, a label or a pen mark across a few rows cannot
    // make one.
    let plain_score: f32 = rows[0].iter().sum();
    let score: Vec<f32> = (0..hypotheses)
        .map(|h| {
            if h == 0 {
                return plain_score;
            }
            let mut d: Vec<f32> = rows[0].iter().zip(&rows[h]).map(|(p, f)| p - f).collect();
            d.sort_by(f32::total_cmp);
            let n = d.len();
            let (lo, hi) = (n / 6, n / 2 + 1);
            let middle = &d[lo..hi];
            let advantage = middle.iter().sum::<f32>() / middle.len().max(1) as f32;
            plain_score - advantage * n as f32
        })
        .collect();
    let mut differ = vec![0.0; hypotheses * hypotheses];
    for a in 0..hypotheses {
        for b in (a + 1)..hypotheses {
            let d: f32 = predictions[a]
                .iter()
                .zip(&predictions[b])
                .map(|(x, y)| capped(*x, *y))
                .sum();
            differ[a * hypotheses + b] = d;
            differ[b * hypotheses + a] = d;
        }
    }
    Scored { score, differ }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn suggest(
    scan: &crate::scan::Scan,
    grid: &Grid,
    m: &Matrix,
    terrain: &TerrainSuggestions,
    samples: &HexsideSamples,
    _options: &ClassifyOptions,
    progress: Progress,
) -> Result<(Vec<HexsideSuggestion>, Vec<Lab>), ClassifyError> {
    let forward: Vec<Side> = sides(grid.orientation)[..3].to_vec();
    let canonical = |(index, side): (HexIndex, Side)| grid.canonical_hexside(index, side);
    let all = interior_hexsides(grid);
    let position: HashMap<(HexIndex, Side), usize> =
        all.iter().enumerate().map(|(i, h)| (*h, i)).collect();
    // One cell layout for the whole map, from the scale at its middle.
    let middle = grid.centre(HexIndex::new(grid.columns / 2, grid.rows / 2));
    let scale = local_scale(m, [f64::from(middle[0]), f64::from(middle[1])]);
    if !(scale.is_finite() && scale > 0.0) {
        return Err(ClassifyError::NoSamples);
    }
    let cells = Cells::for_scale(scale);
    let split = |f: f32, lo: f32, hi: f32| lo + (hi - lo) * f;
    let patches: Vec<Option<Patch>> = crate::suggestion::map_with_progress(
        &all,
        &|f| progress(split(f, 0.0, 0.6)),
        |&(index, side)| {
            let direction = forward.iter().position(|s| *s == side).unwrap_or(0);
            sample_patch(scan, grid, m, index, side, cells, direction)
        },
    )
    .ok_or(ClassifyError::Cancelled)?;

    // Marked hexsides.
    let mut marked: BTreeMap<usize, Option<usize>> = BTreeMap::new();
    let ids: Vec<Id> = samples.features.keys().cloned().collect();
    for (f, id) in ids.iter().enumerate() {
        for h in &samples.features[id] {
            if let Some(&i) = position.get(&canonical(*h)) {
                marked.insert(i, Some(f));
            }
        }
    }
    for h in &samples.plain {
        if let Some(&i) = position.get(&canonical(*h)) {
            marked.entry(i).or_insert(None);
        }
    }

    // The grid line, from every hexside not marked as a feature.
    let plain_pool: Vec<&Patch> = patches
        .iter()
        .enumerate()
        .filter(|(i, _)| !matches!(marked.get(i), Some(Some(_))))
        .filter_map(|(_, p)| p.as_ref())
        .collect();
    let Some(grid_model) = GridModel::learn(&plain_pool, cells) else {
        return Err(ClassifyError::NoSamples);
    };
    let mut models: Vec<Option<InkModel>> = Vec::with_capacity(ids.len());
    for (f, _) in ids.iter().enumerate() {
        let list: Vec<(&Patch, Vec<Lab>)> = marked
            .iter()
            .filter(|(_, v)| **v == Some(f))
            .filter_map(|(i, _)| patches[*i].as_ref())
            .map(|p| {
                let mut plain = Vec::new();
                grid_model.predict(p, cells, &mut plain);
                (p, plain)
            })
            .collect();
        models.push(learn_feature(&list, cells));
    }
    share_alike_coverage(
        &mut models,
        &ids,
        samples,
        &marked,
        &patches,
        &grid_model,
        cells,
    );
    let hypotheses = 1 + models.len();

    // Score every hexside under every hypothesis.
    let indices: Vec<usize> = (0..all.len()).collect();
    let scored: Vec<Option<Scored>> =
        crate::suggestion::map_with_progress(&indices, &|f| progress(split(f, 0.6, 0.95)), |&i| {
            let patch = patches[i].as_ref()?;
            Some(score_patch(patch, &grid_model, &models, cells))
        })
        .ok_or(ClassifyError::Cancelled)?;

    // First decision, from the scan alone.
    let decide = |s: &Scored, penalty: &[f32]| -> (usize, f32) {
        let total: Vec<f32> = s
            .score
            .iter()
            .zip(penalty)
            .enumerate()
            .map(|(h, (v, p))| {
                let visible = s.differ[h].max(1.0);
                v + p * visible
            })
            .collect();
        let mut order: Vec<usize> = (0..total.len()).collect();
        order.sort_by(|a, b| total[*a].total_cmp(&total[*b]));
        let best = order[0];
        let confidence = match order.get(1) {
            Some(&second) if total[second].is_finite() => {
                let d = s.differ[best * total.len() + second];
                if d <= 1e-3 {
                    0.0
                } else {
                    ((total[second] - total[best]) / d).clamp(0.0, 1.0)
                }
            }
            _ => 1.0,
        };
        (best, confidence)
    };
    let zero = vec![0.0f32; hypotheses];
    let decide_all = |scored: &[Option<Scored>]| -> Vec<Option<(usize, f32)>> {
        scored
            .iter()
            .enumerate()
            .map(|(i, s)| match marked.get(&i) {
                Some(v) => Some((v.map_or(0, |f| f + 1), 1.0)),
                None => s.as_ref().map(|s| decide(s, &zero)),
            })
            .collect()
    };
    let first = decide_all(&scored);

    // The map's structure: chains, bridges on water, water not inside water.
    let corner_key = |p: [f32; 2]| ((p[0] * 64.0).round() as i64, (p[1] * 64.0).round() as i64);
    let mut at_corner: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    let mut ends: Vec<[(i64, i64); 2]> = Vec::with_capacity(all.len());
    for (i, &(index, side)) in all.iter().enumerate() {
        let [a, b] = grid
            .side_corners(index, side)
            .unwrap_or([[0.0, 0.0], [0.0, 0.0]]);
        let key = [corner_key(a), corner_key(b)];
        for k in key {
            at_corner.entry(k).or_default().push(i);
        }
        ends.push(key);
    }
    let kinds: Vec<FeatureKind> = ids
        .iter()
        .map(|id| samples.kinds.get(id).copied().unwrap_or_default())
        .collect();
    let water_hex = |index: HexIndex| -> bool {
        terrain
            .get(grid, index)
            .and_then(|s| s.code.as_ref())
            .is_some_and(|c| samples.water_terrain.contains(c))
    };
    let water_features = (0..models.len()).any(|g| kinds[g].water && models[g].is_some());
    let alike = |f: usize, g: usize| {
        f == g || (kinds[f].symbol.is_some() && kinds[f].symbol == kinds[g].symbol)
    };
    let borders_water: Vec<bool> = all
        .iter()
        .map(|&(index, side)| {
            water_hex(index) || grid.neighbour(index, side).is_some_and(water_hex)
        })
        .collect();
    // Whether hexside `j` may carry feature `f` and so continue its chain: the first pass
    // chose a feature drawn alike (the shades of one line make one chain: which shade is
    // decided later, along it) or, for water, a bridge over it; or, unmarked, a feature drawn
    // alike explains the scan better than the plain line by a little (a line under a label or
    // a road is faint, and two such hexsides in a row hold each other up).
    let plausible = |j: usize, f: usize| -> bool {
        if let Some((b, c)) = first[j]
            && b > 0
            && c > 0.05
            && (alike(b - 1, f) || (kinds[f].water && kinds[b - 1].bridge))
        {
            return true;
        }
        if marked.contains_key(&j) {
            return false;
        }
        let Some(s) = scored[j].as_ref() else {
            return false;
        };
        (0..models.len()).any(|g| {
            alike(f, g)
                && models[g].is_some()
                && s.score[g + 1] - s.score[0] < -FAINT_LINK * s.differ[g + 1].max(1.0)
        })
    };
    let has = |j: usize, f: usize| first[j].is_some_and(|(h, c)| h == f + 1 && c > 0.05);
    let penalties = |i: usize| -> Vec<f32> {
        let mut out = vec![0.0f32; hypotheses];
        let Some(s) = scored[i].as_ref() else {
            return out;
        };
        let (index, side) = all[i];
        let water_sides = [
            water_hex(index),
            grid.neighbour(index, side).is_some_and(water_hex),
        ];
        for f in 0..models.len() {
            let h = f + 1;
            if models[f].is_none() {
                out[h] = f32::INFINITY;
                continue;
            }
            let kind = kinds[f];
            if kind.water && water_sides[0] && water_sides[1] {
                out[h] = f32::INFINITY;
                continue;
            }
            if kind.bridge {
                // Over water running along the side: a water feature at one of its ends
                // (water hexes only count when the legend has no water feature: a road
                // into a river hex is not a bridge on the hexside).
                let wet = (!water_features && (water_sides[0] || water_sides[1]))
                    || ends[i].iter().any(|k| {
                        at_corner[k].iter().any(|&j| {
                            j != i && (0..models.len()).any(|g| kinds[g].water && has(j, g))
                        })
                    });
                if !wet {
                    out[h] = f32::INFINITY;
                }
                continue;
            }
            let mut linked = ends[i]
                .iter()
                .filter(|k| at_corner[*k].iter().any(|&j| j != i && plausible(j, f)))
                .count();
            // A line may end at water (a camp anchored on the river): an end touching a
            // water hex is not a lone end. Not for water features (a bank is not a stream)
            // nor along a water hex (both its ends touch it).
            // Its own ink must be clear, too (a faint one beside a river is a bank).
            let own = s.score[h] - s.score[0];
            let visible = s.differ[h].max(1.0);
            if linked == 0
                && !kind.water
                && !borders_water[i]
                && own < -CLEAR_INK * visible
                && ends[i]
                    .iter()
                    .any(|k| at_corner[k].iter().any(|&j| j != i && borders_water[j]))
            {
                linked = 1;
            }
            // A chain holds up a faint hexside, not one whose own ink argues against it.
            out[h] = match linked {
                0 => 0.6,
                1 => 0.0,
                _ if own > CLEAR_INK * visible => 0.0,
                _ => -0.5,
            };
            // A water feature beside a water hex has that hex's own ink: a bank a little off
            // the fitted grid imitates it all along, so the chain does not make it likelier.
            if kind.water && borders_water[i] {
                out[h] = out[h].max(0.0);
            }
        }
        out
    };
    let decided: Vec<Option<(usize, f32)>> = (0..all.len())
        .map(|i| match marked.get(&i) {
            Some(v) => Some((v.map_or(0, |f| f + 1), 1.0)),
            None => scored[i].as_ref().map(|s| decide(s, &penalties(i))),
        })
        .collect();

    // How well the winner explains a typical hexside: over the map, and around each hexside
    // (a textured or crowded region of the sheet is explained worse all over; clutter is what
    // stands out from its surroundings).
    let best_fit: Vec<Option<f32>> = (0..all.len())
        .map(|i| Some(scored[i].as_ref()?.score[decided[i]?.0]))
        .collect();
    let mut fits: Vec<f32> = best_fit.iter().flatten().copied().collect();
    let typical = median(&mut fits).unwrap_or(0.0);
    let middles: Vec<[f32; 2]> = ends
        .iter()
        .map(|[a, b]| [(a.0 + b.0) as f32 / 128.0, (a.1 + b.1) as f32 / 128.0])
        .collect();
    let around = local_quantiles(&middles, &best_fit, LOCAL_RADIUS, LOCAL_QUANTILE);

    // Features drawn alike (shades of one line) are told apart along the chain: the evidence
    // for each of them is pooled over the hexside and its neighbours at both ends that carry
    // one of them, so one hexside's shade does not decide alone.
    let suggestions: Vec<HexsideSuggestion> = all
        .iter()
        .enumerate()
        .map(|(i, &(index, side))| {
            if let Some(v) = marked.get(&i) {
                return HexsideSuggestion {
                    index,
                    side,
                    feature: v.map(|f| ids[f].clone()),
                    confidence: 1.0,
                    marked: true,
                };
            }
            let (Some(s), Some((best, confidence))) = (scored[i].as_ref(), decided[i]) else {
                return HexsideSuggestion {
                    index,
                    side,
                    feature: None,
                    confidence: 0.0,
                    marked: false,
                };
            };
            let (best, confidence) = if best == 0 {
                (best, confidence)
            } else {
                pool_alike(
                    i,
                    best - 1,
                    s,
                    &decided,
                    &scored,
                    &ends,
                    &at_corner,
                    &alike,
                    &models,
                )
                .map_or((best, confidence), |(f, c)| (f + 1, confidence.min(c)))
            };
            // A hexside no hypothesis explains well (a label, a symbol, a pen mark over it)
            // is doubtful when a feature is in play: it is one, one explains the scan better
            // than the plain line before the map's structure is weighed, or it touches one.
            let near_feature = best > 0
                || s.score[1..].iter().any(|v| *v < s.score[0])
                || ends[i].iter().any(|k| {
                    at_corner[k]
                        .iter()
                        .any(|&j| j != i && decided[j].is_some_and(|(b, c)| b > 0 && c > 0.05))
                });
            let typical = around[i].map_or(typical, |a| a.max(typical));
            let confidence = if near_feature && typical > 0.0 {
                let clutter = (CLUTTER * typical / s.score[best].max(1e-3)).min(1.0);
                confidence * clutter.powi(3)
            } else {
                confidence
            };
            // So is a feature its own ink argues against (the plain line explains the scan
            // better): only its chain made it one, as a stain's brown grid lines can.
            let confidence = if best > 0 && s.score[best] > s.score[0] {
                confidence.min(GAP_CONFIDENCE)
            } else {
                confidence
            };
            // A plain hexside in a gap of a chain (features drawn alike at both its ends) is
            // where the scan and the map's structure disagree: it is for review.
            let continues = |f: usize, g: usize| {
                alike(f, g)
                    || (kinds[f].bridge && kinds[g].water)
                    || (kinds[f].water && kinds[g].bridge)
            };
            let confidence = if best == 0 && chain_gap(i, &ends, &at_corner, &decided, &continues) {
                confidence.min(GAP_CONFIDENCE)
            } else {
                confidence
            };
            // A water feature beside a water hex has that hex's own ink: a bank a little off
            // the fitted grid looks just like it, so it is for review.
            let (index_w, neighbour_w) = (
                water_hex(index),
                grid.neighbour(index, side).is_some_and(water_hex),
            );
            let confidence = if best > 0 && kinds[best - 1].water && (index_w || neighbour_w) {
                confidence.min(GAP_CONFIDENCE)
            } else {
                confidence
            };
            HexsideSuggestion {
                index,
                side,
                feature: (best > 0).then(|| ids[best - 1].clone()),
                confidence,
                marked: false,
            }
        })
        .collect();
    if !progress(1.0) {
        return Err(ClassifyError::Cancelled);
    }
    let inks = std::iter::once(grid_model.ink)
        .chain(models.iter().flatten().map(|m| m.ink))
        .collect();
    Ok((suggestions, inks))
}

/// Per hexside, the quantile `q` of `values` over the hexsides whose middles (grid space) lie
/// within `radius` of its own, itself included (`None` when none has a value).
fn local_quantiles(
    middles: &[[f32; 2]],
    values: &[Option<f32>],
    radius: f32,
    q: f32,
) -> Vec<Option<f32>> {
    let cell = |p: [f32; 2]| {
        (
            (p[0] / radius).floor() as i64,
            (p[1] / radius).floor() as i64,
        )
    };
    let mut buckets: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, p) in middles.iter().enumerate() {
        if values[i].is_some() {
            buckets.entry(cell(*p)).or_default().push(i);
        }
    }
    let r2 = radius * radius;
    middles
        .par_iter()
        .map(|p| {
            let (cx, cy) = cell(*p);
            let mut near: Vec<f32> = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for &j in buckets.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                        let q = middles[j];
                        let d2 = (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2);
                        if d2 <= r2 {
                            near.extend(values[j]);
                        }
                    }
                }
            }
            if near.is_empty() {
                return None;
            }
            let k = ((near.len() - 1) as f32 * q).round() as usize;
            near.select_nth_unstable_by(k, f32::total_cmp);
            Some(near[k])
        })
        .collect()
}

/// Whether hexside `i` lies in a gap of a chain: each of its two ends touches a hexside
/// decided as a feature (even narrowly: a label over the line weakens it), and the features at the two ends continue each
/// other (drawn alike, or a bridge and the water it crosses).
fn chain_gap(
    i: usize,
    ends: &[[(i64, i64); 2]],
    at_corner: &HashMap<(i64, i64), Vec<usize>>,
    decided: &[Option<(usize, f32)>],
    alike: &dyn Fn(usize, usize) -> bool,
) -> bool {
    let carried = |k: &(i64, i64)| -> Vec<usize> {
        at_corner[k]
            .iter()
            .filter(|&&j| j != i)
            .filter_map(|&j| decided[j].filter(|(b, _)| *b > 0))
            .map(|(b, _)| b - 1)
            .collect()
    };
    let [a, b] = [carried(&ends[i][0]), carried(&ends[i][1])];
    a.iter().any(|&f| b.iter().any(|&g| alike(f, g)))
}

/// Among the features drawn like `f`, the one the hexside `i` and its chain neighbours (those
/// that carry one of them) explain best together, with the confidence of that choice (the
/// margin over the runner-up as a share of how much the two differ). `None` when `f` has no
/// alike feature.
#[allow(clippy::too_many_arguments)]
fn pool_alike(
    i: usize,
    f: usize,
    s: &Scored,
    decided: &[Option<(usize, f32)>],
    scored: &[Option<Scored>],
    ends: &[[(i64, i64); 2]],
    at_corner: &HashMap<(i64, i64), Vec<usize>>,
    alike: &dyn Fn(usize, usize) -> bool,
    models: &[Option<InkModel>],
) -> Option<(usize, f32)> {
    let group: Vec<usize> = (0..models.len())
        .filter(|&g| models[g].is_some() && alike(f, g))
        .collect();
    if group.len() < 2 {
        return None;
    }
    let n = 1 + models.len();
    // Lower is better: the summed scores of each alike feature.
    let sum =
        |members: &[&Scored], g: usize| -> f32 { members.iter().map(|m| m.score[g + 1]).sum() };
    let per_end: Vec<Vec<&Scored>> = ends[i]
        .iter()
        .map(|k| {
            at_corner[k]
                .iter()
                .filter(|&&j| {
                    j != i && decided[j].is_some_and(|(b, _)| b > 0 && group.contains(&(b - 1)))
                })
                .filter_map(|&j| scored[j].as_ref())
                .collect()
        })
        .collect();
    let end_shade = |members: &[&Scored]| {
        group
            .iter()
            .copied()
            .min_by(|a, b| sum(members, *a).total_cmp(&sum(members, *b)))
    };
    // Where one line meets another (its two ends carry different shades), the hexside is
    // told by its own ink; inside a run, by the run's.
    let junction =
        per_end.iter().all(|m| !m.is_empty()) && end_shade(&per_end[0]) != end_shade(&per_end[1]);
    let mut members = vec![s];
    if !junction {
        members.extend(per_end.iter().flatten());
    }
    let total = |g: usize| -> f32 { sum(&members, g) };
    let mut order: Vec<usize> = group.clone();
    order.sort_by(|a, b| total(*a).total_cmp(&total(*b)));
    let (best, second) = (order[0], order[1]);
    let differ: f32 = members
        .iter()
        .map(|m| m.differ[(best + 1) * n + second + 1])
        .sum();
    let confidence = if differ <= 1e-3 {
        0.0
    } else {
        ((total(second) - total(best)) / differ * 2.0).clamp(0.0, 1.0)
    };
    Some((best, confidence))
}

/// Features drawn alike (the same symbol: shades of one line) differ only by their ink, so
/// they share one coverage map, learnt from all their samples together; each keeps its own
/// ink, refitted by least squares under that shared coverage. Three samples per shade then
/// teach the shape with nine, and the shades are told apart by colour alone.
#[allow(clippy::too_many_arguments)]
fn share_alike_coverage(
    models: &mut [Option<InkModel>],
    ids: &[Id],
    samples: &HexsideSamples,
    marked: &BTreeMap<usize, Option<usize>>,
    patches: &[Option<Patch>],
    grid_model: &GridModel,
    cells: Cells,
) {
    let symbol = |f: usize| samples.kinds.get(&ids[f]).and_then(|k| k.symbol);
    let mut done = vec![false; ids.len()];
    for f in 0..ids.len() {
        if done[f] || models[f].is_none() || symbol(f).is_none() {
            continue;
        }
        // Only shades taught by three hexsides or more: a variant marked twice (a line under
        // a road) would teach the road as part of the shape.
        let taught = |g: usize| marked.values().filter(|v| **v == Some(g)).count() >= 3;
        let group: Vec<usize> = (f..ids.len())
            .filter(|&g| models[g].is_some() && symbol(g) == symbol(f) && taught(g))
            .collect();
        for &g in &group {
            done[g] = true;
        }
        if group.len() < 2 {
            continue;
        }
        let of = |g: usize| -> Vec<(&Patch, Vec<Lab>)> {
            marked
                .iter()
                .filter(|(_, v)| **v == Some(g))
                .filter_map(|(i, _)| patches[*i].as_ref())
                .map(|p| {
                    let mut plain = Vec::new();
                    grid_model.predict(p, cells, &mut plain);
                    (p, plain)
                })
                .collect()
        };
        let pooled: Vec<(&Patch, Vec<Lab>)> = group.iter().flat_map(|&g| of(g)).collect();
        let Some(shared) = learn_feature(&pooled, cells) else {
            continue;
        };
        for &g in &group {
            let Some(own) = models[g].as_ref() else {
                continue;
            };
            let mut num = [0.0f32; 3];
            let mut den = 0.0f32;
            for (patch, plain) in of(g) {
                // The shared coverage as learnt or mirrored: whichever fits this sample.
                let fit = |mirrored: bool| -> f32 {
                    (0..cells.len())
                        .map(|c| {
                            let j = if mirrored { cells.mirror(c) } else { c };
                            capped(patch.cells[c], over(plain[c], own.ink, shared.alpha[j]))
                        })
                        .sum()
                };
                let mirrored = fit(true) < fit(false);
                for (c, (seen, base)) in patch.cells.iter().zip(&plain).enumerate() {
                    let j = if mirrored { cells.mirror(c) } else { c };
                    let a = shared.alpha[j];
                    if a < 0.2 {
                        continue;
                    }
                    for (ch, n) in num.iter_mut().enumerate() {
                        *n += a * (seen[ch] - (1.0 - a) * base[ch]);
                    }
                    den += a * a;
                }
            }
            if den > 1e-3 {
                let ink = [num[0] / den, num[1] / den, num[2] / den];
                models[g] = Some(InkModel {
                    ink,
                    alpha: shared.alpha.clone(),
                });
            }
        }
    }
}

#[cfg(test)]
#[path = "hexsides_tests.rs"]
mod tests;
