//! tld's map shape truth: which hexes are wholly on the print. The module's `offmap_grey` flag
//! (`grid_centres.csv`) only says whether a hex's *centre* pixel is the module's off-map grey,
//! so it calls "on the map" three kinds of hexes the print shows only in part, checked on crops
//! of `Map_Full.png` (issue 20, 2026-11-27): the top row (its centres on the image's first
//! pixel row: half off the image), the hexes the grey rectangles cut through their centres, and
//! the sea hexes under the two display boxes printed over the map ("Cherbourg alarm units",
//! "6 June: 711 Infanterie Division": no hex lines there). Here a hex is wholly on the print
//! when under a quarter of its area (sampled over the hexagon VASSAL's grid puts there) is off
//! the image, of the module's off-map grey (186, 188, 185), or inside those boxes (rectangles
//! measured by hand from their black frames).

use bataille_digitize::calibrate::{Matrix, apply};
use bataille_digitize::scan::Scan;
use bataille_schema::{Grid, HexIndex};

/// The display boxes printed over the sea: (left, top, right, bottom) pixels, frames included.
const BOXES: [[u32; 4]; 2] = [[869, 0, 1204, 215], [4715, 1569, 5309, 1782]];

/// The module's off-map grey.
const GREY: [u8; 3] = [186, 188, 185];

/// Whether each hex (row-major) flagged on the map by the module is wholly on the print.
pub(crate) fn whole_on_print(scan: &Scan, grid: &Grid, vassal: &Matrix, on: &[bool]) -> Vec<bool> {
    let (w, h) = (scan.width(), scan.height());
    let unprinted = |x: f64, y: f64| -> bool {
        if !(x >= 0.0 && y >= 0.0 && x < f64::from(w) && y < f64::from(h)) {
            return true;
        }
        let (x, y) = (x as u32, y as u32);
        if BOXES
            .iter()
            .any(|b| (b[0]..=b[2]).contains(&x) && (b[1]..=b[3]).contains(&y))
        {
            return true;
        }
        let p = scan.image.get_pixel(x, y).0;
        p.iter().zip(GREY).all(|(a, b)| a.abs_diff(b) <= 6)
    };
    const STEPS: usize = 12;
    grid.indices()
        .zip(on)
        .map(|(index, on): (HexIndex, &bool)| {
            if !on {
                return false;
            }
            let [cx, cy] = grid.centre(index).map(f64::from);
            let corners = grid
                .corners(index)
                .map(|c| [f64::from(c[0]), f64::from(c[1])]);
            let (mut all, mut out) = (0usize, 0usize);
            for k in 0..6 {
                let (a, b) = (corners[k], corners[(k + 1) % 6]);
                for i in 0..STEPS {
                    for j in 0..STEPS - i {
                        let (s, t) = (
                            (i as f64 + 1.0 / 3.0) / STEPS as f64,
                            (j as f64 + 1.0 / 3.0) / STEPS as f64,
                        );
                        let g = [
                            cx + s * (a[0] - cx) + t * (b[0] - cx),
                            cy + s * (a[1] - cy) + t * (b[1] - cy),
                        ];
                        let [x, y] = apply(vassal, g);
                        all += 1;
                        out += usize::from(unprinted(x, y));
                    }
                }
            }
            out * 4 < all
        })
        .collect()
}
