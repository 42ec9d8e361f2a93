//! The print calibrates the grid: a fit from a few clicks is refined against the grid lines
//! printed on the sheet. Each hexside's printed line is looked for across the side where the
//! current fit puts it (a colour ridge: the line differs from the paper on both sides of it),
//! at sub-pixel precision, over the whole sheet; the fit (affine, or projective for a
//! photographed sheet) is then the one that puts every side on its printed line, by robust
//! least squares (lines hidden by a river, a label or a symbol are outvoted). Where the paper
//! is not flat (a scan's bow, a lens) a smooth correction field — bilinear over a coarse lattice
//! of the grid, kept only when it predicts held-out lines better — takes up what is left.
//!
//! The clicks only start it: the search grows from the clicked hexes outwards (so a start that
//! is good only near the clicks still finds the right line everywhere), and the result does not
//! depend on which pixel of a hex centre the user clicked. A click is then judged against the
//! print, not against the other clicks. A sheet with no printed lines (a dots-only grid, a photo
//! too blurred to show them) is told apart: [`refine`] returns [`RefineError::NoPrintedLines`]
//! and the clicks' fit stands.

use bataille_schema::geometry::sides;
use bataille_schema::map::FitKind;
use bataille_schema::{Grid, HexIndex};

use crate::calibrate::{Matrix, apply, invert, least_squares, local_scale, multiply};
use crate::colour::{Lab, delta_e, srgb_to_lab};
use crate::scan::Scan;

/// Half the window searched across a side on the first rounds, in hex radii: a neighbouring
/// parallel line is over 1.5 radii away in the middle of the side.
const FIRST_WINDOW: f64 = 0.42;
/// Half the stretch of the side sampled along it (hex radii; a side is 1 long): its middle,
/// clear of the corners where other lines meet.
const HALF_ALONG: f64 = 0.25;
/// A line is found when its ridge is at least this share of the map's typical ridge.
const WEAK: f32 = 0.35;
/// …and at least this ΔE from the paper on both sides.
const MIN_RIDGE: f32 = 4.0;
/// The share of the sides probed that must show a line for the sheet to count as printed.
const PRINTED_SHARE: f64 = 0.3;
/// The most sides measured in a round while the search grows from the clicks.
const GROWING_SIDES: usize = 3000;
/// Tukey's biweight constant, in robust standard deviations.
const TUKEY: f64 = 4.685;

/// Why the print could not refine the fit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RefineError {
    #[error(
        "no printed grid lines found ({found} of {probed} hexsides show one): the clicks' fit is kept"
    )]
    NoPrintedLines { found: usize, probed: usize },
    #[error("the grid could not be fitted to the printed lines")]
    Degenerate,
}

/// A smooth correction added to the fit, in image pixels: bilinear over a lattice of nodes
/// laid over grid space.
#[derive(Debug, Clone, PartialEq)]
pub struct Warp {
    /// The grid-space point of node (0, 0).
    pub origin: [f64; 2],
    /// The lattice's spacing in grid units (hex radii).
    pub cell: f64,
    pub columns: usize,
    pub rows: usize,
    /// Each node's displacement in image pixels, row-major.
    pub nodes: Vec<[f64; 2]>,
}

impl Warp {
    /// The nodes and weights of a grid point's bilinear cell (clamped to the lattice).
    fn weights(&self, p: [f64; 2]) -> [(usize, f64); 4] {
        let fx = ((p[0] - self.origin[0]) / self.cell).clamp(0.0, (self.columns - 1) as f64);
        let fy = ((p[1] - self.origin[1]) / self.cell).clamp(0.0, (self.rows - 1) as f64);
        let i = (fx.floor() as usize).min(self.columns.saturating_sub(2));
        let j = (fy.floor() as usize).min(self.rows.saturating_sub(2));
        let (u, v) = (fx - i as f64, fy - j as f64);
        let at = |a: usize, b: usize| b * self.columns + a;
        [
            (at(i, j), (1.0 - u) * (1.0 - v)),
            (at(i + 1, j), u * (1.0 - v)),
            (at(i, j + 1), (1.0 - u) * v),
            (at(i + 1, j + 1), u * v),
        ]
    }

    /// The displacement (image pixels) at a grid point.
    pub fn displacement(&self, p: [f64; 2]) -> [f64; 2] {
        let mut out = [0.0; 2];
        for (k, w) in self.weights(p) {
            out[0] += w * self.nodes[k][0];
            out[1] += w * self.nodes[k][1];
        }
        out
    }

    /// The largest displacement of any node, in pixels.
    pub fn largest_px(&self) -> f64 {
        self.nodes
            .iter()
            .map(|d| d[0].hypot(d[1]))
            .fold(0.0, f64::max)
    }
}

/// A fit refined on the print: a global matrix and, where the paper is not flat, a smooth
/// correction.
#[derive(Debug, Clone, PartialEq)]
pub struct Refinement {
    /// The kind of the global fit (affine at least: the print fixes it from two clicks).
    pub kind: FitKind,
    /// The global fit over the printed lines.
    pub grid_to_image: Matrix,
    /// The local correction, when the paper is not flat enough for the global fit alone.
    pub warp: Option<Warp>,
    /// Hexsides whose printed line was found and agrees with the fit, and hexsides probed.
    pub lines_found: usize,
    pub sides_probed: usize,
    /// The RMS distance (px) of the found lines from where the refined grid puts them.
    pub rms_px: f64,
    /// The same for the global fit alone.
    pub global_rms_px: f64,
    /// Per hex (row-major, as `Grid::indices`): how many of its sides show a printed line
    /// near where the refined grid puts it, and how many were probed (on the scan).
    pub printed_sides: Vec<(u8, u8)>,
}

impl Refinement {
    /// Where the refined grid puts a grid point, in image pixels.
    pub fn map(&self, p: [f64; 2]) -> [f64; 2] {
        let q = apply(&self.grid_to_image, p);
        match &self.warp {
            Some(w) => {
                let d = w.displacement(p);
                [q[0] + d[0], q[1] + d[1]]
            }
            None => q,
        }
    }

    /// Where the refined grid puts a hex's centre.
    pub fn centre(&self, grid: &Grid, index: HexIndex) -> [f64; 2] {
        let [x, y] = grid.centre(index);
        self.map([f64::from(x), f64::from(y)])
    }

    /// A matrix good near a grid point: the global fit shifted by the correction there (the
    /// correction is smooth, so over one hex it is a shift).
    pub fn local_matrix(&self, p: [f64; 2]) -> Matrix {
        local_matrix(&self.grid_to_image, self.warp.as_ref(), p)
    }
}

fn local_matrix(m: &Matrix, warp: Option<&Warp>, p: [f64; 2]) -> Matrix {
    match warp {
        Some(w) => {
            let d = w.displacement(p);
            multiply(&[1.0, 0.0, d[0], 0.0, 1.0, d[1], 0.0, 0.0, 1.0], m)
        }
        None => *m,
    }
}

/// How a click compares with the print.
#[derive(Debug, Clone, PartialEq)]
pub struct ClickCheck {
    pub hex: String,
    /// Its distance in pixels from where the print puts its hex's centre.
    pub distance_px: f64,
    /// Whether it disagrees with the print (over [`suspect_px`]).
    pub suspect: bool,
}

impl ClickCheck {
    /// "0120 is 9.8 px from the centre the printed grid lines give it: re-click it or drop it".
    pub fn message(&self) -> String {
        format!(
            "{} is {:.1} px from the centre the printed grid lines give it: re-click it or drop it",
            self.hex, self.distance_px
        )
    }
}

/// The distance from the printed centre over which a click is suspect: 4 px, or an eighth of
/// the hex radius on large scans (a click is good to a pixel or two).
pub fn suspect_px(px_per_radius: f64) -> f64 {
    (0.125 * px_per_radius).max(4.0)
}

/// Compares clicks `(hex name, grid point, pixel)` with the refined grid.
pub fn check_clicks(
    refinement: &Refinement,
    clicks: &[(String, [f64; 2], [f64; 2])],
) -> Vec<ClickCheck> {
    clicks
        .iter()
        .map(|(hex, g, px)| {
            let p = refinement.map(*g);
            let distance_px = (p[0] - px[0]).hypot(p[1] - px[1]);
            let scale = local_scale(&refinement.grid_to_image, *g);
            ClickCheck {
                hex: hex.clone(),
                distance_px,
                suspect: distance_px > suspect_px(scale),
            }
        })
        .collect()
}

/// One hexside of the grid: its middle and direction in grid space.
#[derive(Debug, Clone, Copy)]
struct SideGeometry {
    /// The hex (index into `Grid::indices`) and the neighbour across, if on the map.
    hex: usize,
    other: Option<usize>,
    mid: [f64; 2],
    along: [f64; 2],
}

fn side_geometry(grid: &Grid) -> Vec<SideGeometry> {
    let columns = grid.columns as usize;
    let slot = |i: HexIndex| i.row as usize * columns + i.col as usize;
    let mut out = Vec::with_capacity(grid.hex_count() * 3 + 64);
    for index in grid.indices() {
        for side in sides(grid.orientation) {
            if grid.canonical_hexside(index, side) != (index, side) {
                continue;
            }
            let Some([a, b]) = grid.side_corners(index, side) else {
                continue;
            };
            let [a, b] = [a, b].map(|p| [f64::from(p[0]), f64::from(p[1])]);
            out.push(SideGeometry {
                hex: slot(index),
                other: grid.neighbour(index, side).map(slot),
                mid: [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0],
                along: [b[0] - a[0], b[1] - a[1]],
            });
        }
    }
    out
}

/// A printed line found across a side.
#[derive(Debug, Clone, Copy)]
struct Observation {
    side: usize,
    /// The side's middle in grid space.
    grid: [f64; 2],
    /// The unit normal across the side in the image.
    normal: [f64; 2],
    /// A point of the printed line in the image.
    found: [f64; 2],
    ridge: f32,
}

/// The colour of the scan at a point, bilinear between pixel centres.
fn bilinear(scan: &Scan, x: f64, y: f64) -> Option<[f32; 3]> {
    let (w, h) = (scan.width() as f64, scan.height() as f64);
    if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
        return None;
    }
    let fx = (x - 0.5).clamp(0.0, w - 1.0);
    let fy = (y - 0.5).clamp(0.0, h - 1.0);
    let (i, j) = (fx.floor(), fy.floor());
    let (u, v) = ((fx - i) as f32, (fy - j) as f32);
    let (i, j) = (i as u32, j as u32);
    let i1 = (i + 1).min(scan.width() - 1);
    let j1 = (j + 1).min(scan.height() - 1);
    let px = |a: u32, b: u32| scan.image.get_pixel(a, b).0.map(f32::from);
    let (p00, p10, p01, p11) = (px(i, j), px(i1, j), px(i, j1), px(i1, j1));
    let mut out = [0.0; 3];
    for c in 0..3 {
        out[c] = (1.0 - u) * (1.0 - v) * p00[c]
            + u * (1.0 - v) * p10[c]
            + (1.0 - u) * v * p01[c]
            + u * v * p11[c];
    }
    Some(out)
}

/// Looks for the printed line across one side: the profile across it (averaged along its
/// middle), and the strongest colour ridge in it — a stretch that differs from the paper at
/// `gap` on both sides. Returns the line's offset along `normal` (px) and the ridge's ΔE.
fn find_line(
    scan: &Scan,
    centre: [f64; 2],
    tangent: [f64; 2],
    normal: [f64; 2],
    half_along_px: f64,
    window_px: f64,
    gap_px: f64,
) -> Option<(f64, f32)> {
    let step = (window_px / 60.0).max(0.5);
    let n = (window_px / step).ceil() as i64;
    let along_n = ((2.0 * half_along_px).ceil() as i64).clamp(3, 24);
    let mut profile: Vec<Lab> = Vec::with_capacity((2 * n + 1) as usize);
    for k in -n..=n {
        let t = k as f64 * step;
        let mut sum = [0.0f32; 3];
        let mut count = 0.0f32;
        for s in 0..along_n {
            let u = -half_along_px + 2.0 * half_along_px * (s as f64 + 0.5) / along_n as f64;
            let x = centre[0] + tangent[0] * u + normal[0] * t;
            let y = centre[1] + tangent[1] * u + normal[1] * t;
            if let Some(c) = bilinear(scan, x, y) {
                for (a, b) in sum.iter_mut().zip(c) {
                    *a += b;
                }
                count += 1.0;
            }
        }
        if count < along_n as f32 * 0.5 {
            return None;
        }
        let rgb = sum.map(|v| (v / count).round().clamp(0.0, 255.0) as u8);
        profile.push(srgb_to_lab(rgb));
    }
    let g = ((gap_px / step).round() as usize).max(1);
    let len = profile.len();
    if len <= 2 * g + 2 {
        return None;
    }
    let mut ridge = vec![0.0f32; len];
    for k in g..len - g {
        let left = delta_e(profile[k], profile[k - g]);
        let right = delta_e(profile[k], profile[k + g]);
        ridge[k] = left.min(right);
    }
    let (best, peak) = ridge
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(k, v)| (k, *v))?;
    if peak <= 0.0 {
        return None;
    }
    // The centroid of the ridge above half its peak, around the peak: sub-pixel, and the
    // middle of a line wider than one sample.
    let half = 0.5 * peak;
    let (mut lo, mut hi) = (best, best);
    while lo > 0 && ridge[lo - 1] >= half {
        lo -= 1;
    }
    while hi + 1 < len && ridge[hi + 1] >= half {
        hi += 1;
    }
    let (mut sw, mut st) = (0.0f64, 0.0f64);
    for (k, r) in ridge.iter().enumerate().take(hi + 1).skip(lo) {
        let w = f64::from(r - half);
        sw += w;
        st += w * (k as f64 - n as f64) * step;
    }
    let offset = if sw > 0.0 {
        st / sw
    } else {
        (best as f64 - n as f64) * step
    };
    Some((offset, peak))
}

/// The current model: a matrix and, maybe, a correction.
#[derive(Debug, Clone)]
struct Model {
    m: Matrix,
    warp: Option<Warp>,
}

impl Model {
    fn map(&self, p: [f64; 2]) -> [f64; 2] {
        let q = apply(&self.m, p);
        match &self.warp {
            Some(w) => {
                let d = w.displacement(p);
                [q[0] + d[0], q[1] + d[1]]
            }
            None => q,
        }
    }
}

/// Measures the printed line across each of `chosen` sides where `model` puts it.
fn measure(
    scan: &Scan,
    geometry: &[SideGeometry],
    chosen: &[usize],
    model: &Model,
    window: impl Fn(f64) -> f64 + Sync,
) -> (Vec<Observation>, usize) {
    use rayon::prelude::*;
    let results: Vec<Option<Option<Observation>>> = chosen
        .par_iter()
        .map(|&s| {
            let g = &geometry[s];
            let a = model.map([g.mid[0] - g.along[0] * 0.5, g.mid[1] - g.along[1] * 0.5]);
            let b = model.map([g.mid[0] + g.along[0] * 0.5, g.mid[1] + g.along[1] * 0.5]);
            let c = model.map(g.mid);
            let length = (b[0] - a[0]).hypot(b[1] - a[1]);
            if !(length.is_finite() && length > 2.0) {
                return None;
            }
            let tangent = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
            let normal = [-tangent[1], tangent[0]];
            let window_px = window(length);
            let gap = (0.08 * length).clamp(2.0, 10.0);
            let w = f64::from(scan.width());
            let h = f64::from(scan.height());
            let reach = window_px + gap + 1.0;
            if c[0] < reach || c[1] < reach || c[0] > w - reach || c[1] > h - reach {
                return None;
            }
            Some(
                find_line(
                    scan,
                    c,
                    tangent,
                    normal,
                    HALF_ALONG * length,
                    window_px,
                    gap,
                )
                .map(|(offset, ridge)| Observation {
                    side: s,
                    grid: g.mid,
                    normal,
                    found: [c[0] + normal[0] * offset, c[1] + normal[1] * offset],
                    ridge,
                }),
            )
        })
        .collect();
    let probed = results.iter().filter(|r| r.is_some()).count();
    (results.into_iter().flatten().flatten().collect(), probed)
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    values.select_nth_unstable_by(mid, f64::total_cmp);
    values[mid]
}

/// The signed distance (px) of each observation's line from where `m` (and `warp`) put it.
fn line_residuals(obs: &[Observation], m: &Matrix, warp: Option<&Warp>) -> Vec<f64> {
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
fn tukey_weights(residuals: &[f64], floor: f64) -> (Vec<f64>, f64) {
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

fn params_of(kind: FitKind, h: &Matrix) -> Vec<f64> {
    match kind {
        FitKind::Similarity => vec![(h[0] + h[4]) / 2.0, (h[3] - h[1]) / 2.0, h[2], h[5]],
        FitKind::Affine => vec![h[0], h[1], h[2], h[3], h[4], h[5]],
        FitKind::Projective => h[..8].to_vec(),
    }
}

fn matrix_of(kind: FitKind, p: &[f64]) -> Matrix {
    match kind {
        FitKind::Similarity => [p[0], -p[1], p[2], p[1], p[0], p[3], 0.0, 0.0, 1.0],
        FitKind::Affine => [p[0], p[1], p[2], p[3], p[4], p[5], 0.0, 0.0, 1.0],
        FitKind::Projective => [p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], 1.0],
    }
}

/// The matrix of `kind` that best puts each observed side on its line (weighted least squares
/// of the distances across the sides, Gauss-Newton from `start`), with the observations'
/// targets shifted back by `warp` (the correction is fitted apart).
fn fit_lines(
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

/// Solves the symmetric positive definite system `a x = b` (Cholesky), or `None`.
fn solve_spd(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in (j + 1)..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in (i + 1)..n {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    Some(b)
}

/// The smooth correction that best explains what the global fit leaves across the sides
/// (`residuals`, px, weighted by `weights`), membrane-regularised, on a lattice with about
/// forty lines a cell.
fn fit_warp(
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
    let x = solve_spd(a, b, n)?;
    for (k, node) in warp.nodes.iter_mut().enumerate() {
        *node = [x[2 * k], x[2 * k + 1]];
    }
    Some(warp)
}

fn weighted_rms(residuals: &[f64], weights: &[f64]) -> f64 {
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
fn fit_model(
    kind: FitKind,
    obs: &[Observation],
    start: &Model,
    with_warp: bool,
    bounds: ([f64; 2], [f64; 2]),
) -> Option<(Model, Vec<f64>, f64)> {
    let mut model = Model {
        m: start.m,
        warp: start.warp.clone(),
    };
    let mut weights = vec![1.0; obs.len()];
    let mut sigma = f64::INFINITY;
    for round in 0..6 {
        model.m = fit_lines(kind, obs, &weights, model.warp.as_ref(), &model.m)?;
        if with_warp && round >= 1 {
            let global = line_residuals(obs, &model.m, None);
            model.warp = choose_warp(obs, &global, &weights, bounds);
        }
        let residuals = line_residuals(obs, &model.m, model.warp.as_ref());
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
fn choose_warp(
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

fn line_residuals_after(obs: &[Observation], global: &[f64], warp: &Warp) -> Vec<f64> {
    obs.iter()
        .zip(global)
        .map(|(o, r)| {
            let d = warp.displacement(o.grid);
            r - (o.normal[0] * d[0] + o.normal[1] * d[1])
        })
        .collect()
}

/// Options of [`refine`].
#[derive(Debug, Clone, PartialEq)]
pub struct RefineOptions {
    /// Allow the smooth local correction (a scan's bow, a lens).
    pub local: bool,
}

impl Default for RefineOptions {
    fn default() -> Self {
        Self { local: true }
    }
}

/// Refines a fit against the printed grid lines. `start` is the clicks' fit (two clicks are
/// enough), `clicked` the grid points of the clicked hexes (the search grows from them),
/// `kind` the fit wanted (affine at least is used: the print fixes it).
pub fn refine(
    scan: &Scan,
    grid: &Grid,
    start: &Matrix,
    clicked: &[[f64; 2]],
    kind: FitKind,
    options: &RefineOptions,
) -> Result<Refinement, RefineError> {
    let kind = match kind {
        FitKind::Similarity => FitKind::Affine,
        other => other,
    };
    let geometry = side_geometry(grid);
    let (bmin, bmax) = grid.bounds();
    let bounds = (
        [f64::from(bmin[0]), f64::from(bmin[1])],
        [f64::from(bmax[0]), f64::from(bmax[1])],
    );
    let diagonal = (bounds.1[0] - bounds.0[0]).hypot(bounds.1[1] - bounds.0[1]);
    let seeds: Vec<[f64; 2]> = if clicked.is_empty() {
        vec![[
            (bounds.0[0] + bounds.1[0]) / 2.0,
            (bounds.0[1] + bounds.1[1]) / 2.0,
        ]]
    } else {
        clicked.to_vec()
    };
    let reach: Vec<f64> = geometry
        .iter()
        .map(|g| {
            seeds
                .iter()
                .map(|s| (g.mid[0] - s[0]).hypot(g.mid[1] - s[1]))
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    let mut model = Model {
        m: *start,
        warp: None,
    };
    // Grow from the clicks: each round doubles the reach, fitting affine until the whole map
    // is in, then two rounds over everything with the kind wanted and narrower windows.
    let mut radius = 6.0f64;
    let mut sigma = f64::INFINITY;
    let mut last: Option<(Vec<Observation>, Vec<f64>, usize)> = None;
    let mut finals = 0;
    while finals < 3 {
        let whole = radius >= diagonal + 2.0;
        let mut chosen: Vec<usize> = (0..geometry.len())
            .filter(|&s| reach[s] <= radius)
            .collect();
        // While growing, a few thousand sides spread over the reach fix an affine map as well
        // as all of them (a large sheet has tens of thousands).
        if !whole && chosen.len() > GROWING_SIDES {
            let step = chosen.len().div_ceil(GROWING_SIDES);
            chosen = chosen.into_iter().step_by(step).collect();
        }
        let narrow = finals > 0 && sigma.is_finite();
        let window = |length: f64| {
            if narrow {
                (6.0 * sigma + 2.0).clamp(3.0, FIRST_WINDOW * length)
            } else {
                FIRST_WINDOW * length
            }
        };
        let (obs, probed) = measure(scan, &geometry, &chosen, &model, window);
        let typical = median(obs.iter().map(|o| f64::from(o.ridge)).collect());
        let strong: Vec<Observation> = obs
            .into_iter()
            .filter(|o| f64::from(o.ridge) >= f64::from(WEAK) * typical && o.ridge >= MIN_RIDGE)
            .collect();
        if whole
            && finals == 0
            && (strong.len() < 12 || (strong.len() as f64) < PRINTED_SHARE * probed as f64)
        {
            return Err(RefineError::NoPrintedLines {
                found: strong.len(),
                probed,
            });
        }
        let round_kind = if whole { kind } else { FitKind::Affine };
        if strong.len() >= 12 {
            if let Some((next, weights, s)) =
                fit_model(round_kind, &strong, &model, whole && options.local, bounds)
            {
                model = next;
                sigma = s;
                last = Some((strong, weights, probed));
            } else if whole {
                return Err(RefineError::Degenerate);
            }
        }
        if whole {
            finals += 1;
        }
        radius *= 2.0;
    }
    let Some((obs, weights, probed)) = last else {
        return Err(RefineError::Degenerate);
    };
    let global = line_residuals(&obs, &model.m, None);
    let residuals = line_residuals(&obs, &model.m, model.warp.as_ref());
    let inlier: Vec<f64> = weights
        .iter()
        .map(|w| if *w > 0.0 { 1.0 } else { 0.0 })
        .collect();
    let found_limit = (3.0 * sigma).max(1.5);
    let mut printed = vec![(0u8, 0u8); grid.hex_count()];
    // A side agrees with the fit when its line is where the refined grid puts it; it shows
    // a printed line (for the map's shape) when a clear one is within the last window at all
    // (a river drawn over the grid line a few pixels off still shows the side is printed).
    let mut found_sides = vec![false; geometry.len()];
    let mut inked_sides = vec![false; geometry.len()];
    for (o, r) in obs.iter().zip(&residuals) {
        inked_sides[o.side] = true;
        if r.abs() <= found_limit {
            found_sides[o.side] = true;
        }
    }
    // Which sides were on the scan: the final model's middle well inside the image.
    let (w, h) = (f64::from(scan.width()), f64::from(scan.height()));
    for (s, g) in geometry.iter().enumerate() {
        let c = model.map(g.mid);
        if !(c[0] >= 0.0 && c[1] >= 0.0 && c[0] < w && c[1] < h) {
            continue;
        }
        for hex in std::iter::once(g.hex).chain(g.other) {
            printed[hex].1 = printed[hex].1.saturating_add(1);
            if inked_sides[s] {
                printed[hex].0 = printed[hex].0.saturating_add(1);
            }
        }
    }
    Ok(Refinement {
        kind,
        grid_to_image: model.m,
        lines_found: found_sides.iter().filter(|f| **f).count(),
        sides_probed: probed,
        rms_px: weighted_rms(&residuals, &inlier),
        global_rms_px: weighted_rms(&global, &inlier),
        warp: model.warp,
        printed_sides: printed,
    })
}

/// A calibration from clicks, refined on the print when it shows grid lines.
#[derive(Debug, Clone)]
pub struct Calibrated {
    /// The clicks' own fit (without a click the others outvote), as today.
    pub clicks_fit: crate::calibrate::Fit,
    /// The refinement on the print, or why there is none (then the clicks' fit stands).
    pub refinement: Result<Refinement, RefineError>,
    /// Each click against the print (empty without a refinement).
    pub clicks: Vec<ClickCheck>,
}

impl Calibrated {
    /// The matrix to use: the print's when there is one, the clicks' otherwise.
    pub fn grid_to_image(&self) -> Matrix {
        match &self.refinement {
            Ok(r) => r.grid_to_image,
            Err(_) => self.clicks_fit.grid_to_image,
        }
    }

    /// The kind of the matrix used.
    pub fn kind(&self) -> FitKind {
        match &self.refinement {
            Ok(r) => r.kind,
            Err(_) => self.clicks_fit.kind,
        }
    }
}

/// Fits the clicks (`kind`, or the richest kind they allow: two clicks make a similarity), a
/// click the others outvote left out of that start ([`crate::calibrate::check`]), then refines
/// on the print and judges each click against it.
pub fn calibrate_on_print(
    scan: &Scan,
    grid: &Grid,
    points: &[bataille_schema::map::ControlPoint],
    kind: FitKind,
    options: &RefineOptions,
) -> Result<Calibrated, crate::calibrate::CalibrationError> {
    use crate::calibrate::{calibrate, calibrate_without, check, min_points};
    let start_kind = [kind, FitKind::Affine, FitKind::Similarity]
        .into_iter()
        .find(|k| min_points(*k) <= min_points(kind) && points.len() >= min_points(*k))
        .unwrap_or(kind);
    let checked = check(grid, points, start_kind)?;
    let clicks_fit = match &checked.suspect {
        Some(s) => calibrate_without(grid, points, start_kind, s.index)?,
        None => calibrate(grid, points, start_kind)?,
    };
    let clicked: Vec<(String, [f64; 2], [f64; 2])> = points
        .iter()
        .filter_map(|p| {
            let index = grid.parse(p.hex.as_str()).ok()?;
            let [x, y] = grid.centre(index);
            Some((
                p.hex.as_str().to_owned(),
                [f64::from(x), f64::from(y)],
                [p.x, p.y],
            ))
        })
        .collect();
    let seeds: Vec<[f64; 2]> = clicked.iter().map(|c| c.1).collect();
    let refinement = refine(scan, grid, &clicks_fit.grid_to_image, &seeds, kind, options);
    let clicks = match &refinement {
        Ok(r) => check_clicks(r, &clicked),
        Err(_) => Vec::new(),
    };
    Ok(Calibrated {
        clicks_fit,
        refinement,
        clicks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::fit;
    use bataille_schema::map::{HexNaming, Orientation, Shifted};

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            columns: 14,
            rows: 10,
            hex_names: HexNaming::default(),
        }
    }

    /// A sheet of hex outlines (2 px dark lines on cream paper) under `m`, bent by `bend`
    /// (image pixels → displacement), with a blue line 4 px beside some sides (a river drawn
    /// beside the grid line) and dark labels over others.
    fn sheet(grid: &Grid, m: &Matrix, bend: &dyn Fn([f64; 2]) -> [f64; 2]) -> Scan {
        let (w, h) = (620u32, 560u32);
        let inverse = invert(m).unwrap();
        let apothem = 3f64.sqrt() / 2.0;
        let scale = local_scale(m, [5.0, 5.0]);
        let image = image::RgbImage::from_fn(w, h, |i, j| {
            let x = [f64::from(i) + 0.5, f64::from(j) + 0.5];
            let d = bend(x);
            let g = apply(&inverse, [x[0] - d[0], x[1] - d[1]]);
            let Some(hex) = grid.hex_at([g[0] as f32, g[1] as f32]) else {
                return image::Rgb([90, 90, 90]);
            };
            let [cx, cy] = grid.centre(hex);
            let (dx, dy) = (g[0] - f64::from(cx), g[1] - f64::from(cy));
            let mut edge = f64::INFINITY;
            for k in 0..6 {
                let a = (f64::from(k) * 60.0 + 30.0).to_radians();
                edge = edge.min(apothem - (dx * a.cos() + dy * a.sin()));
            }
            let px = edge * scale;
            if px < 1.0 {
                return image::Rgb([40, 35, 30]);
            }
            // A river 4 px inside the east sides of column 5's hexes.
            if hex.col == 5 && dx > 0.3 && (px - 5.0).abs() < 1.5 {
                return image::Rgb([40, 90, 200]);
            }
            // Labels: dark blocks over the middle of the north side of some hexes.
            if (hex.col + hex.row) % 7 == 0 && dy < -0.6 && dx.abs() < 0.3 {
                return image::Rgb([20, 20, 20]);
            }
            image::Rgb([235, 225, 195])
        });
        Scan { image }
    }

    fn centre_error(grid: &Grid, truth: &dyn Fn([f64; 2]) -> [f64; 2], r: &Refinement) -> f64 {
        grid.indices()
            .map(|i| {
                let [x, y] = grid.centre(i);
                let g = [f64::from(x), f64::from(y)];
                let (a, b) = (truth(g), r.map(g));
                (a[0] - b[0]).hypot(a[1] - b[1])
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn two_rough_clicks_are_refined_to_the_printed_grid_and_a_bad_click_is_named() {
        let grid = grid();
        let m = [24.0, 1.2, 40.0, -0.9, 23.5, 45.0, 0.0, 0.0, 1.0];
        let scan = sheet(&grid, &m, &|_| [0.0, 0.0]);
        let centre = |i: HexIndex| {
            let [x, y] = grid.centre(i);
            [f64::from(x), f64::from(y)]
        };
        // Two clicks 2 px off in opposite directions: the similarity from them is several px
        // off at the far corners.
        let (a, b) = (centre(HexIndex::new(1, 1)), centre(HexIndex::new(4, 3)));
        let pa = apply(&m, a);
        let pb = apply(&m, b);
        let start = fit(
            FitKind::Similarity,
            &[
                (a, [pa[0] + 2.0, pa[1] - 2.0]),
                (b, [pb[0] - 2.0, pb[1] + 2.0]),
            ],
        )
        .unwrap();
        let before = grid
            .indices()
            .map(|i| {
                let (p, q) = (apply(&m, centre(i)), apply(&start.grid_to_image, centre(i)));
                (p[0] - q[0]).hypot(p[1] - q[1])
            })
            .fold(0.0, f64::max);
        assert!(before > 5.0, "{before}");
        let r = refine(
            &scan,
            &grid,
            &start.grid_to_image,
            &[a, b],
            FitKind::Similarity,
            &RefineOptions::default(),
        )
        .unwrap();
        let error = centre_error(&grid, &|g| apply(&m, g), &r);
        assert!(
            error < 0.5,
            "worst centre {error:.2} px off (before {before:.2})"
        );
        assert!(r.lines_found * 10 > r.sides_probed * 8, "{r:?}");
        // A click 1.5 px off agrees with the print; one 9 px off does not.
        let clicks = [
            ("0202".to_owned(), a, [pa[0] + 1.5, pa[1]]),
            ("0504".to_owned(), b, [pb[0] + 9.0, pb[1]]),
        ];
        let checked = check_clicks(&r, &clicks);
        assert!(!checked[0].suspect && checked[1].suspect, "{checked:?}");
        assert!(
            checked[1]
                .message()
                .starts_with("0504 is 9.0 px from the centre the printed grid lines give it"),
            "{}",
            checked[1].message()
        );
    }

    #[test]
    fn a_bowed_sheet_gets_a_local_correction() {
        let grid = grid();
        let m = [24.0, 0.0, 40.0, 0.0, 24.0, 45.0, 0.0, 0.0, 1.0];
        // Up to 4 px, smooth over the sheet.
        let bend = |x: [f64; 2]| {
            let s = (std::f64::consts::PI * x[1] / 560.0).sin();
            [
                4.0 * s * (x[0] / 310.0 - 1.0),
                2.5 * (std::f64::consts::PI * x[0] / 620.0).sin(),
            ]
        };
        let scan = sheet(&grid, &m, &bend);
        let truth = |g: [f64; 2]| {
            let p = apply(&m, g);
            let mut x = p;
            for _ in 0..5 {
                let d = bend(x);
                x = [p[0] + d[0], p[1] + d[1]];
            }
            x
        };
        let clicked: Vec<[f64; 2]> = [
            HexIndex::new(1, 1),
            HexIndex::new(12, 8),
            HexIndex::new(12, 1),
        ]
        .iter()
        .map(|i| {
            let [x, y] = grid.centre(*i);
            [f64::from(x), f64::from(y)]
        })
        .collect();
        let pairs: Vec<([f64; 2], [f64; 2])> = clicked.iter().map(|g| (*g, truth(*g))).collect();
        let start = fit(FitKind::Affine, &pairs).unwrap();
        let flat = refine(
            &scan,
            &grid,
            &start.grid_to_image,
            &clicked,
            FitKind::Affine,
            &RefineOptions { local: false },
        )
        .unwrap();
        let bent = refine(
            &scan,
            &grid,
            &start.grid_to_image,
            &clicked,
            FitKind::Affine,
            &RefineOptions::default(),
        )
        .unwrap();
        let (e_flat, e_bent) = (
            centre_error(&grid, &truth, &flat),
            centre_error(&grid, &truth, &bent),
        );
        assert!(bent.warp.is_some(), "{e_bent} vs {e_flat}");
        assert!(e_flat > 1.5, "{e_flat}");
        assert!(
            e_bent < 1.0 && e_bent < 0.6 * e_flat,
            "{e_bent} vs {e_flat}"
        );
    }

    #[test]
    fn a_sheet_without_lines_keeps_the_clicks_fit() {
        let grid = grid();
        let image = image::RgbImage::from_pixel(400, 300, image::Rgb([230, 220, 200]));
        let m = [20.0, 0.0, 30.0, 0.0, 20.0, 30.0, 0.0, 0.0, 1.0];
        let result = refine(
            &Scan { image },
            &grid,
            &m,
            &[[0.0, 0.0], [9.0, 5.2]],
            FitKind::Affine,
            &RefineOptions::default(),
        );
        assert!(
            matches!(result, Err(RefineError::NoPrintedLines { .. })),
            "{result:?}"
        );
    }
}
