//! Finding the printed line across each hexside where the current model puts it: the
//! sides' geometry, the colour profile across a side and its strongest ridge, sub-pixel.

#[allow(clippy::wildcard_imports, reason = "the parent's model and constants")]
use super::*;

/// One hexside of the grid: its middle and direction in grid space.
#[derive(Debug, Clone, Copy)]
pub(super) struct SideGeometry {
    /// The hex (index into `Grid::indices`) and the neighbour across, if on the map.
    pub(super) hex: usize,
    pub(super) other: Option<usize>,
    pub(super) mid: [f64; 2],
    pub(super) along: [f64; 2],
}

pub(super) fn side_geometry(grid: &Grid) -> Vec<SideGeometry> {
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
pub(super) struct Observation {
    pub(super) side: usize,
    /// The side's middle in grid space.
    pub(super) grid: [f64; 2],
    /// The unit normal across the side in the image.
    pub(super) normal: [f64; 2],
    /// A point of the printed line in the image.
    pub(super) found: [f64; 2],
    pub(super) ridge: f32,
}

/// The scan's pixels ready to be read at sub-pixel points, many times: the buffer and its
/// sizes taken once, and [`Sampler::at`] inlined into the loops that read a side's profile
/// (called on its own, `bilinear` was half of a refinement's time on a large scan, most of it
/// the call and the sizes fetched again at each point). The same arithmetic as before, in the
/// same order: the colours read are the same to the bit.
#[derive(Clone, Copy)]
pub(super) struct Sampler<'a> {
    raw: &'a [u8],
    width: u32,
    height: u32,
    w: f64,
    h: f64,
}

impl<'a> Sampler<'a> {
    pub(super) fn new(scan: &'a Scan) -> Self {
        let (width, height) = (scan.width(), scan.height());
        Self {
            raw: scan.image.as_raw(),
            width,
            height,
            w: f64::from(width),
            h: f64::from(height),
        }
    }

    /// The colour of the scan at `(x, y)`, bilinear between pixel centres; `None` off it.
    #[inline(always)]
    pub(super) fn at(&self, x: f64, y: f64) -> Option<[f32; 3]> {
        let (width, height, w, h) = (self.width, self.height, self.w, self.h);
        if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
            return None;
        }
        let fx = (x - 0.5).clamp(0.0, w - 1.0);
        let fy = (y - 0.5).clamp(0.0, h - 1.0);
        // Both are ≥ 0: truncation is the floor (without a call to libm's `floor`, a tenth of
        // a refinement's time).
        let (i, j) = (fx as u32, fy as u32);
        let (u, v) = ((fx - f64::from(i)) as f32, (fy - f64::from(j)) as f32);
        let i1 = (i + 1).min(width - 1);
        let j1 = (j + 1).min(height - 1);
        // The pixels straight from the buffer (three bytes each, row-major), one bounds
        // check each.
        let raw = self.raw;
        let px = |a: u32, b: u32| {
            let k = 3 * (b as usize * width as usize + a as usize);
            let p = &raw[k..k + 3];
            [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]
        };
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
}

/// Looks for the printed line across one side: the profile across it (averaged along its
/// middle), and the strongest colour ridge within `search_px` of `centre` — a stretch that
/// differs from the paper at `gap` on both sides (the profile reaches `gap` beyond the
/// search). Returns the line's offset along `normal` (px) and the ridge's ΔE; `None` when
/// the search is empty or nothing is read.
pub(super) fn find_line(
    scan: &Scan,
    centre: [f64; 2],
    tangent: [f64; 2],
    normal: [f64; 2],
    half_along_px: f64,
    search_px: f64,
    gap_px: f64,
) -> Option<(f64, f32)> {
    if search_px.is_nan() || search_px <= 0.0 {
        return None;
    }
    let reach = search_px + gap_px;
    let step = (reach / 60.0).max(0.5);
    let n = (reach / step).ceil() as i64;
    let along_n = ((2.0 * half_along_px).ceil() as i64).clamp(3, 24);
    let sampler = Sampler::new(scan);
    // Read along the side, then across it at each step along (consecutive reads a fraction
    // of a pixel apart, in the same pixels: across first, a large scan's rows came from
    // memory again at each read, half of a refinement's time); each offset's sum is still
    // added up along the side in order, so the profile is the same to the bit.
    let width = (2 * n + 1) as usize;
    let mut sums = vec![[0.0f32; 3]; width];
    let mut counts = vec![0.0f32; width];
    for s in 0..along_n {
        let u = -half_along_px + 2.0 * half_along_px * (s as f64 + 0.5) / along_n as f64;
        for (slot, k) in (-n..=n).enumerate() {
            let t = k as f64 * step;
            let x = centre[0] + tangent[0] * u + normal[0] * t;
            let y = centre[1] + tangent[1] * u + normal[1] * t;
            if let Some(c) = sampler.at(x, y) {
                for (a, b) in sums[slot].iter_mut().zip(c) {
                    *a += b;
                }
                counts[slot] += 1.0;
            }
        }
    }
    if counts.iter().any(|c| *c < along_n as f32 * 0.5) {
        return None;
    }
    let profile: Vec<Lab> = sums
        .iter()
        .zip(&counts)
        .map(|(sum, count)| srgb_to_lab(sum.map(|v| (v / count).round().clamp(0.0, 255.0) as u8)))
        .collect();
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

/// The gap (px) on both sides of a line at which the paper is read, for a side `length` px long.
pub(super) fn gap_px(length: f64) -> f64 {
    (0.08 * length).clamp(2.0, 10.0)
}

/// Whether the strip read across a side — `half_along` px either way along it from its middle
/// `c`, `reach` px either way across — lies wholly on the scan: a side whose profile would run
/// off the scan is not probed (nothing can be said of its line).
pub(super) fn strip_on_scan(
    scan: &Scan,
    c: [f64; 2],
    tangent: [f64; 2],
    half_along: f64,
    reach: f64,
) -> bool {
    let (w, h) = (f64::from(scan.width()), f64::from(scan.height()));
    let normal = [-tangent[1], tangent[0]];
    [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .all(|(a, b)| {
            let x = c[0] + a * half_along * tangent[0] + b * reach * normal[0];
            let y = c[1] + a * half_along * tangent[1] + b * reach * normal[1];
            x >= 0.0 && y >= 0.0 && x <= w && y <= h
        })
}

/// The paper's colour on the two sides of a side, `(inward, outward)`: the mean over the side's
/// middle half from 2 px to `gap + 3` px either way; `inward` the side of `towards` (the hex's
/// centre). An outward side of a hex on the print shows a line (its outline) or an *edge*:
/// the colour beyond the map (a frame's band, the brown round an operational map) differs from
/// the hex's ([`EDGE`]).
pub(super) fn side_colours(
    scan: &Scan,
    c: [f64; 2],
    tangent: [f64; 2],
    half_along: f64,
    gap: f64,
    towards: [f64; 2],
) -> Option<(Lab, Lab)> {
    let mut normal = [-tangent[1], tangent[0]];
    if normal[0] * (towards[0] - c[0]) + normal[1] * (towards[1] - c[1]) < 0.0 {
        normal = [-normal[0], -normal[1]];
    }
    let sampler = Sampler::new(scan);
    let mean = |sign: f64| -> Option<Lab> {
        let mut sum = [0.0f32; 3];
        let mut count = 0.0f32;
        let along_n = ((2.0 * half_along).ceil() as i64).clamp(3, 24);
        let across_n = (gap.ceil() as i64 + 2).max(2);
        for s in 0..along_n {
            let u = -half_along + 2.0 * half_along * (s as f64 + 0.5) / along_n as f64;
            for k in 0..across_n {
                let t = sign * (2.0 + (gap + 1.0) * k as f64 / (across_n - 1) as f64);
                let x = c[0] + tangent[0] * u + normal[0] * t;
                let y = c[1] + tangent[1] * u + normal[1] * t;
                let rgb = sampler.at(x, y)?;
                for (a, b) in sum.iter_mut().zip(rgb) {
                    *a += b;
                }
                count += 1.0;
            }
        }
        (count > 0.0).then(|| srgb_to_lab(sum.map(|v| (v / count).round().clamp(0.0, 255.0) as u8)))
    };
    Some((mean(1.0)?, mean(-1.0)?))
}

/// The ΔE between the two sides of an outward side, and between the hex's side and the colour
/// beyond the print, over which the print ends there.
pub(super) const EDGE: f32 = 12.0;

/// The current model: a matrix and, maybe, a correction.
pub(super) type Model = GridMapping;

/// Measures the printed line across each of `chosen` sides where `model` puts it, within
/// `search(side, length)` px of it (a side `length` px long).
pub(super) fn measure(
    scan: &Scan,
    geometry: &[SideGeometry],
    chosen: &[usize],
    model: &Model,
    search: impl Fn(usize, f64) -> f64 + Sync,
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
            let search_px = search(s, length);
            let gap = gap_px(length);
            if !strip_on_scan(
                scan,
                c,
                tangent,
                HALF_ALONG * length,
                search_px + 2.0 * gap + 1.0,
            ) {
                return None;
            }
            Some(
                find_line(
                    scan,
                    c,
                    tangent,
                    normal,
                    HALF_ALONG * length,
                    search_px,
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
