//! The map's shape found on the print ([`bataille_digitize::shape`]) when the scan shows paper
//! round the map (a margin, the scanner's bed), not only when it is cut at the print's edge.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_digitize::calibrate::{Matrix, multiply};
use bataille_digitize::refine::{RefineOptions, refine};
use bataille_digitize::scan::Scan;
use bataille_digitize::shape::{Place, from_printed_sides};
use bataille_schema::HexIndex;
use bataille_schema::map::FitKind;
use image::{Rgb, RgbImage};

/// The image on a sheet of paper `pad` px wider each side.
fn with_margin(image: &RgbImage, pad: u32) -> (RgbImage, Matrix) {
    let (w, h) = (image.width() + 2 * pad, image.height() + 2 * pad);
    let mut out = RgbImage::from_pixel(w, h, Rgb([250, 248, 240]));
    image::imageops::overlay(&mut out, image, i64::from(pad), i64::from(pad));
    let shift = [
        1.0,
        0.0,
        f64::from(pad),
        0.0,
        1.0,
        f64::from(pad),
        0.0,
        0.0,
        1.0,
    ];
    (out, shift)
}

fn naw() -> bataille_schema::Map {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    bataille_schema::load_map(&root.join("maps/napoleon-at-waterloo.ron"))
        .unwrap()
        .map
}

fn missing_with_margin(map: &bataille_schema::Map, pad: u32) -> (Vec<String>, Vec<String>) {
    let mut absent: Vec<String> = map
        .grid
        .indices()
        .filter(|i| map.is_absent(*i))
        .map(|i| map.grid.name(i).to_string())
        .collect();
    absent.sort();
    let (image, layout) = common::rendered(map, 40.0);
    // From 100 on: rotated 1.5°, blurred, noisy, JPEG 60, with `pad - 100` px of paper.
    let (image, m) = if pad >= 100 {
        let (bytes, to_scan) = common::scan_like(&image, 1.5, 1.0, pad - 100, 3.0, 60);
        let scan = image::load_from_memory(&bytes).unwrap().to_rgb8();
        (scan, multiply(&to_scan, &layout))
    } else {
        let (image, shift) = with_margin(&image, pad);
        (image, multiply(&shift, &layout))
    };
    let scan = Scan::from(image);
    let seeds: Vec<[f64; 2]> = [(0, 0), (map.grid.columns - 1, map.grid.rows - 2)]
        .iter()
        .map(|&(c, r)| {
            let [x, y] = map.grid.centre(HexIndex::new(c, r));
            [f64::from(x), f64::from(y)]
        })
        .collect();
    let r = refine(
        &scan,
        &map.grid,
        &m,
        &seeds,
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let shape = from_printed_sides(
        &map.grid,
        &r.printed_sides,
        &|i| r.centre(&map.grid, i),
        scan.width(),
        scan.height(),
    );
    let mut missing: Vec<String> = shape
        .hexes(&map.grid, Place::Half)
        .iter()
        .chain(&shape.hexes(&map.grid, Place::Off))
        .map(|i| map.grid.name(*i).to_string())
        .collect();
    missing.sort();
    (missing, absent)
}

#[test]
fn short_columns_are_found_when_the_scan_has_a_margin() {
    for pad in [40, 130] {
        let (missing, absent) = missing_with_margin(&naw(), pad);
        assert_eq!(missing, absent, "margin {pad} px");
    }
}

/// The short lines of either parity: on this grid the odd columns' end cells stick out of the
/// print (three printed sides), the even columns' are notches set into it (five printed sides:
/// only the outward one tells).
#[test]
fn short_columns_of_either_parity_are_found() {
    let mut failures = Vec::new();
    for parity in [
        bataille_schema::map::Shifted::Even,
        bataille_schema::map::Shifted::Odd,
    ] {
        let mut map = common::known_map();
        map.short_lines = Some(parity);
        let (missing, absent) = missing_with_margin(&map, 30);
        if missing != absent {
            failures.push(format!("{parity:?}: found {missing:?}, absent {absent:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A print whose surround is drawn in its outlines' own colour (as the brown round an
/// operational map): the outward sides of its edge hexes show no line, only where the
/// colour changes. The edge hexes stay on the print; the short columns' cells, in the
/// surround, are found.
#[test]
fn a_print_in_a_band_of_its_lines_colour_keeps_its_edge_hexes() {
    use bataille_schema::map::{HexNaming, Orientation, Shifted};
    let grid = bataille_schema::Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 12,
        rows: 8,
        hex_names: HexNaming::default(),
    };
    let m = [26.0, 0.0, 60.0, 0.0, 26.0, 60.0, 0.0, 0.0, 1.0];
    let inverse = bataille_digitize::calibrate::invert(&m).unwrap();
    // The even-numbered columns' last cells are not printed.
    let absent = |i: HexIndex| grid.is_short_line_end(i, Shifted::Even);
    let band = Rgb([120, 100, 85]);
    let image = RgbImage::from_fn(560, 480, |x, y| {
        let g =
            bataille_digitize::calibrate::apply(&inverse, [f64::from(x) + 0.5, f64::from(y) + 0.5]);
        let Some(hex) = grid
            .hex_at([g[0] as f32, g[1] as f32])
            .filter(|h| !absent(*h))
        else {
            return band;
        };
        let edge = inside_by(&grid, hex, g);
        if edge * 26.0 < 1.5 {
            band
        } else {
            Rgb([245, 240, 225])
        }
    });
    let scan = Scan::from(image);
    let seeds = [[0.0, 0.0], [10.0, 8.0]];
    let r = refine(
        &scan,
        &grid,
        &m,
        &seeds,
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let shape = from_printed_sides(
        &grid,
        &r.printed_sides,
        &|i| r.centre(&grid, i),
        scan.width(),
        scan.height(),
    );
    let names = |list: Vec<HexIndex>| -> Vec<String> {
        list.iter().map(|i| grid.name(*i).to_string()).collect()
    };
    let mut missing = names(shape.hexes(&grid, Place::Half));
    missing.extend(names(shape.hexes(&grid, Place::Off)));
    missing.sort();
    let expected = names(grid.indices().filter(|i| absent(*i)).collect());
    assert_eq!(missing, expected);
}

/// How far inside `hex` (grid units: a flat grid's hex radius is 1) the point `g` lies: the
/// least distance to its sides' lines.
fn inside_by(grid: &bataille_schema::Grid, hex: HexIndex, g: [f64; 2]) -> f64 {
    let [cx, cy] = grid.centre(hex);
    let (dx, dy) = (g[0] - f64::from(cx), g[1] - f64::from(cy));
    let apothem = 3f64.sqrt() / 2.0;
    (0..6)
        .map(|k| {
            let a = (f64::from(k) * 60.0 + 30.0).to_radians();
            apothem - (dx * a.cos() + dy * a.sin())
        })
        .fold(f64::INFINITY, f64::min)
}

/// Distance from `p` to the segment `a`–`b` (grid units).
fn to_segment(p: [f64; 2], [a, b]: [[f32; 2]; 2]) -> f64 {
    let (a, b) = (a.map(f64::from), b.map(f64::from));
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let t = (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy)
}

#[test]
fn the_print_s_edge_told_by_its_colours_decides_whatever_lines_fall_there() {
    // As on the Arnhem scan's south-west quadrant: the print in a brown band (its outlines in
    // the band's colour), the even columns' last cells not printed (notches of the band). In
    // one notch the band's black rules fall where the grid puts its three outward sides, so
    // all six of its sides "show a line"; the scan's edge cuts the corner hex beside it, whose
    // two other sides on the scan a wide river hides. The notch is not on the print, the
    // corner hex is (its colours say so: paper against the band on two sides, the band on
    // none of its own).
    use bataille_schema::Side;
    use bataille_schema::map::{HexNaming, Orientation, Shifted};
    let grid = bataille_schema::Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 12,
        rows: 8,
        hex_names: HexNaming::default(),
    };
    let m = [26.0, 0.0, 60.0, 0.0, 26.0, 60.0, 0.0, 0.0, 1.0];
    let inverse = bataille_digitize::calibrate::invert(&m).unwrap();
    // The lower columns' last cells are not printed: notches into the print.
    let lower = if grid.centre(HexIndex::new(0, 0))[1] > grid.centre(HexIndex::new(1, 0))[1] {
        Shifted::Odd
    } else {
        Shifted::Even
    };
    let absent = |i: HexIndex| grid.is_short_line_end(i, lower);
    // The last printed hex of the bottom row whose south-west neighbour is a notch.
    let corner = (0..grid.columns - 1)
        .rev()
        .map(|c| HexIndex::new(c, grid.rows - 1))
        .find(|i| !absent(*i) && grid.neighbour(*i, Side::SW).is_some_and(absent))
        .unwrap();
    let notch = grid.neighbour(corner, Side::SW).unwrap();
    let rules: Vec<[[f32; 2]; 2]> = [Side::SW, Side::S, Side::SE]
        .into_iter()
        .filter_map(|s| grid.side_corners(notch, s))
        .collect();
    let river: Vec<[[f32; 2]; 2]> = [Side::N, Side::NW]
        .into_iter()
        .filter_map(|s| grid.side_corners(corner, s))
        .collect();
    let band = Rgb([120, 100, 85]);
    // The scan ends half a hex right of the corner hex's centre.
    let [cx, _] = grid.centre(corner);
    let width = (f64::from(cx) + 0.5) * 26.0 + 60.0;
    let image = RgbImage::from_fn(width as u32, 480, |x, y| {
        let g =
            bataille_digitize::calibrate::apply(&inverse, [f64::from(x) + 0.5, f64::from(y) + 0.5]);
        if river.iter().any(|s| to_segment(g, *s) < 0.3) {
            return Rgb([70, 120, 190]);
        }
        if rules.iter().any(|s| to_segment(g, *s) < 0.05) {
            return Rgb([20, 20, 20]);
        }
        let Some(hex) = grid
            .hex_at([g[0] as f32, g[1] as f32])
            .filter(|h| !absent(*h))
        else {
            return band;
        };
        let edge = inside_by(&grid, hex, g);
        if edge * 26.0 < 1.5 {
            band
        } else {
            Rgb([245, 240, 225])
        }
    });
    let scan = Scan::from(image);
    let r = refine(
        &scan,
        &grid,
        &m,
        &[[0.0, 0.0], [10.0, 6.0]],
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let shape = from_printed_sides(
        &grid,
        &r.printed_sides,
        &|i| r.centre(&grid, i),
        scan.width(),
        scan.height(),
    );
    let slot = |i: HexIndex| i.row as usize * grid.columns as usize + i.col as usize;
    assert_ne!(
        shape.place(&grid, notch),
        Place::On,
        "the notch: {:?}",
        r.printed_sides[slot(notch)]
    );
    assert_eq!(
        shape.place(&grid, corner),
        Place::On,
        "the corner hex: {:?}",
        r.printed_sides[slot(corner)]
    );
    // The other notches on the scan are found as before, and no printed hex left of the cut
    // is taken off.
    for i in grid.indices().filter(|i| i.col < corner.col) {
        assert_eq!(
            shape.place(&grid, i) == Place::On,
            !absent(i),
            "{}: {:?}",
            grid.name(i),
            r.printed_sides[slot(i)]
        );
    }
}

/// As Napoleon at Waterloo's scan: every hex outlined in a dark line (its outward sides too),
/// filled with its terrain; round the print a lighter margin up to a frame line; the lower
/// columns' last cells are not printed (notches of the margin between the print's last hexes),
/// and the scan ends a few pixels below the frame, which runs through the notches' centres: their
/// own outward sides are off the scan, their three sides on it are their neighbours' and show
/// a line. The colour beyond the print (the margin's, read beyond the outward sides, lines
/// and all) against the notches' own tells them.
#[test]
fn notches_the_scan_cuts_are_told_by_the_margin_s_colour() {
    use bataille_schema::map::{HexNaming, Orientation, Shifted};
    let grid = bataille_schema::Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 12,
        rows: 8,
        hex_names: HexNaming::default(),
    };
    let m = [26.0, 0.0, 60.0, 0.0, 26.0, 60.0, 0.0, 0.0, 1.0];
    let inverse = bataille_digitize::calibrate::invert(&m).unwrap();
    let lower = if grid.centre(HexIndex::new(0, 0))[1] > grid.centre(HexIndex::new(1, 0))[1] {
        Shifted::Odd
    } else {
        Shifted::Even
    };
    let absent = |i: HexIndex| grid.is_short_line_end(i, lower);
    let notch = grid.indices().find(|i| absent(*i)).unwrap();
    // The frame through the notches' centres, the scan's edge 6 px below it.
    let frame_y = f64::from(grid.centre(notch)[1]) * 26.0 + 60.0;
    let height = (frame_y + 6.0) as u32;
    let (margin, outline, fill) = (
        Rgb([188, 182, 170]),
        Rgb([90, 60, 40]),
        Rgb([128, 122, 108]),
    );
    let image = RgbImage::from_fn(560, height, |x, y| {
        let g =
            bataille_digitize::calibrate::apply(&inverse, [f64::from(x) + 0.5, f64::from(y) + 0.5]);
        let Some(hex) = grid
            .hex_at([g[0] as f32, g[1] as f32])
            .filter(|h| !absent(*h))
        else {
            return if (f64::from(y) + 0.5 - frame_y).abs() < 1.2 {
                outline
            } else {
                margin
            };
        };
        let edge = inside_by(&grid, hex, g);
        if edge * 26.0 < 1.5 { outline } else { fill }
    });
    let scan = Scan::from(image);
    let r = refine(
        &scan,
        &grid,
        &m,
        &[[0.0, 0.0], [10.0, 6.0]],
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let shape = from_printed_sides(
        &grid,
        &r.printed_sides,
        &|i| r.centre(&grid, i),
        scan.width(),
        scan.height(),
    );
    let slot = |i: HexIndex| i.row as usize * grid.columns as usize + i.col as usize;
    let mut notches = 0;
    for i in grid.indices() {
        notches += usize::from(absent(i));
        assert_eq!(
            shape.place(&grid, i) == Place::On,
            !absent(i),
            "{}: {:?}",
            grid.name(i),
            r.printed_sides[slot(i)]
        );
    }
    assert!(notches >= 5, "{notches}");
}
