//! What a map's `background.grid_to_image` means: a 3×3 matrix, row-major, taking grid
//! coordinates (hex circumradius 1, [`crate::Grid::centre`]'s space) to the scan's pixels, with
//! the projective division; its inverse, products and local scale. Digitising fits it
//! (`bataille_digitize::calibrate`); the editor draws the scan under the map with it.

/// A 3×3 matrix, row-major, taking grid coordinates to image pixels.
pub type Matrix = [f64; 9];

/// Applies a matrix to a point (with the projective division).
pub fn apply(m: &Matrix, [x, y]: [f64; 2]) -> [f64; 2] {
    let w = m[6] * x + m[7] * y + m[8];
    let w = if w.abs() < 1e-12 { 1e-12 } else { w };
    [
        (m[0] * x + m[1] * y + m[2]) / w,
        (m[3] * x + m[4] * y + m[5]) / w,
    ]
}

/// The product `a · b`.
pub fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
        }
    }
    out
}

/// The inverse, or `None` when singular.
pub fn invert(m: &Matrix) -> Option<Matrix> {
    let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
        + m[2] * (m[3] * m[7] - m[4] * m[6]);
    let scale = m.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    if !det.is_finite() || det.abs() <= 1e-12 * scale.powi(3) {
        return None;
    }
    let inv = [
        m[4] * m[8] - m[5] * m[7],
        m[2] * m[7] - m[1] * m[8],
        m[1] * m[5] - m[2] * m[4],
        m[5] * m[6] - m[3] * m[8],
        m[0] * m[8] - m[2] * m[6],
        m[2] * m[3] - m[0] * m[5],
        m[3] * m[7] - m[4] * m[6],
        m[1] * m[6] - m[0] * m[7],
        m[0] * m[4] - m[1] * m[3],
    ];
    Some(inv.map(|v| v / det))
}

/// How many image pixels one grid unit (one hex circumradius) spans near a grid point: the
/// geometric mean of the fit's local stretch along x and y.
pub fn local_scale(m: &Matrix, p: [f64; 2]) -> f64 {
    let o = apply(m, p);
    let dx = apply(m, [p[0] + 1.0, p[1]]);
    let dy = apply(m, [p[0], p[1] + 1.0]);
    let lx = ((dx[0] - o[0]).powi(2) + (dx[1] - o[1]).powi(2)).sqrt();
    let ly = ((dy[0] - o[0]).powi(2) + (dy[1] - o[1]).powi(2)).sqrt();
    (lx * ly).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_and_its_inverse_undo_each_other() {
        // A projective fit: 20 px a hex, turned a little, with some perspective.
        let m: Matrix = [19.0, -3.0, 40.0, 2.5, 21.0, 15.0, 0.001, 0.002, 1.0];
        let inverse = invert(&m).unwrap();
        for p in [[0.0, 0.0], [12.5, 3.0], [-4.0, 30.0]] {
            let back = apply(&inverse, apply(&m, p));
            assert!((back[0] - p[0]).abs() < 1e-9 && (back[1] - p[1]).abs() < 1e-9);
        }
        let product = multiply(&m, &inverse);
        for (k, v) in product.iter().enumerate() {
            let want = if k % 4 == 0 { 1.0 } else { 0.0 };
            assert!((v - want).abs() < 1e-9, "{k}: {v}");
        }
        // A similarity of 20 px a hex stretches one grid unit to 20 px everywhere.
        let similar: Matrix = [20.0, 0.0, 5.0, 0.0, 20.0, 7.0, 0.0, 0.0, 1.0];
        assert!((local_scale(&similar, [3.0, 4.0]) - 20.0).abs() < 1e-9);
        // A singular matrix has no inverse.
        assert_eq!(invert(&[1.0, 2.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 1.0]), None);
    }
}
