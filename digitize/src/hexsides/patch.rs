//! The patch model of one hexside: the cells sampled across and along it, the plain grid
//! line and each feature learnt from the sheet and the marked samples (ink and coverage, shared
//! by features drawn alike), and each hexside scored under every hypothesis.

#[allow(clippy::wildcard_imports, reason = "the parent's types and imports")]
use super::*;

/// Half the length of side sampled (hex radii; the side is 1 long): clear of the corners.
pub(super) const HALF_ALONG: f64 = 0.36;
/// Half the width sampled across the side (hex radii).
pub(super) const HALF_ACROSS: f64 = 0.28;
/// Cells further than this share of `HALF_ACROSS` from the side give the hexes' colours.
pub(super) const OUTER: f64 = 0.65;
/// The ΔE at which one cell's disagreement is capped.
pub(super) const CAP: f32 = 22.0;

/// The cells sampled on every hexside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Cells {
    pub(super) along: usize,
    pub(super) across: usize,
}

impl Cells {
    pub(super) fn for_scale(px_per_unit: f64) -> Self {
        // About one cell per pixel across (thin lines), coarser along.
        let across = ((2.0 * HALF_ACROSS * px_per_unit).ceil() as usize).clamp(13, 31) | 1;
        let along = ((2.0 * HALF_ALONG * px_per_unit / 2.0).ceil() as usize).clamp(8, 20);
        Self { along, across }
    }

    pub(super) fn len(self) -> usize {
        self.along * self.across
    }

    /// The offset across of column `k`, in hex radii (negative: the named hex's side).
    pub(super) fn t(self, k: usize) -> f64 {
        -HALF_ACROSS + 2.0 * HALF_ACROSS * k as f64 / (self.across - 1) as f64
    }

    /// The index of the same cell mirrored across the side.
    pub(super) fn mirror(self, i: usize) -> usize {
        let (u, k) = (i / self.across, i % self.across);
        u * self.across + (self.across - 1 - k)
    }
}

/// One hexside as sampled.
#[derive(Debug, Clone)]
pub(super) struct Patch {
    /// Lab per cell, along-major.
    pub(super) cells: Vec<Lab>,
    /// The colours of the two hexes beside the side (named hex, neighbour), from the outer
    /// cells.
    pub(super) sides: [Lab; 2],
    /// Which of the three forward side directions.
    pub(super) direction: usize,
}

pub(super) fn sample_patch(
    scan: &crate::scan::Scan,
    grid: &Grid,
    mapping: &GridMapping,
    index: HexIndex,
    side: Side,
    cells: Cells,
    direction: usize,
) -> Option<Patch> {
    let [a, b] = grid.side_corners(index, side)?;
    let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
    let c = grid.centre(index);
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    // The local correction is a shift over one hexside.
    let m = &mapping.near(mid);
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
pub(super) fn over(base: Lab, k: Lab, alpha: f32) -> Lab {
    [
        base[0] + (k[0] - base[0]) * alpha,
        base[1] + (k[1] - base[1]) * alpha,
        base[2] + (k[2] - base[2]) * alpha,
    ]
}

/// The coverage of ink `k` over `base` that best explains `seen` (`None` when the ink is too
/// close to the base to tell).
#[inline]
pub(super) fn coverage(seen: Lab, base: Lab, k: Lab) -> Option<f32> {
    let d = [k[0] - base[0], k[1] - base[1], k[2] - base[2]];
    let n = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if n < 64.0 {
        return None;
    }
    let s = [seen[0] - base[0], seen[1] - base[1], seen[2] - base[2]];
    Some(((s[0] * d[0] + s[1] * d[1] + s[2] * d[2]) / n).clamp(0.0, 1.0))
}

#[inline]
pub(super) fn capped(a: Lab, b: Lab) -> f32 {
    delta_e(a, b).min(CAP)
}

pub(super) fn median(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    values.select_nth_unstable_by(mid, f32::total_cmp);
    Some(values[mid])
}

/// An ink and where it lies on the patch.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct InkModel {
    pub(super) ink: Lab,
    /// Coverage per cell.
    pub(super) alpha: Vec<f32>,
}

/// The plain grid line, per side direction.
#[derive(Debug, Clone)]
pub(super) struct GridModel {
    pub(super) ink: Lab,
    pub(super) alpha: [Vec<f32>; 3],
}

impl GridModel {
    pub(super) fn learn(patches: &[&Patch], cells: Cells) -> Option<Self> {
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
    pub(super) fn predict(&self, patch: &Patch, cells: Cells, out: &mut Vec<Lab>) {
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

pub(super) fn mean(a: Lab, b: Lab) -> Lab {
    [
        (a[0] + b[0]) / 2.0,
        (a[1] + b[1]) / 2.0,
        (a[2] + b[2]) / 2.0,
    ]
}

/// A feature learnt from its samples, laid over the plain prediction.
pub(super) fn learn_feature(samples: &[(&Patch, Vec<Lab>)], cells: Cells) -> Option<InkModel> {
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
pub(super) struct Scored {
    pub(super) score: Vec<f32>,
    /// Row-major `n × n`.
    pub(super) differ: Vec<f32>,
}

/// Scores one hexside under every hypothesis (plain, then each feature).
pub(super) fn score_patch(
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

/// Features drawn alike (the same symbol: shades of one line) differ only by their ink, so
/// they share one coverage map, learnt from all their samples together; each keeps its own
/// ink, refitted by least squares under that shared coverage. Three samples per shade then
/// teach the shape with nine, and the shades are told apart by colour alone.
#[allow(clippy::too_many_arguments)]
pub(super) fn share_alike_coverage(
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
