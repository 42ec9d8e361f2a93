//! Calibration: the fit from grid coordinates to scan pixels. Least squares over control points
//! (hex centre → clicked pixel) for a similarity (4 parameters), an affine map (6) or a
//! projective map (8: normalised DLT, then Gauss-Newton on the pixel error), with each point's
//! residual and the RMS; and the two-click start for maps without printed numbers. The check
//! of the clicks against each other is the `check` module.

use bataille_schema::map::{ControlPoint, FitKind};
use bataille_schema::{Grid, HexIndex};

/// The fit's matrix and its algebra are what a map file's `background.grid_to_image` means, so
/// they live beside it in the schema (the editor shows a scan with them, without digitising).
pub use bataille_schema::fit::{Matrix, apply, invert, local_scale, multiply};

/// Why a fit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CalibrationError {
    #[error("the {kind} fit needs at least {needed} control points (got {got})")]
    TooFewPoints {
        kind: &'static str,
        needed: usize,
        got: usize,
    },
    #[error("control point {index}: {message}")]
    BadPoint { index: usize, message: String },
    #[error(
        "the control points do not fix the {0} fit (they coincide or lie on one line): spread them over the map"
    )]
    Degenerate(&'static str),
    #[error("the hex size must be a positive number of pixels (got {0})")]
    BadSize(f64),
}

/// A fit and how well it matches its points.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub kind: FitKind,
    /// Grid coordinates to image pixels, row-major (for `Background::grid_to_image`).
    pub grid_to_image: Matrix,
    /// Each point's distance in pixels between where the fit puts it and where it was clicked,
    /// in the order given.
    pub residuals_px: Vec<f64>,
    /// The root mean square of the residuals, in pixels.
    pub rms_px: f64,
}

fn kind_name(kind: FitKind) -> &'static str {
    match kind {
        FitKind::Similarity => "similarity",
        FitKind::Affine => "affine",
        FitKind::Projective => "projective",
    }
}

/// The fewest points a kind of fit needs.
pub fn min_points(kind: FitKind) -> usize {
    match kind {
        FitKind::Similarity => 2,
        FitKind::Affine => 3,
        FitKind::Projective => 4,
    }
}

/// The kind the clicks can start from when `kind` is asked: `kind` itself when there are
/// enough of them, else the richest simpler kind they allow (two clicks make a similarity,
/// three an affine map). The print's refinement then fits `kind` on the printed lines, so two
/// clicks are enough to start whatever kind is asked (issue 20).
pub fn start_kind(kind: FitKind, clicks: usize) -> FitKind {
    [kind, FitKind::Affine, FitKind::Similarity]
        .into_iter()
        .find(|k| min_points(*k) <= min_points(kind) && clicks >= min_points(*k))
        .unwrap_or(kind)
}

/// Fits grid → image over control points named by hex. Residuals follow the points' order.
pub fn calibrate(
    grid: &Grid,
    points: &[ControlPoint],
    kind: FitKind,
) -> Result<Fit, CalibrationError> {
    fit(kind, &pairs(grid, points)?)
}

/// A control point read as (grid centre, pixel), the form [`fit`] takes.
type Pair = ([f64; 2], [f64; 2]);

/// The control points as (grid centre, pixel) pairs, refusing a point that names no hex of
/// the grid or whose pixel is not a number (one reading for the fit and its check).
fn pairs(grid: &Grid, points: &[ControlPoint]) -> Result<Vec<Pair>, CalibrationError> {
    let mut pairs = Vec::with_capacity(points.len());
    for (index, point) in points.iter().enumerate() {
        let hex = grid
            .parse(point.hex.as_str())
            .map_err(|error| CalibrationError::BadPoint {
                index,
                message: error.to_string(),
            })?;
        if !(point.x.is_finite() && point.y.is_finite()) {
            return Err(CalibrationError::BadPoint {
                index,
                message: format!("pixel ({}, {}) is not a number", point.x, point.y),
            });
        }
        let [gx, gy] = grid.centre(hex);
        pairs.push(([f64::from(gx), f64::from(gy)], [point.x, point.y]));
    }
    Ok(pairs)
}

/// The same fit without one point (for "drop this point"): residuals are for the points that
/// remain, in order.
pub fn calibrate_without(
    grid: &Grid,
    points: &[ControlPoint],
    kind: FitKind,
    dropped: usize,
) -> Result<Fit, CalibrationError> {
    let kept: Vec<ControlPoint> = points
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != dropped)
        .map(|(_, p)| p.clone())
        .collect();
    calibrate(grid, &kept, kind)
}

/// Fits `(grid point, image point)` pairs.
pub fn fit(kind: FitKind, pairs: &[([f64; 2], [f64; 2])]) -> Result<Fit, CalibrationError> {
    let needed = min_points(kind);
    if pairs.len() < needed {
        return Err(CalibrationError::TooFewPoints {
            kind: kind_name(kind),
            needed,
            got: pairs.len(),
        });
    }
    let degenerate = || CalibrationError::Degenerate(kind_name(kind));
    let (t_grid, grid_n) = normalise(pairs.iter().map(|p| p.0)).ok_or_else(degenerate)?;
    let (t_image, image_n) = normalise(pairs.iter().map(|p| p.1)).ok_or_else(degenerate)?;
    let normalised: Vec<([f64; 2], [f64; 2])> = grid_n.into_iter().zip(image_n).collect();
    let h = match kind {
        FitKind::Similarity => fit_similarity(&normalised),
        FitKind::Affine => fit_affine(&normalised),
        FitKind::Projective => fit_projective(&normalised),
    }
    .ok_or_else(degenerate)?;
    let t_image_inv = invert(&t_image).ok_or_else(degenerate)?;
    let mut m = multiply(&t_image_inv, &multiply(&h, &t_grid));
    if m[8].abs() > 1e-12 {
        let w = m[8];
        m = m.map(|v| v / w);
    }
    if m.iter().any(|v| !v.is_finite()) || invert(&m).is_none() {
        return Err(degenerate());
    }
    let residuals_px: Vec<f64> = pairs
        .iter()
        .map(|(g, i)| {
            let p = apply(&m, *g);
            ((p[0] - i[0]).powi(2) + (p[1] - i[1]).powi(2)).sqrt()
        })
        .collect();
    let rms_px =
        (residuals_px.iter().map(|r| r * r).sum::<f64>() / residuals_px.len() as f64).sqrt();
    Ok(Fit {
        kind,
        grid_to_image: m,
        residuals_px,
        rms_px,
    })
}

mod check;
pub use check::*;

/// A similarity from the centre of the first hex (index 0, 0) and the centre of another hex,
/// both clicked on the scan: for maps without printed numbers.
pub fn from_two_centres(
    grid: &Grid,
    first_px: [f64; 2],
    other: HexIndex,
    other_px: [f64; 2],
) -> Result<Matrix, CalibrationError> {
    let g0 = grid.centre(HexIndex::new(0, 0));
    let g1 = grid.centre(other);
    let pairs = [
        ([f64::from(g0[0]), f64::from(g0[1])], first_px),
        ([f64::from(g1[0]), f64::from(g1[1])], other_px),
    ];
    fit(FitKind::Similarity, &pairs).map(|f| f.grid_to_image)
}

/// A fit without rotation from the centre of the first hex and the hex size: `hex_width_px` is
/// the distance between the centres of two neighbouring hexes (the width across the flats).
pub fn from_first_centre_and_size(
    first_px: [f64; 2],
    hex_width_px: f64,
) -> Result<Matrix, CalibrationError> {
    if !(hex_width_px.is_finite() && hex_width_px > 0.0) {
        return Err(CalibrationError::BadSize(hex_width_px));
    }
    let r = hex_width_px / 3f64.sqrt();
    Ok([r, 0.0, first_px[0], 0.0, r, first_px[1], 0.0, 0.0, 1.0])
}

/// Hartley normalisation: centroid to the origin, mean distance √2. Returns the transform and
/// the normalised points, or `None` when all points coincide.
fn normalise(points: impl Iterator<Item = [f64; 2]>) -> Option<(Matrix, Vec<[f64; 2]>)> {
    let points: Vec<[f64; 2]> = points.collect();
    let n = points.len() as f64;
    let cx = points.iter().map(|p| p[0]).sum::<f64>() / n;
    let cy = points.iter().map(|p| p[1]).sum::<f64>() / n;
    let mean = points
        .iter()
        .map(|p| ((p[0] - cx).powi(2) + (p[1] - cy).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    if !(mean.is_finite() && mean > 1e-9) {
        return None;
    }
    let s = 2f64.sqrt() / mean;
    let t = [s, 0.0, -s * cx, 0.0, s, -s * cy, 0.0, 0.0, 1.0];
    let out = points
        .iter()
        .map(|p| [(p[0] - cx) * s, (p[1] - cy) * s])
        .collect();
    Some((t, out))
}

fn fit_similarity(pairs: &[([f64; 2], [f64; 2])]) -> Option<Matrix> {
    let rows = pairs
        .iter()
        .flat_map(|&([x, y], [u, v])| [([x, -y, 1.0, 0.0], u), ([y, x, 0.0, 1.0], v)]);
    let p = least_squares_rows(4, rows)?;
    Some([p[0], -p[1], p[2], p[1], p[0], p[3], 0.0, 0.0, 1.0])
}

fn fit_affine(pairs: &[([f64; 2], [f64; 2])]) -> Option<Matrix> {
    let rows = pairs.iter().flat_map(|&([x, y], [u, v])| {
        [
            ([x, y, 1.0, 0.0, 0.0, 0.0], u),
            ([0.0, 0.0, 0.0, x, y, 1.0], v),
        ]
    });
    let p = least_squares_rows(6, rows)?;
    Some([p[0], p[1], p[2], p[3], p[4], p[5], 0.0, 0.0, 1.0])
}

fn fit_projective(pairs: &[([f64; 2], [f64; 2])]) -> Option<Matrix> {
    // DLT: the unit vector h minimising |A h|, the eigenvector of AᵀA of least eigenvalue.
    let mut ata = [[0.0f64; 9]; 9];
    for ([x, y], [u, v]) in pairs {
        let rows = [
            [*x, *y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, -u],
            [0.0, 0.0, 0.0, *x, *y, 1.0, -v * x, -v * y, -v],
        ];
        for row in rows {
            for i in 0..9 {
                for j in 0..9 {
                    ata[i][j] += row[i] * row[j];
                }
            }
        }
    }
    let (values, vectors) = jacobi_eigen(ata);
    let smallest = (0..9).min_by(|&a, &b| values[a].total_cmp(&values[b]))?;
    let mut h: Matrix = [0.0; 9];
    for (i, slot) in h.iter_mut().enumerate() {
        *slot = vectors[i][smallest];
    }
    // The second-smallest eigenvalue near zero too: the points do not fix the map.
    let mut sorted = values;
    sorted.sort_by(f64::total_cmp);
    if sorted[1].abs() < 1e-10 * sorted[8].abs().max(1e-300) {
        return None;
    }
    if h[8].abs() < 1e-12 {
        return Some(h);
    }
    let w = h[8];
    let h = h.map(|v| v / w);
    Some(refine_projective(h, pairs))
}

/// Gauss-Newton on the geometric error (normalised image units), from the DLT estimate; a
/// step is kept only when it lowers the error.
fn refine_projective(mut h: Matrix, pairs: &[([f64; 2], [f64; 2])]) -> Matrix {
    let cost = |h: &Matrix| -> f64 {
        pairs
            .iter()
            .map(|(g, i)| {
                let p = apply(h, *g);
                (p[0] - i[0]).powi(2) + (p[1] - i[1]).powi(2)
            })
            .sum()
    };
    let mut current = cost(&h);
    for _ in 0..20 {
        let w_of = |[x, y]: [f64; 2]| h[6] * x + h[7] * y + 1.0;
        if pairs.iter().any(|&(g, _)| w_of(g).abs() < 1e-12) {
            return h;
        }
        // The Jacobian's two rows a point, streamed into the solver (never held).
        let rows = pairs.iter().flat_map(|&([x, y], [u, v])| {
            let w = w_of([x, y]);
            let pu = (h[0] * x + h[1] * y + h[2]) / w;
            let pv = (h[3] * x + h[4] * y + h[5]) / w;
            [
                (
                    [
                        x / w,
                        y / w,
                        1.0 / w,
                        0.0,
                        0.0,
                        0.0,
                        -pu * x / w,
                        -pu * y / w,
                    ],
                    u - pu,
                ),
                (
                    [
                        0.0,
                        0.0,
                        0.0,
                        x / w,
                        y / w,
                        1.0 / w,
                        -pv * x / w,
                        -pv * y / w,
                    ],
                    v - pv,
                ),
            ]
        });
        let Some(delta) = least_squares_rows(8, rows) else {
            return h;
        };
        let mut next = h;
        for (slot, d) in next.iter_mut().zip(&delta) {
            *slot += d;
        }
        let next_cost = cost(&next);
        if next_cost.is_nan() || next_cost >= current {
            return h;
        }
        let improvement = current - next_cost;
        h = next;
        current = next_cost;
        // Relative to the error: a sum over more points is larger, and an absolute threshold
        // kept many points iterating to the last of the 20 steps (work growing faster than
        // the points).
        if improvement <= 1e-12 * current {
            break;
        }
    }
    h
}

/// Least squares `min |A x - b|` by QR, folding A's rows one at a time into the triangle `R`
/// with Givens rotations: time linear in the rows and memory only `R` (n × n), so thousands
/// of points cost the same per point as ten (a Householder pass over all rows walked the whole
/// matrix once per column and fell out of the cache). `None` when A is rank-deficient.
#[allow(clippy::needless_range_loop)] // Index arithmetic reads like the textbook.
pub(crate) fn least_squares<R: AsRef<[f64]>>(a: &[R], b: &[f64]) -> Option<Vec<f64>> {
    let n = a.first()?.as_ref().len();
    if a.len() < n || b.len() != a.len() || a.iter().any(|row| row.as_ref().len() != n) {
        return None;
    }
    least_squares_rows(n, a.iter().zip(b.iter().copied()))
}

/// [`least_squares`] of rows given one at a time (each `n` long, with its `b`), never held:
/// the fits stream their points' rows through it.
#[allow(clippy::needless_range_loop)] // Index arithmetic reads like the textbook.
fn least_squares_rows<R: AsRef<[f64]>>(
    n: usize,
    rows: impl Iterator<Item = (R, f64)>,
) -> Option<Vec<f64>> {
    let mut r = vec![0.0f64; n * n];
    let mut qy = vec![0.0f64; n];
    let mut w = vec![0.0f64; n];
    let mut scale = 0.0f64;
    let mut m = 0usize;
    for (row, bi) in rows {
        let row = row.as_ref();
        if row.len() != n {
            return None;
        }
        m += 1;
        w.copy_from_slice(row);
        scale = row.iter().fold(scale, |acc, v| acc.max(v.abs()));
        let mut yi = bi;
        for k in 0..n {
            let x = w[k];
            if x == 0.0 {
                continue;
            }
            let rkk = r[k * n + k];
            let h = rkk.hypot(x);
            let (c, s) = (rkk / h, x / h);
            for j in k..n {
                let (rj, wj) = (r[k * n + j], w[j]);
                r[k * n + j] = c * rj + s * wj;
                w[j] = c * wj - s * rj;
            }
            let t = qy[k];
            qy[k] = c * t + s * yi;
            yi = c * yi - s * t;
        }
    }
    if m < n || scale == 0.0 || !scale.is_finite() {
        return None;
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        if r[k * n + k].abs() <= 1e-12 * scale {
            return None;
        }
        let s: f64 = ((k + 1)..n).map(|j| r[k * n + j] * x[j]).sum();
        x[k] = (qy[k] - s) / r[k * n + k];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Eigenvalues and eigenvectors (as columns) of a symmetric 9×9 matrix, by cyclic Jacobi.
#[allow(clippy::needless_range_loop)] // Index arithmetic reads like the textbook.
fn jacobi_eigen(mut a: [[f64; 9]; 9]) -> ([f64; 9], [[f64; 9]; 9]) {
    let mut v = [[0.0f64; 9]; 9];
    for (i, row) in v.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for _sweep in 0..100 {
        let off: f64 = (0..9)
            .flat_map(|i| (0..9).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..8 {
            for q in (p + 1)..9 {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..9 {
                    let akp = a[k][p];
                    let akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for k in 0..9 {
                    let apk = a[p][k];
                    let aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for row in v.iter_mut() {
                    let vkp = row[p];
                    let vkq = row[q];
                    row[p] = c * vkp - s * vkq;
                    row[q] = s * vkp + c * vkq;
                }
            }
        }
    }
    let mut values = [0.0; 9];
    for (i, slot) in values.iter_mut().enumerate() {
        *slot = a[i][i];
    }
    (values, v)
}

#[cfg(test)]
mod tests;
