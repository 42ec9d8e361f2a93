//! Which part of the battlefield a table smaller than the map shows: the deployed units'
//! bounds, and the window of the table's size that holds the most units (nearest the middle).

use bataille_schema::Map;

/// The deployed area: every base drawn (the map's bounds when no unit is on it), in table
/// millimetres of the whole map.
pub(crate) fn deployed_bounds(
    units: &[crate::PlacedUnit],
    map: &Map,
    mm_per_grid: f64,
) -> ([f64; 2], [f64; 2]) {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for u in units {
        for b in u.bases() {
            let r = 0.5 * b.frontage_mm.hypot(b.depth_mm);
            lo = [lo[0].min(b.centre[0] - r), lo[1].min(b.centre[1] - r)];
            hi = [hi[0].max(b.centre[0] + r), hi[1].max(b.centre[1] + r)];
        }
    }
    if !lo[0].is_finite() {
        let (min, max) = map.grid.bounds();
        lo = [
            f64::from(min[0]) * mm_per_grid,
            f64::from(min[1]) * mm_per_grid,
        ];
        hi = [
            f64::from(max[0]) * mm_per_grid,
            f64::from(max[1]) * mm_per_grid,
        ];
    }
    (lo, hi)
}

/// The window of a table's size that holds the most units whole (ties: the one nearest the
/// deployed area's centre), searched on a 1 cm step.
pub(crate) fn best_window(
    units: &[crate::PlacedUnit],
    size: [f64; 2],
    lo: [f64; 2],
    hi: [f64; 2],
) -> [f64; 2] {
    let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    let boxes: Vec<[f64; 4]> = units
        .iter()
        .map(|u| {
            let mut b = [
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ];
            for base in u.bases() {
                let r = 0.5 * base.frontage_mm.hypot(base.depth_mm);
                b = [
                    b[0].min(base.centre[0] - r),
                    b[1].min(base.centre[1] - r),
                    b[2].max(base.centre[0] + r),
                    b[3].max(base.centre[1] + r),
                ];
            }
            b
        })
        .collect();
    let range = |axis: usize| -> Vec<f64> {
        let (a, b) = (lo[axis], hi[axis] - size[axis]);
        if b <= a {
            // The table is wider than the armies: centre them.
            return vec![mid[axis] - size[axis] / 2.0];
        }
        let steps = (((b - a) / 10.0).ceil() as usize).min(2000);
        (0..=steps)
            .map(|i| a + (b - a) * i as f64 / steps.max(1) as f64)
            .collect()
    };
    let xs = range(0);
    let ys = range(1);
    let mut best = (
        [mid[0] - size[0] / 2.0, mid[1] - size[1] / 2.0],
        0usize,
        f64::INFINITY,
    );
    for &x in &xs {
        for &y in &ys {
            let count = boxes
                .iter()
                .filter(|b| b[0] >= x && b[1] >= y && b[2] <= x + size[0] && b[3] <= y + size[1])
                .count();
            let d = (x + size[0] / 2.0 - mid[0]).hypot(y + size[1] / 2.0 - mid[1]);
            if count > best.1 || (count == best.1 && d < best.2) {
                best = ([x, y], count, d);
            }
        }
    }
    best.0
}
