//! The calibration check: each click left out in turn (exactly up to 24 points, from one fit's
//! hat matrix beyond), the click the others disagree with named, and the fit kind the clicks
//! ask for.

#[allow(clippy::wildcard_imports, reason = "the parent's fits and types")]
use super::*;

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

pub(super) fn number_word(n: usize) -> String {
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
    let pairs = pairs(grid, points)?;
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
pub(super) const EXACT_LEAVE_ONE_OUT: usize = 24;

/// For each point: its distance from the fit over the others, and that fit's RMS.
pub(super) fn leave_one_out_exact(
    kind: FitKind,
    pairs: &[([f64; 2], [f64; 2])],
) -> Vec<(usize, f64, f64)> {
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
pub(super) fn leave_one_out(
    kind: FitKind,
    pairs: &[([f64; 2], [f64; 2])],
) -> Vec<(usize, f64, f64)> {
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
