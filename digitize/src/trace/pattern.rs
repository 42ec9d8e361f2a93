//! How a line is drawn where it crosses a side (one line, two lines, a railway's ties), for
//! telling apart lines of one ink ([`super::trace_through`]).

/// How a line is drawn where it crosses a side: its ink's share of the line's length at each
/// distance from its axis (bins of [`PATTERN_BINS`] hex radii): one line is all near the
/// axis, two lines of a main road away from it, a railway's ties spread out.
pub(super) type Pattern = [f32; 6];
/// The outer edges of the pattern's bins (hex radii from the line's axis).
const PATTERN_BINS: [f64; 5] = [0.03, 0.06, 0.09, 0.13, 0.19];
/// A pattern further than this from every marked crossing's is drawn like none of them.
pub(super) const NOVEL: f32 = 0.5;
/// The weight of the amount of ink in the distance of two patterns.
const MASS_WEIGHT: f32 = 0.5;
/// Two patterns this near the middle between them (as a share of their distances) are
/// neither.
pub(super) const TYPE_MARGIN: f32 = 0.2;

/// The pattern of the ink `mine` within `reach` cells of `(x, y)` (`unit` cells a hex
/// radius): its axis is the ink's principal direction there.
pub(super) fn pattern(
    mine: &dyn Fn(usize) -> bool,
    w: usize,
    h: usize,
    x: usize,
    y: usize,
    reach: f64,
    unit: f64,
) -> Option<Pattern> {
    let r = reach.ceil() as usize;
    let mut cells: Vec<[f64; 2]> = Vec::new();
    for yy in y.saturating_sub(r)..(y + r + 1).min(h) {
        for xx in x.saturating_sub(r)..(x + r + 1).min(w) {
            let (dx, dy) = (xx as f64 - x as f64, yy as f64 - y as f64);
            if dx.hypot(dy) <= reach && mine(yy * w + xx) {
                cells.push([dx, dy]);
            }
        }
    }
    if cells.len() < 4 {
        return None;
    }
    let n = cells.len() as f64;
    let mean = [
        cells.iter().map(|c| c[0]).sum::<f64>() / n,
        cells.iter().map(|c| c[1]).sum::<f64>() / n,
    ];
    let (mut xx, mut xy, mut yy) = (0.0, 0.0, 0.0);
    for c in &cells {
        let (dx, dy) = (c[0] - mean[0], c[1] - mean[1]);
        xx += dx * dx;
        xy += dx * dy;
        yy += dy * dy;
    }
    let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
    let normal = [-angle.sin(), angle.cos()];
    // Each cell spread over the distances it covers (a cell wide), so that a line along the
    // cells' rows and one aslant read alike.
    let mut out: Pattern = [0.0; 6];
    let half = 0.5 / unit;
    for c in &cells {
        let d = ((c[0] - mean[0]) * normal[0] + (c[1] - mean[1]) * normal[1]).abs() / unit;
        let (lo, hi) = (d - half, d + half);
        let mut from = 0.0f64;
        for (b, slot) in out.iter_mut().enumerate() {
            let to = PATTERN_BINS.get(b).copied().unwrap_or(f64::INFINITY);
            // The share of [lo, hi] within [from, to), folded at the axis.
            let overlap = |a: f64, z: f64| (hi.min(z) - lo.max(a)).max(0.0);
            let folded = |a: f64, z: f64| (-lo).min(z).max(a) - a;
            *slot += ((overlap(from, to) + if lo < 0.0 { folded(from, to) } else { 0.0 })
                / (2.0 * half)) as f32;
            from = to;
        }
    }
    // Per cell of the line's length: how far its ink spans along the axis (a label or a gap
    // over the line takes ink away, not length).
    let along = |c: &[f64; 2]| (c[0] - mean[0]) * normal[1] - (c[1] - mean[1]) * normal[0];
    let (lo, hi) = cells
        .iter()
        .map(along)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let length = (hi - lo + 1.0).max(1.0);
    Some(out.map(|v| v / length as f32))
}

/// How far apart two patterns are: how they are drawn (the ink moved across the bins to make
/// one's share of ink at each distance the other's: the earth mover's distance, so that ink a
/// bin off, a line drawn along the pixels' rows or aslant, is near) and, less, how much ink
/// (the logarithm of the ratio: a label or a gap over a line takes some away).
pub(super) fn distance(a: &Pattern, b: &Pattern) -> f32 {
    let (ma, mb) = (a.iter().sum::<f32>(), b.iter().sum::<f32>());
    if ma <= 0.0 || mb <= 0.0 {
        return f32::INFINITY;
    }
    let (mut sum, mut carried) = (0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        carried += x / ma - y / mb;
        sum += carried.abs();
    }
    sum + MASS_WEIGHT * (ma / mb).ln().abs()
}
