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
//! Sampling, learning and scoring the patches is [`patch`]; here the decisions: the map's
//! structure (chains, bridges, water), the shades of a line along its chain, and doubt.

use std::collections::{BTreeMap, HashMap};

use bataille_schema::geometry::sides;
use bataille_schema::{Grid, HexIndex, Id, Side};
use rayon::prelude::*;

use crate::calibrate::apply;
use crate::colour::{Lab, delta_e, median_lab, srgb_to_lab};
use crate::mapping::GridMapping;
use crate::scan::Progress;
use crate::suggestion::{
    ClassifyError, ClassifyOptions, FeatureKind, HexsideSamples, HexsideSuggestion,
    TerrainSuggestions, interior_hexsides,
};

mod patch;
use patch::*;

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

#[allow(clippy::too_many_arguments)]
pub(crate) fn suggest(
    scan: &crate::scan::Scan,
    grid: &Grid,
    mapping: &GridMapping,
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
    let scale = mapping.scale([f64::from(middle[0]), f64::from(middle[1])]);
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
            sample_patch(scan, grid, mapping, index, side, cells, direction)
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

#[cfg(test)]
#[path = "hexsides_tests.rs"]
mod tests;
