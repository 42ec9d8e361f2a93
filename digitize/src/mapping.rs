//! Where the grid lies on the scan: one grid-to-image mapping that every step reading the scan
//! by the grid takes (terrain, hexsides, the line tracing). It is the global fit (the matrix a
//! map file keeps as `background.grid_to_image`) and, where the refinement on the print found
//! the paper is not flat (a flatbed's bow, a phone's lens), the smooth local correction
//! ([`Warp`]) added to it. Over one hex the correction is a shift, so a step reads a hex, a
//! hexside or a point with [`GridMapping::near`], the matrix good there; the trace, which goes
//! from the scan's pixels back to the grid, with [`GridMapping::inverse`].

use bataille_schema::{Grid, HexIndex};

use crate::calibrate::{Matrix, apply, invert, local_scale, multiply};

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
    pub(crate) fn weights(&self, p: [f64; 2]) -> [(usize, f64); 4] {
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

/// Grid coordinates to scan pixels: the global fit and, maybe, the local correction.
#[derive(Debug, Clone, PartialEq)]
pub struct GridMapping {
    /// The global fit (what a map file keeps).
    pub matrix: Matrix,
    /// The smooth local correction, when the paper is not flat.
    pub warp: Option<Warp>,
    /// Per hex (row-major, as `Grid::indices`), where its own printed sides put its centre
    /// off the lattice (px), where they were read clearly (zero elsewhere): a hex's disc is
    /// read there ([`GridMapping::hex`]); hexsides and the trace keep the lattice.
    pub hex_shifts: Option<Vec<[f64; 2]>>,
}

impl From<Matrix> for GridMapping {
    fn from(matrix: Matrix) -> Self {
        Self::global(matrix)
    }
}

impl GridMapping {
    /// The global fit alone (a flat sheet, or a fit from clicks).
    pub fn global(matrix: Matrix) -> Self {
        Self {
            matrix,
            warp: None,
            hex_shifts: None,
        }
    }

    /// Where a grid point lies on the scan, in pixels.
    pub fn map(&self, p: [f64; 2]) -> [f64; 2] {
        let q = apply(&self.matrix, p);
        match &self.warp {
            Some(w) => {
                let d = w.displacement(p);
                [q[0] + d[0], q[1] + d[1]]
            }
            None => q,
        }
    }

    /// A matrix good near a grid point: the global fit shifted by the correction there (the
    /// correction is smooth, so over a hex it is a shift).
    pub fn near(&self, p: [f64; 2]) -> Matrix {
        match &self.warp {
            Some(w) => {
                let d = w.displacement(p);
                multiply(
                    &[1.0, 0.0, d[0], 0.0, 1.0, d[1], 0.0, 0.0, 1.0],
                    &self.matrix,
                )
            }
            None => self.matrix,
        }
    }

    /// A hex's own shift off the lattice (px), zero when it has none.
    fn shift(&self, grid: &Grid, index: HexIndex) -> [f64; 2] {
        self.hex_shifts
            .as_ref()
            .and_then(|s| s.get(index.row as usize * grid.columns as usize + index.col as usize))
            .copied()
            .unwrap_or([0.0, 0.0])
    }

    /// A matrix good over a hex: [`GridMapping::near`] its centre, moved by the hex's own
    /// shift when its printed sides gave one.
    pub fn hex(&self, grid: &Grid, index: HexIndex) -> Matrix {
        let [x, y] = grid.centre(index);
        let m = self.near([f64::from(x), f64::from(y)]);
        match self.shift(grid, index) {
            [0.0, 0.0] => m,
            d => multiply(&[1.0, 0.0, d[0], 0.0, 1.0, d[1], 0.0, 0.0, 1.0], &m),
        }
    }

    /// Where a hex's centre is on the scan: the lattice's, moved by the hex's own shift.
    pub fn hex_centre(&self, grid: &Grid, index: HexIndex) -> [f64; 2] {
        let [x, y] = grid.centre(index);
        let p = self.map([f64::from(x), f64::from(y)]);
        let d = self.shift(grid, index);
        [p[0] + d[0], p[1] + d[1]]
    }

    /// Pixels per grid unit (hex radius) near a grid point.
    pub fn scale(&self, p: [f64; 2]) -> f64 {
        local_scale(&self.matrix, p)
    }

    /// From the scan back to the grid, `None` when the fit cannot be inverted.
    pub fn inverse(&self) -> Option<Inverse<'_>> {
        Some(Inverse {
            inverse: invert(&self.matrix)?,
            warp: self.warp.as_ref(),
        })
    }
}

/// A [`GridMapping`] inverted: scan pixels to grid coordinates.
pub struct Inverse<'a> {
    inverse: Matrix,
    warp: Option<&'a Warp>,
}

impl Inverse<'_> {
    /// The grid point a scan pixel shows: `map(p) = q` solved for `p` (with a correction, by
    /// fixed point from the global fit's answer: the correction moves by a fraction of a pixel
    /// over a pixel, so a few rounds settle it to far under a pixel).
    pub fn map(&self, q: [f64; 2]) -> [f64; 2] {
        let mut p = apply(&self.inverse, q);
        if let Some(w) = self.warp {
            for _ in 0..4 {
                let d = w.displacement(p);
                p = apply(&self.inverse, [q[0] - d[0], q[1] - d[1]]);
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bowed() -> GridMapping {
        GridMapping {
            matrix: [40.0, 0.0, 100.0, 0.0, 40.0, 80.0, 0.0, 0.0, 1.0],
            warp: Some(Warp {
                origin: [0.0, 0.0],
                cell: 4.0,
                columns: 3,
                rows: 3,
                nodes: vec![
                    [0.0, 0.0],
                    [3.0, -1.0],
                    [0.0, 0.0],
                    [-2.0, 4.0],
                    [6.0, 5.0],
                    [-1.0, 2.0],
                    [0.0, 0.0],
                    [2.0, 1.0],
                    [0.0, 0.0],
                ],
            }),
            hex_shifts: None,
        }
    }

    #[test]
    fn near_agrees_with_map_at_its_point_and_the_inverse_undoes_map() {
        let m = bowed();
        for p in [[1.0, 1.0], [4.0, 4.0], [6.5, 2.25], [7.9, 7.1]] {
            let a = m.map(p);
            let b = apply(&m.near(p), p);
            assert!((a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9);
            // The correction is not a shift of the whole sheet: the global fit alone is off.
            let g = apply(&m.matrix, p);
            assert!((a[0] - g[0]).hypot(a[1] - g[1]) > 0.5, "{p:?}");
            let back = m.inverse().unwrap().map(a);
            assert!(
                (back[0] - p[0]).hypot(back[1] - p[1]) < 1e-3,
                "{p:?} -> {back:?}"
            );
        }
    }

    #[test]
    fn without_a_correction_it_is_the_matrix() {
        let m = GridMapping::global([2.0, 0.5, 3.0, -0.5, 2.0, 1.0, 0.0, 0.0, 1.0]);
        assert_eq!(m.near([5.0, 5.0]), m.matrix);
        let q = m.map([1.0, 2.0]);
        let back = m.inverse().unwrap().map(q);
        assert!((back[0] - 1.0).abs() < 1e-12 && (back[1] - 2.0).abs() < 1e-12);
    }
}
