//! Calibration: the fit from grid coordinates to scan pixels. Least squares over control points
//! (hex centre → clicked pixel) for a similarity (4 parameters), an affine map (6) or a
//! projective map (8: normalised DLT, then Gauss-Newton on the pixel error), with each point's
//! residual and the RMS; and the two-click start for maps without printed numbers.

use bataille_schema::map::{ControlPoint, FitKind};
use bataille_schema::{Grid, HexIndex};

/// The fit's matrix and its algebra are what a map file's `background.grid_to_image` means, so
/// they live beside it in the schema (the editor shows a scan with them, without digitising).
pub use bataille_schema::fit::{Matrix, apply, invert, local_scale, multiply};

/// Why a fit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CalibrationError {
    #[error("a {kind} fit needs at least {needed} control points (got {got})")]
    TooFewPoints {
        kind: &'static str,
        needed: usize,
        got: usize,
    },
    #[error("control point {index}: {message}")]
    BadPoint { index: usize, message: String },
    #[error(
        "the control points do not fix a {0} fit (they coincide or lie on one line): spread them over the map"
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

/// Fits grid → image over control points named by hex. Residuals follow the points' order.
pub fn calibrate(
    grid: &Grid,
    points: &[ControlPoint],
    kind: FitKind,
) -> Result<Fit, CalibrationError> {
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
    fit(kind, &pairs)
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

/// A click that disagrees with the others.
#[derive(Debug, Clone, PartialEq)]
pub struct Suspect {
    /// The point's position in the list.
    pub index: usize,
    /// Its hex name as given.
    pub hex: String,
    /// How far, in pixels, it lies from where the fit over the other points puts its hex.
    pub distance_px: f64,
    /// The RMS of the fit without it, in pixels.
    pub rms_without_px: f64,
    /// How many points remain without it.
    pub others: usize,
}

impl Suspect {
    /// "0120 is 9.8 px from where the other five put it: re-click it or drop it".
    pub fn message(&self) -> String {
        format!(
            "{} is {:.1} px from where the other {} put it: re-click it or drop it",
            self.hex,
            self.distance_px,
            number_word(self.others)
        )
    }
}

/// A fit kind too simple for the scan: a richer one explains the clicks much better.
#[derive(Debug, Clone, PartialEq)]
pub struct KindAdvice {
    pub kind: FitKind,
    pub rms_px: f64,
    pub better: FitKind,
    pub better_rms_px: f64,
}

impl KindAdvice {
    pub fn message(&self) -> String {
        let why = match self.better {
            FitKind::Projective => {
                "the scan looks photographed at an angle (keystone): use the projective fit"
            }
            _ => "the sheet looks stretched unevenly: use the affine fit",
        };
        format!(
            "the {} fit leaves {:.1} px RMS where a {} fit leaves {:.1} px: {why}",
            kind_name(self.kind),
            self.rms_px,
            kind_name(self.better),
            self.better_rms_px
        )
    }
}

/// What checking a calibration found: a click that disagrees with the others, and whether the
/// fit kind is too simple for the scan.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CalibrationCheck {
    pub suspect: Option<Suspect>,
    pub kind_advice: Option<KindAdvice>,
}

impl CalibrationCheck {
    /// The warnings, one sentence each (empty when all is well).
    pub fn messages(&self) -> Vec<String> {
        self.suspect
            .iter()
            .map(Suspect::message)
            .chain(self.kind_advice.iter().map(KindAdvice::message))
            .collect()
    }
}

/// The RMS (px) under which the clicks left after dropping one are taken to agree: clicks are
/// good to a pixel or two.
pub const AGREE_PX: f64 = 2.5;

fn number_word(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// Checks a calibration: each point is left out in turn and the others fitted (a consensus
/// over the few clicks); the point whose removal leaves the others agreeing best (the smallest
/// sum of squared residuals), when they then agree to [`AGREE_PX`] and it lies well away from
/// where they put it (≥ 3 px + 4 × their RMS), is named. Then the fit
/// is compared with the richer kinds over the agreeing points: when one leaves a far smaller
/// RMS the kind is too simple (a keystoned scan fitted affine). Needs two points more than the
/// fit's minimum to name a point, one more to judge the kind; with fewer it finds nothing.
pub fn check(
    grid: &Grid,
    points: &[ControlPoint],
    kind: FitKind,
) -> Result<CalibrationCheck, CalibrationError> {
    let mut pairs = Vec::with_capacity(points.len());
    for (index, point) in points.iter().enumerate() {
        let hex = grid
            .parse(point.hex.as_str())
            .map_err(|error| CalibrationError::BadPoint {
                index,
                message: error.to_string(),
            })?;
        let [gx, gy] = grid.centre(hex);
        pairs.push(([f64::from(gx), f64::from(gy)], [point.x, point.y]));
    }
    let names: Vec<String> = points.iter().map(|p| p.hex.as_str().to_owned()).collect();
    Ok(check_pairs(kind, &names, &pairs))
}

/// [`check`] over `(grid point, image point)` pairs named by `names`.
pub fn check_pairs(
    kind: FitKind,
    names: &[String],
    pairs: &[([f64; 2], [f64; 2])],
) -> CalibrationCheck {
    let mut out = CalibrationCheck::default();
    let n = pairs.len();
    let mut kept: Vec<usize> = (0..n).collect();
    if n >= min_points(kind) + 2 {
        let mut trials = if n <= EXACT_LEAVE_ONE_OUT {
            leave_one_out_exact(kind, pairs)
        } else {
            leave_one_out(kind, pairs)
        };
        trials.sort_by(|a, b| a.2.total_cmp(&b.2));
        if let [(i, distance, rms), ..] = &trials[..]
            && *rms <= AGREE_PX
            && *distance >= 3.0 + 4.0 * rms
        {
            {
                out.suspect = Some(Suspect {
                    index: *i,
                    hex: names
                        .get(*i)
                        .cloned()
                        .unwrap_or_else(|| format!("#{}", i + 1)),
                    distance_px: *distance,
                    rms_without_px: *rms,
                    others: n - 1,
                });
                kept.retain(|j| j != i);
            }
        }
    }
    let agreeing: Vec<([f64; 2], [f64; 2])> = kept.iter().map(|&i| pairs[i]).collect();
    if let Ok(own) = fit(kind, &agreeing) {
        for better in [FitKind::Affine, FitKind::Projective] {
            if min_points(better) <= min_points(kind) || agreeing.len() <= min_points(better) {
                continue;
            }
            if let Ok(rich) = fit(better, &agreeing)
                && own.rms_px >= 1.5
                && rich.rms_px <= 0.5 * own.rms_px
            {
                out.kind_advice = Some(KindAdvice {
                    kind,
                    rms_px: own.rms_px,
                    better,
                    better_rms_px: rich.rms_px,
                });
                break;
            }
        }
    }
    out
}

/// Up to this many points, each is left out and the others fitted again (exact, and cheap);
/// beyond, the leave-one-out residuals come from the fit over all (linear in the points).
const EXACT_LEAVE_ONE_OUT: usize = 24;

/// For each point: its distance from the fit over the others, and that fit's RMS.
fn leave_one_out_exact(kind: FitKind, pairs: &[([f64; 2], [f64; 2])]) -> Vec<(usize, f64, f64)> {
    let mut trials = Vec::new();
    for i in 0..pairs.len() {
        let others: Vec<([f64; 2], [f64; 2])> = pairs
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| *p)
            .collect();
        if let Ok(f) = fit(kind, &others) {
            let p = apply(&f.grid_to_image, pairs[i].0);
            let d = ((p[0] - pairs[i].1[0]).powi(2) + (p[1] - pairs[i].1[1]).powi(2)).sqrt();
            trials.push((i, d, f.rms_px));
        }
    }
    trials
}

/// [`leave_one_out_exact`] from one fit over all the points, in time linear in their number:
/// with `J` the fit's Jacobian (two rows a point), `C = (JᵀJ)⁻¹` and a point's 2 × 2 block of the
/// hat matrix `Hᵢ = Jᵢ C Jᵢᵀ`, the point's residual from the fit without it is
/// `(I − Hᵢ)⁻¹ eᵢ` and the others' sum of squares `SSE − eᵢᵀ (I − Hᵢ)⁻¹ eᵢ` (exact for the
/// similarity and affine fits, to first order for the projective one).
fn leave_one_out(kind: FitKind, pairs: &[([f64; 2], [f64; 2])]) -> Vec<(usize, f64, f64)> {
    let Ok(all) = fit(kind, pairs) else {
        return Vec::new();
    };
    let Some((t_grid, grid_n)) = normalise(pairs.iter().map(|p| p.0)) else {
        return Vec::new();
    };
    let m = &all.grid_to_image;
    // The fit as a function of its parameters over normalised grid points: m ∘ T⁻¹.
    let Some(t_inv) = invert(&t_grid) else {
        return Vec::new();
    };
    let mut h = multiply(m, &t_inv);
    let w8 = h[8];
    h = h.map(|v| v / w8);
    let rows = |g: [f64; 2]| -> [Vec<f64>; 2] {
        let [x, y] = g;
        match kind {
            FitKind::Similarity => [vec![x, -y, 1.0, 0.0], vec![y, x, 0.0, 1.0]],
            FitKind::Affine => [
                vec![x, y, 1.0, 0.0, 0.0, 0.0],
                vec![0.0, 0.0, 0.0, x, y, 1.0],
            ],
            FitKind::Projective => {
                let w = h[6] * x + h[7] * y + 1.0;
                let p = apply(&h, g);
                [
                    vec![
                        x / w,
                        y / w,
                        1.0 / w,
                        0.0,
                        0.0,
                        0.0,
                        -p[0] * x / w,
                        -p[0] * y / w,
                    ],
                    vec![
                        0.0,
                        0.0,
                        0.0,
                        x / w,
                        y / w,
                        1.0 / w,
                        -p[1] * x / w,
                        -p[1] * y / w,
                    ],
                ]
            }
        }
    };
    let k = match kind {
        FitKind::Similarity => 4,
        FitKind::Affine => 6,
        FitKind::Projective => 8,
    };
    // JᵀJ, then its inverse by solving against the identity.
    let mut jtj = vec![vec![0.0; k]; k];
    for g in &grid_n {
        for row in rows(*g) {
            for a in 0..k {
                for b in 0..k {
                    jtj[a][b] += row[a] * row[b];
                }
            }
        }
    }
    let mut c = vec![vec![0.0; k]; k];
    for col in 0..k {
        let mut unit = vec![0.0; k];
        unit[col] = 1.0;
        let Some(x) = least_squares(&jtj, &unit) else {
            return Vec::new();
        };
        for (row, v) in x.into_iter().enumerate() {
            c[row][col] = v;
        }
    }
    let sse: f64 = all.residuals_px.iter().map(|r| r * r).sum();
    let n = pairs.len();
    let mut trials = Vec::with_capacity(n);
    for (i, g) in grid_n.iter().enumerate() {
        let [r0, r1] = rows(*g);
        let quad = |a: &[f64], b: &[f64]| -> f64 {
            (0..k)
                .map(|p| a[p] * (0..k).map(|q| c[p][q] * b[q]).sum::<f64>())
                .sum()
        };
        let hat = [
            [quad(&r0, &r0), quad(&r0, &r1)],
            [quad(&r1, &r0), quad(&r1, &r1)],
        ];
        let a = [[1.0 - hat[0][0], -hat[0][1]], [-hat[1][0], 1.0 - hat[1][1]]];
        let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
        if det.abs() < 1e-12 {
            continue;
        }
        let inv = [
            [a[1][1] / det, -a[0][1] / det],
            [-a[1][0] / det, a[0][0] / det],
        ];
        let p = apply(m, pairs[i].0);
        let e = [pairs[i].1[0] - p[0], pairs[i].1[1] - p[1]];
        let out = [
            inv[0][0] * e[0] + inv[0][1] * e[1],
            inv[1][0] * e[0] + inv[1][1] * e[1],
        ];
        let d = out[0].hypot(out[1]);
        let others = (sse - (e[0] * out[0] + e[1] * out[1])).max(0.0);
        trials.push((i, d, (others / (n - 1) as f64).sqrt()));
    }
    trials
}

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
    let mut a = Vec::new();
    let mut b = Vec::new();
    for ([x, y], [u, v]) in pairs {
        a.push(vec![*x, -*y, 1.0, 0.0]);
        b.push(*u);
        a.push(vec![*y, *x, 0.0, 1.0]);
        b.push(*v);
    }
    let p = least_squares(&a, &b)?;
    Some([p[0], -p[1], p[2], p[1], p[0], p[3], 0.0, 0.0, 1.0])
}

fn fit_affine(pairs: &[([f64; 2], [f64; 2])]) -> Option<Matrix> {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for ([x, y], [u, v]) in pairs {
        a.push(vec![*x, *y, 1.0, 0.0, 0.0, 0.0]);
        b.push(*u);
        a.push(vec![0.0, 0.0, 0.0, *x, *y, 1.0]);
        b.push(*v);
    }
    let p = least_squares(&a, &b)?;
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
        let mut a = Vec::with_capacity(pairs.len() * 2);
        let mut b = Vec::with_capacity(pairs.len() * 2);
        for ([x, y], [u, v]) in pairs {
            let w = h[6] * x + h[7] * y + 1.0;
            if w.abs() < 1e-12 {
                return h;
            }
            let pu = (h[0] * x + h[1] * y + h[2]) / w;
            let pv = (h[3] * x + h[4] * y + h[5]) / w;
            a.push(vec![
                x / w,
                y / w,
                1.0 / w,
                0.0,
                0.0,
                0.0,
                -pu * x / w,
                -pu * y / w,
            ]);
            b.push(u - pu);
            a.push(vec![
                0.0,
                0.0,
                0.0,
                x / w,
                y / w,
                1.0 / w,
                -pv * x / w,
                -pv * y / w,
            ]);
            b.push(v - pv);
        }
        let Some(delta) = least_squares(&a, &b) else {
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
        if improvement < 1e-15 {
            break;
        }
    }
    h
}

/// Least squares `min |A x - b|` by Householder QR; `None` when A is rank-deficient.
#[allow(clippy::needless_range_loop)] // Index arithmetic reads like the textbook.
pub(crate) fn least_squares(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let m = a.len();
    let n = a.first()?.len();
    if m < n {
        return None;
    }
    let mut r: Vec<Vec<f64>> = a.to_vec();
    let mut y = b.to_vec();
    let scale = r
        .iter()
        .flat_map(|row| row.iter())
        .fold(0.0f64, |acc, v| acc.max(v.abs()));
    if scale == 0.0 {
        return None;
    }
    for k in 0..n {
        let norm = (k..m).map(|i| r[i][k] * r[i][k]).sum::<f64>().sqrt();
        if norm <= 1e-12 * scale {
            return None;
        }
        let alpha = if r[k][k] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (k..m).map(|i| r[i][k]).collect();
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|x| x * x).sum();
        if vnorm2 == 0.0 {
            continue;
        }
        for j in k..n {
            let dot: f64 = (k..m).map(|i| v[i - k] * r[i][j]).sum();
            let f = 2.0 * dot / vnorm2;
            for i in k..m {
                r[i][j] -= f * v[i - k];
            }
        }
        let dot: f64 = (k..m).map(|i| v[i - k] * y[i]).sum();
        let f = 2.0 * dot / vnorm2;
        for i in k..m {
            y[i] -= f * v[i - k];
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let s: f64 = ((k + 1)..n).map(|j| r[k][j] * x[j]).sum();
        if r[k][k].abs() <= 1e-12 * scale {
            return None;
        }
        x[k] = (y[k] - s) / r[k][k];
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
mod tests {
    use super::*;

    fn points(m: &Matrix) -> Vec<([f64; 2], [f64; 2])> {
        let grid = [
            [0.0, 0.0],
            [9.0, 1.0],
            [1.5, 12.0],
            [14.0, 10.0],
            [6.0, 5.0],
            [3.0, 8.0],
        ];
        grid.iter().map(|g| (*g, apply(m, *g))).collect()
    }

    #[test]
    fn recovers_exact_maps() {
        let (s, c) = (
            30f64.to_radians().sin() * 40.0,
            30f64.to_radians().cos() * 40.0,
        );
        let similarity = [c, -s, 100.0, s, c, 50.0, 0.0, 0.0, 1.0];
        let affine = [31.0, 4.0, 12.0, -3.0, 29.0, 80.0, 0.0, 0.0, 1.0];
        let projective = [31.0, 4.0, 12.0, -3.0, 29.0, 80.0, 0.002, -0.001, 1.0];
        for (kind, m) in [
            (FitKind::Similarity, similarity),
            (FitKind::Affine, affine),
            (FitKind::Projective, projective),
        ] {
            let fit = fit(kind, &points(&m)).unwrap();
            assert!(fit.rms_px < 1e-6, "{kind:?}: {}", fit.rms_px);
            for (a, b) in fit.grid_to_image.iter().zip(&m) {
                assert!(
                    (a - b).abs() < 1e-6 * b.abs().max(1.0),
                    "{kind:?}: {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn residuals_show_a_bad_point() {
        let m = [30.0, 0.0, 10.0, 0.0, 30.0, 20.0, 0.0, 0.0, 1.0];
        let mut pairs: Vec<([f64; 2], [f64; 2])> = (0..12)
            .map(|i| {
                let g = [f64::from(i % 4) * 4.0, f64::from(i / 4) * 5.0];
                (g, apply(&m, g))
            })
            .collect();
        pairs[2].1[0] += 20.0;
        pairs[2].1[1] -= 10.0;
        let fit = fit(FitKind::Affine, &pairs).unwrap();
        let worst = (0..pairs.len())
            .max_by(|&a, &b| fit.residuals_px[a].total_cmp(&fit.residuals_px[b]))
            .unwrap();
        assert_eq!(worst, 2);
        pairs.remove(2);
        assert!(super::fit(FitKind::Affine, &pairs).unwrap().rms_px < 1e-6);
    }

    /// Six clicks spread over a 32 × 20 map at about 40 px per hex radius, each jittered by
    /// under a pixel.
    fn clicks(m: &Matrix) -> Vec<([f64; 2], [f64; 2])> {
        let grid = [
            [1.5, 2.6],
            [45.0, 2.6],
            [1.5, 33.0],
            [45.0, 33.0],
            [24.0, 17.3],
            [15.0, 28.6],
        ];
        let jitter = [
            [0.4, -0.3],
            [-0.5, 0.2],
            [0.3, 0.6],
            [-0.2, -0.5],
            [0.6, 0.1],
            [-0.4, 0.4],
        ];
        grid.iter()
            .zip(jitter)
            .map(|(g, j)| {
                let p = apply(m, *g);
                (*g, [p[0] + j[0], p[1] + j[1]])
            })
            .collect()
    }

    fn names() -> Vec<String> {
        ["0102", "3102", "0120", "3120", "1610", "1117"]
            .map(str::to_owned)
            .to_vec()
    }

    #[test]
    fn a_wrong_click_among_six_is_named_for_affine_and_projective_fits() {
        let affine = [40.0, 1.5, 90.0, -1.2, 39.0, 70.0, 0.0, 0.0, 1.0];
        let keystoned = [40.0, 1.5, 90.0, -1.2, 39.0, 70.0, 0.0, -0.0012, 1.0];
        for (kind, m) in [(FitKind::Affine, affine), (FitKind::Projective, keystoned)] {
            for bad in 0..6 {
                let mut pairs = clicks(&m);
                pairs[bad].1[0] += 7.0;
                pairs[bad].1[1] -= 7.0;
                let checked = check_pairs(kind, &names(), &pairs);
                let suspect = checked
                    .suspect
                    .as_ref()
                    .unwrap_or_else(|| panic!("{kind:?}, point {bad}: none named"));
                assert_eq!(suspect.index, bad, "{kind:?}");
                assert!(suspect.distance_px > 3.0, "{suspect:?}");
                let message = suspect.message();
                assert!(
                    message.starts_with(&format!("{} is ", names()[bad]))
                        && message
                            .ends_with("from where the other five put it: re-click it or drop it"),
                    "{message}"
                );
            }
            // All six right: nothing to say.
            assert_eq!(
                check_pairs(kind, &names(), &clicks(&m)),
                CalibrationCheck::default(),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn leave_one_out_from_one_fit_agrees_with_refitting() {
        // Forty clicks with sub-pixel jitter and one 9 px off: the linear-time residuals and
        // RMS without each point match refitting without it (exactly for the linear fits, to
        // first order for the projective one), and the check names the same point.
        let keystoned = [40.0, 1.5, 90.0, -1.2, 39.0, 70.0, 0.0, -0.0012, 1.0];
        let mut rng = crate::synth::Rng::new(7);
        let mut pairs: Vec<([f64; 2], [f64; 2])> = (0..40)
            .map(|i| {
                let g = [f64::from(i % 8) * 6.0 + 0.5, f64::from(i / 8) * 7.0 + 0.3];
                let p = apply(&keystoned, g);
                (
                    g,
                    [p[0] + rng.range(-0.7, 0.7), p[1] + rng.range(-0.7, 0.7)],
                )
            })
            .collect();
        pairs[13].1[0] += 9.0;
        for (kind, tolerance) in [
            (FitKind::Similarity, 1e-6),
            (FitKind::Affine, 1e-6),
            (FitKind::Projective, 0.05),
        ] {
            let exact = leave_one_out_exact(kind, &pairs);
            let fast = leave_one_out(kind, &pairs);
            assert_eq!(exact.len(), fast.len(), "{kind:?}");
            for (a, b) in exact.iter().zip(&fast) {
                assert_eq!(a.0, b.0);
                assert!(
                    (a.1 - b.1).abs() < tolerance * a.1.max(1.0),
                    "{kind:?}: {a:?} {b:?}"
                );
                assert!(
                    (a.2 - b.2).abs() < tolerance * a.2.max(1.0),
                    "{kind:?}: {a:?} {b:?}"
                );
            }
        }
        let names: Vec<String> = (0..40).map(|i| format!("{i}")).collect();
        let checked = check_pairs(FitKind::Projective, &names, &pairs);
        assert_eq!(checked.suspect.map(|s| s.index), Some(13));
    }

    #[test]
    fn a_keystoned_scan_fitted_affine_is_told_to_use_the_projective_fit() {
        // The far edge 6 % narrower: a photographed sheet.
        let keystoned = [40.0, 0.0, 90.0, 0.0, 39.0, 70.0, 0.0, -0.0017, 1.0];
        let checked = check_pairs(FitKind::Affine, &names(), &clicks(&keystoned));
        assert_eq!(checked.suspect, None);
        let advice = checked.kind_advice.expect("advice");
        assert_eq!(advice.better, FitKind::Projective);
        assert!(
            advice.message().contains("use the projective fit"),
            "{}",
            advice.message()
        );
        let checked = check_pairs(FitKind::Projective, &names(), &clicks(&keystoned));
        assert_eq!(checked, CalibrationCheck::default());
    }

    #[test]
    fn too_few_or_degenerate_points_are_refused() {
        let pairs = [
            ([0.0, 0.0], [1.0, 1.0]),
            ([1.0, 0.0], [2.0, 1.0]),
            ([2.0, 0.0], [3.0, 1.0]),
        ];
        assert!(matches!(
            fit(FitKind::Projective, &pairs),
            Err(CalibrationError::TooFewPoints {
                needed: 4,
                got: 3,
                ..
            })
        ));
        // Three points on a line do not fix an affine map.
        assert!(matches!(
            fit(FitKind::Affine, &pairs),
            Err(CalibrationError::Degenerate(_))
        ));
        let same = [([1.0, 1.0], [5.0, 5.0]); 4];
        assert!(fit(FitKind::Similarity, &same).is_err());
    }

    #[test]
    fn two_clicks_and_hex_size() {
        let m = from_first_centre_and_size([10.0, 20.0], 3f64.sqrt() * 30.0).unwrap();
        assert_eq!(apply(&m, [0.0, 0.0]), [10.0, 20.0]);
        assert!((apply(&m, [1.0, 0.0])[0] - 40.0).abs() < 1e-9);
        assert!(from_first_centre_and_size([0.0, 0.0], -1.0).is_err());
    }
}
