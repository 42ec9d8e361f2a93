//! Fitting the model to the lines found: robust (Tukey) least squares of the distances
//! across the sides for the global fit, and the smooth local correction (its fit, and the
//! held-out test that keeps it).

#[allow(clippy::wildcard_imports, reason = "the parent's model and constants")]
use super::*;

/// The signed distance (px) of each observation's line from where `m` (and `warp`) put it.
pub(super) fn line_residuals(obs: &[Observation], m: &Matrix, warp: Option<&Warp>) -> Vec<f64> {
    obs.iter()
        .map(|o| {
            let mut p = apply(m, o.grid);
            if let Some(w) = warp {
                let d = w.displacement(o.grid);
                p = [p[0] + d[0], p[1] + d[1]];
            }
            o.normal[0] * (o.found[0] - p[0]) + o.normal[1] * (o.found[1] - p[1])
        })
        .collect()
}

/// Tukey weights for residuals, with the robust scale (floored at `floor` px).
pub(super) fn tukey_weights(residuals: &[f64], floor: f64) -> (Vec<f64>, f64) {
    let sigma = (1.4826 * median(residuals.iter().map(|r| r.abs()).collect())).max(floor);
    let c = TUKEY * sigma;
    let weights = residuals
        .iter()
        .map(|r| {
            if r.abs() >= c {
                0.0
            } else {
                let t = 1.0 - (r / c).powi(2);
                t * t
            }
        })
        .collect();
    (weights, sigma)
}

pub(super) fn params_of(kind: FitKind, h: &Matrix) -> Vec<f64> {
    match kind {
        FitKind::Similarity => vec![(h[0] + h[4]) / 2.0, (h[3] - h[1]) / 2.0, h[2], h[5]],
        FitKind::Affine => vec![h[0], h[1], h[2], h[3], h[4], h[5]],
        FitKind::Projective => h[..8].to_vec(),
    }
}

pub(super) fn matrix_of(kind: FitKind, p: &[f64]) -> Matrix {
    match kind {
        FitKind::Similarity => [p[0], -p[1], p[2], p[1], p[0], p[3], 0.0, 0.0, 1.0],
        FitKind::Affine => [p[0], p[1], p[2], p[3], p[4], p[5], 0.0, 0.0, 1.0],
        FitKind::Projective => [p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], 1.0],
    }
}

/// The matrix of `kind` that best puts each observed side on its line (weighted least squares
/// of the distances across the sides, Gauss-Newton from `start`), with the observations'
/// targets shifted back by `warp` (the correction is fitted apart).
pub(super) fn fit_lines(
    kind: FitKind,
    obs: &[Observation],
    weights: &[f64],
    warp: Option<&Warp>,
    start: &Matrix,
) -> Option<Matrix> {
    let used: Vec<(usize, f64)> = weights
        .iter()
        .enumerate()
        .filter(|(_, w)| **w > 0.0)
        .map(|(i, w)| (i, *w))
        .collect();
    if used.len() < 12 {
        return None;
    }
    // Normalise: grid points to mean distance √2 about their centroid, image points likewise.
    let n = used.len() as f64;
    let centroid = |f: &dyn Fn(usize) -> [f64; 2]| {
        let (sx, sy) = used.iter().fold((0.0, 0.0), |a, (i, _)| {
            let p = f(*i);
            (a.0 + p[0], a.1 + p[1])
        });
        [sx / n, sy / n]
    };
    let target = |i: usize| {
        let o = &obs[i];
        match warp {
            Some(w) => {
                let d = w.displacement(o.grid);
                [o.found[0] - d[0], o.found[1] - d[1]]
            }
            None => o.found,
        }
    };
    let gc = centroid(&|i| obs[i].grid);
    let ic = centroid(&target);
    let spread = |f: &dyn Fn(usize) -> [f64; 2], c: [f64; 2]| {
        used.iter()
            .map(|(i, _)| {
                let p = f(*i);
                (p[0] - c[0]).hypot(p[1] - c[1])
            })
            .sum::<f64>()
            / n
    };
    let gs = 2f64.sqrt() / spread(&|i| obs[i].grid, gc).max(1e-9);
    let is = 2f64.sqrt() / spread(&target, ic).max(1e-9);
    let t_grid = [gs, 0.0, -gs * gc[0], 0.0, gs, -gs * gc[1], 0.0, 0.0, 1.0];
    let t_image = [is, 0.0, -is * ic[0], 0.0, is, -is * ic[1], 0.0, 0.0, 1.0];
    let mut h = multiply(&t_image, &multiply(start, &invert(&t_grid)?));
    if h[8].abs() < 1e-12 {
        return None;
    }
    let w8 = h[8];
    h = h.map(|v| v / w8);
    // (normalised grid point, normalised target, normal, √weight)
    type Row = ([f64; 2], [f64; 2], [f64; 2], f64);
    let points: Vec<Row> = used
        .iter()
        .map(|(i, w)| {
            let g = apply(&t_grid, obs[*i].grid);
            let q = apply(&t_image, target(*i));
            (g, q, obs[*i].normal, w.sqrt())
        })
        .collect();
    let residual = |p: &[f64], (g, q, nrm, _): &Row| {
        let m = matrix_of(kind, p);
        let x = apply(&m, *g);
        nrm[0] * (x[0] - q[0]) + nrm[1] * (x[1] - q[1])
    };
    let cost = |p: &[f64]| -> f64 {
        points
            .iter()
            .map(|pt| (pt.3 * residual(p, pt)).powi(2))
            .sum()
    };
    let mut params = params_of(kind, &h);
    let mut current = cost(&params);
    for _ in 0..12 {
        let mut a = Vec::with_capacity(points.len());
        let mut b = Vec::with_capacity(points.len());
        for pt in &points {
            let r0 = residual(&params, pt);
            let mut row = Vec::with_capacity(params.len());
            for k in 0..params.len() {
                let eps = 1e-7 * params[k].abs().max(1.0);
                let mut p = params.clone();
                p[k] += eps;
                row.push(pt.3 * (residual(&p, pt) - r0) / eps);
            }
            a.push(row);
            b.push(-pt.3 * r0);
        }
        let delta = least_squares(&a, &b)?;
        let next: Vec<f64> = params.iter().zip(&delta).map(|(p, d)| p + d).collect();
        let next_cost = cost(&next);
        if !next_cost.is_finite() || next_cost > current {
            break;
        }
        let gain = current - next_cost;
        params = next;
        current = next_cost;
        if gain <= 1e-14 * current.max(1e-30) {
            break;
        }
    }
    let m = multiply(
        &invert(&t_image)?,
        &multiply(&matrix_of(kind, &params), &t_grid),
    );
    let w8 = m[8];
    (w8.abs() > 1e-12 && m.iter().all(|v| v.is_finite())).then(|| m.map(|v| v / w8))
}

/// Solves the symmetric positive definite system `a x = b` (Cholesky), or `None`. `band`:
/// no entry lies further than this from the diagonal (`a[i][k]` is 0 when `|i − k| > band`),
/// so neither does any of the factor's, and only the band is worked on: the correction's
/// system is banded (a node meets only its lattice neighbours) and the full factorisation
/// was a tenth of a large sheet's refinement. (Pass `n` for a dense system.)
pub(super) fn solve_spd(
    mut a: Vec<f64>,
    mut b: Vec<f64>,
    n: usize,
    band: usize,
) -> Option<Vec<f64>> {
    for j in 0..n {
        let first = j.saturating_sub(band);
        let mut d = a[j * n + j];
        for k in first..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in (j + 1)..n.min(j + band + 1) {
            let mut s = a[i * n + j];
            for k in first.max(i.saturating_sub(band))..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    for i in 0..n {
        let mut s = b[i];
        for k in i.saturating_sub(band)..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in (i + 1)..n.min(i + band + 1) {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    Some(b)
}

/// The smooth correction that best explains what the global fit leaves across the sides
/// (`residuals`, px, weighted by `weights`), membrane-regularised, on a lattice with about
/// forty lines a cell.
pub(super) fn fit_warp(
    obs: &[Observation],
    residuals: &[f64],
    weights: &[f64],
    bounds: ([f64; 2], [f64; 2]),
) -> Option<Warp> {
    let used = weights.iter().filter(|w| **w > 0.0).count();
    if used < 60 {
        return None;
    }
    let (min, max) = bounds;
    let (width, height) = ((max[0] - min[0]).max(1.0), (max[1] - min[1]).max(1.0));
    let cell = (width * height * 25.0 / used as f64).sqrt().max(4.0);
    let columns = ((width / cell).ceil() as usize + 1).clamp(2, 16);
    let rows = ((height / cell).ceil() as usize + 1).clamp(2, 16);
    let cell = (width / (columns - 1) as f64).max(height / (rows - 1) as f64);
    let mut warp = Warp {
        origin: min,
        cell,
        columns,
        rows,
        nodes: vec![[0.0; 2]; columns * rows],
    };
    let nodes = columns * rows;
    let n = 2 * nodes;
    let mut a = vec![0.0; n * n];
    let mut b = vec![0.0; n];
    let mut total = 0.0;
    for ((o, r), w) in obs.iter().zip(residuals).zip(weights) {
        if *w <= 0.0 {
            continue;
        }
        total += w;
        let coeffs: Vec<(usize, f64)> = warp
            .weights(o.grid)
            .iter()
            .flat_map(|(k, phi)| [(2 * k, phi * o.normal[0]), (2 * k + 1, phi * o.normal[1])])
            .collect();
        for (i, ci) in &coeffs {
            b[*i] += w * ci * r;
            for (j, cj) in &coeffs {
                a[i * n + j] += w * ci * cj;
            }
        }
    }
    // Membrane: neighbouring nodes alike; a little ridge so nodes with no line stay put.
    let lambda = 0.03 * total / nodes as f64;
    let ridge = 1e-3 * total / nodes as f64;
    for j in 0..rows {
        for i in 0..columns {
            let k = j * columns + i;
            for (di, dj) in [(1usize, 0usize), (0, 1)] {
                let (i2, j2) = (i + di, j + dj);
                if i2 >= columns || j2 >= rows {
                    continue;
                }
                let k2 = j2 * columns + i2;
                for c in 0..2 {
                    let (p, q) = (2 * k + c, 2 * k2 + c);
                    a[p * n + p] += lambda;
                    a[q * n + q] += lambda;
                    a[p * n + q] -= lambda;
                    a[q * n + p] -= lambda;
                }
            }
            for c in 0..2 {
                a[(2 * k + c) * n + 2 * k + c] += ridge;
            }
        }
    }
    // A node meets its lattice neighbours only: (i + 1, j + 1) is columns + 1 nodes on, two
    // unknowns a node.
    let x = solve_spd(a, b, n, 2 * (columns + 1) + 1)?;
    for (k, node) in warp.nodes.iter_mut().enumerate() {
        *node = [x[2 * k], x[2 * k + 1]];
    }
    Some(warp)
}

pub(super) fn weighted_rms(residuals: &[f64], weights: &[f64]) -> f64 {
    let (s, w) = residuals
        .iter()
        .zip(weights)
        .fold((0.0, 0.0), |(s, t), (r, w)| (s + w * r * r, t + w));
    if w > 0.0 {
        (s / w).sqrt()
    } else {
        f64::INFINITY
    }
}

/// Global fit then (when it predicts held-out lines better) a correction, by iteratively
/// reweighted least squares. Returns the model, the weights and the robust scale.
pub(super) fn fit_model(
    kind: FitKind,
    obs: &[Observation],
    start: &Model,
    with_warp: bool,
    bounds: ([f64; 2], [f64; 2]),
) -> Option<(Model, Vec<f64>, f64)> {
    let mut model = Model {
        matrix: start.matrix,
        warp: start.warp.clone(),
        hex_shifts: None,
    };
    let mut weights = vec![1.0; obs.len()];
    let mut sigma = f64::INFINITY;
    for round in 0..6 {
        model.matrix = fit_lines(kind, obs, &weights, model.warp.as_ref(), &model.matrix)?;
        if with_warp && round >= 1 {
            let global = line_residuals(obs, &model.matrix, None);
            model.warp = choose_warp(obs, &global, &weights, bounds);
        }
        let residuals = line_residuals(obs, &model.matrix, model.warp.as_ref());
        let (w, s) = tukey_weights(&residuals, 0.2);
        weights = w;
        sigma = s;
    }
    Some((model, weights, sigma))
}

/// The correction, kept only when, fitted on half the lines, it predicts the other half
/// better than the global fit alone (their median distance down by a fifth at least). The
/// lines are weighted loosely here: where the paper bends, the global fit's residuals are
/// large over whole regions, and they are what the correction is for.
pub(super) fn choose_warp(
    obs: &[Observation],
    global: &[f64],
    _weights: &[f64],
    bounds: ([f64; 2], [f64; 2]),
) -> Option<Warp> {
    let (loose, _) = tukey_weights(global, 1.0);
    let half = |parity: usize| -> Vec<f64> {
        loose
            .iter()
            .enumerate()
            .map(|(i, w)| if i % 2 == parity { *w } else { 0.0 })
            .collect()
    };
    let (train, test) = (half(0), half(1));
    let warp = fit_warp(obs, global, &train, bounds)?;
    let corrected = line_residuals_after(obs, global, &warp);
    let typical = |r: &[f64]| {
        median(
            r.iter()
                .zip(&test)
                .filter(|(_, w)| **w > 0.0)
                .map(|(r, _)| r.abs())
                .collect(),
        )
    };
    let (before, after) = (typical(global), typical(&corrected));
    if after < 0.8 * before && before > 0.15 {
        fit_warp(obs, global, &loose, bounds)
    } else {
        None
    }
}

pub(super) fn line_residuals_after(obs: &[Observation], global: &[f64], warp: &Warp) -> Vec<f64> {
    obs.iter()
        .zip(global)
        .map(|(o, r)| {
            let d = warp.displacement(o.grid);
            r - (o.normal[0] * d[0] + o.normal[1] * d[1])
        })
        .collect()
}
