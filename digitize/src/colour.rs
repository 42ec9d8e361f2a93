//! Colour: sRGB bytes to CIELAB (D65), where Euclidean distance (ΔE*76) follows what a person
//! sees, and the robust statistics taken over a hex's pixels.

use std::sync::OnceLock;

/// A CIELAB colour: L* in [0, 100], a* and b* roughly in [-128, 127].
pub type Lab = [f32; 3];

fn linear_table() -> &'static [f32; 256] {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0.0; 256];
        for (i, slot) in table.iter_mut().enumerate() {
            let c = i as f32 / 255.0;
            *slot = if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            };
        }
        table
    })
}

/// sRGB bytes to CIELAB under D65.
pub fn srgb_to_lab([r, g, b]: [u8; 3]) -> Lab {
    let table = linear_table();
    let (r, g, b) = (table[r as usize], table[g as usize], table[b as usize]);
    // Linear sRGB to XYZ, divided by the D65 white point.
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f32| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// ΔE*76: the Euclidean distance between two Lab colours.
pub fn delta_e(a: Lab, b: Lab) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The per-channel median of a set of Lab colours (`None` when empty). Reorders the input.
pub fn median_lab(values: &mut [Lab]) -> Option<Lab> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    let mut out = [0.0; 3];
    for (channel, slot) in out.iter_mut().enumerate() {
        values.select_nth_unstable_by(mid, |a, b| a[channel].total_cmp(&b[channel]));
        *slot = values[mid][channel];
    }
    Some(out)
}

/// How close (ΔE) a pixel must be to the dominant colour to count as part of it.
pub const MODE_RADIUS: f32 = 10.0;

/// The dominant colour of a set of pixels and the share of pixels near it: the candidate (of
/// up to 64 spread over the set, and the per-channel median) with the most pixels within
/// [`MODE_RADIUS`], refined to the median of those pixels. Symbols, lines and names drawn over
/// a hex are other colours, so they do not pull it the way they pull a median. Reorders the
/// input.
pub fn dominant(values: &mut [Lab]) -> Option<(Lab, f32)> {
    let median = median_lab(values)?;
    let r2 = MODE_RADIUS * MODE_RADIUS;
    let near = |c: Lab, p: &Lab| {
        let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= r2
    };
    let step = (values.len() / 64).max(1);
    let candidates = std::iter::once(median).chain(values.iter().step_by(step).copied());
    let mut best = (median, 0usize);
    for c in candidates {
        let count = values.iter().filter(|p| near(c, p)).count();
        if count > best.1 {
            best = (c, count);
        }
    }
    let mut members: Vec<Lab> = values.iter().copied().filter(|p| near(best.0, p)).collect();
    let centre = median_lab(&mut members).unwrap_or(best.0);
    let support = values.iter().filter(|p| near(centre, p)).count() as f32 / values.len() as f32;
    Some((centre, support))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let white = srgb_to_lab([255, 255, 255]);
        assert!((white[0] - 100.0).abs() < 0.05 && white[1].abs() < 0.05 && white[2].abs() < 0.05);
        let black = srgb_to_lab([0, 0, 0]);
        assert!(black[0].abs() < 1e-3);
        // sRGB red: L 53.24, a 80.09, b 67.20.
        let red = srgb_to_lab([255, 0, 0]);
        assert!(
            (red[0] - 53.24).abs() < 0.1
                && (red[1] - 80.09).abs() < 0.2
                && (red[2] - 67.2).abs() < 0.2
        );
    }

    #[test]
    fn median_ignores_outliers() {
        let mut values = vec![
            [50.0, 0.0, 0.0],
            [51.0, 1.0, 1.0],
            [0.0, 90.0, -90.0],
            [52.0, 2.0, 2.0],
        ];
        let m = median_lab(&mut values).unwrap_or_default();
        assert!((m[0] - 51.0).abs() <= 1.0 && m[1] <= 2.0 && m[2] >= 0.0);
        assert!(median_lab(&mut []).is_none());
    }
}
