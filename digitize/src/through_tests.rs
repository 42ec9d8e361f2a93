//! Lines through the hexes ([`super::trace_through`]) on a drawn sheet.

use std::collections::BTreeMap;

use bataille_schema::geometry::sides;
use bataille_schema::map::{HexNaming, Orientation, Shifted};

use super::*;
use crate::calibrate::{Matrix, apply};
use crate::classify::{ClassifyOptions, DOUBTFUL_BELOW, interior_hexsides, suggest_terrain};
use crate::colour::srgb_to_lab;

const PAPER: [u8; 3] = [236, 230, 205];
const LINE: [u8; 3] = [120, 120, 110];
const BLACK: [u8; 3] = [15, 12, 10];
const PX: f64 = 30.0;

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Even,
        first_column: 1,
        first_row: 1,
        columns: 10,
        rows: 8,
        hex_names: HexNaming::default(),
    }
}

fn dot(img: &mut image::RgbImage, p: [f64; 2], r: f64, colour: [u8; 3]) {
    let (x0, y0) = (
        (p[0] - r).floor().max(0.0) as u32,
        (p[1] - r).floor().max(0.0) as u32,
    );
    for y in y0..=(p[1] + r).ceil() as u32 {
        for x in x0..=(p[0] + r).ceil() as u32 {
            if x < img.width()
                && y < img.height()
                && (f64::from(x) + 0.5 - p[0]).hypot(f64::from(y) + 0.5 - p[1]) <= r
            {
                img.put_pixel(x, y, image::Rgb(colour));
            }
        }
    }
}

/// A stroke from `a` to `b` (pixels): the pixels whose middle lies within `r` of the segment.
fn stroke(img: &mut image::RgbImage, a: [f64; 2], b: [f64; 2], r: f64, colour: [u8; 3]) {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = (d[0] * d[0] + d[1] * d[1]).max(1e-9);
    let (x0, x1) = (a[0].min(b[0]) - r - 1.0, a[0].max(b[0]) + r + 1.0);
    let (y0, y1) = (a[1].min(b[1]) - r - 1.0, a[1].max(b[1]) + r + 1.0);
    for y in y0.max(0.0) as u32..(y1.max(0.0) as u32).min(img.height()) {
        for x in x0.max(0.0) as u32..(x1.max(0.0) as u32).min(img.width()) {
            let p = [f64::from(x) + 0.5, f64::from(y) + 0.5];
            let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0);
            if (p[0] - a[0] - t * d[0]).hypot(p[1] - a[1] - t * d[1]) <= r {
                img.put_pixel(x, y, image::Rgb(colour));
            }
        }
    }
}

/// Hexes from `start`, stepping by `steps` sides: a path of neighbours.
fn path(grid: &Grid, start: HexIndex, steps: &[Side]) -> Vec<HexIndex> {
    let mut out = vec![start];
    for s in steps {
        let next = grid.neighbour(*out.last().unwrap(), *s).unwrap();
        out.push(next);
    }
    out
}

/// The hexsides a path of neighbours crosses, canonical.
fn crossed(grid: &Grid, hexes: &[HexIndex]) -> Vec<(HexIndex, Side)> {
    hexes
        .windows(2)
        .map(|w| {
            let side = sides(grid.orientation)
                .into_iter()
                .find(|s| grid.neighbour(w[0], *s) == Some(w[1]))
                .unwrap();
            grid.canonical_hexside(w[0], side)
        })
        .collect()
}

struct Sheet {
    grid: Grid,
    scan: Scan,
    m: Matrix,
    road: Vec<HexIndex>,
    railway: Vec<HexIndex>,
    /// The road's crossing hidden under a blank label.
    hidden: (HexIndex, Side),
    /// The hexside a place name's letters straddle.
    lettered: (HexIndex, Side),
}

/// A printed sheet: grey grid lines; a road (a black line 3 px wide) from hex centre to hex
/// centre along a path, a town's dot on it, one of its crossings under a blank label; a
/// railway of the same black, a pixel wide with ties across it every 6 px, along another
/// path; a place name's letters across a side no line crosses.
fn sheet() -> Sheet {
    sheet_with(|_, _| {})
}

/// [`sheet`] with more drawn on it (`draw` gets the image and grid space to pixels).
fn sheet_with(draw: impl Fn(&mut image::RgbImage, &dyn Fn([f32; 2]) -> [f64; 2])) -> Sheet {
    let grid = grid();
    // Off the pixels' grid by a fraction, as a scan is.
    let m = [PX, 0.0, PX + 0.35, 0.0, PX, PX + 0.2, 0.0, 0.0, 1.0];
    let at = |p: [f32; 2]| apply(&m, [f64::from(p[0]), f64::from(p[1])]);
    let mut img = image::RgbImage::from_pixel(520, 470, image::Rgb(PAPER));
    for index in grid.indices() {
        for side in sides(grid.orientation) {
            let [a, b] = grid.side_corners(index, side).unwrap();
            stroke(&mut img, at(a), at(b), 0.6, LINE);
        }
    }
    use Side::{N, NE, S, SE};
    let road = path(&grid, HexIndex::new(1, 1), &[SE, NE, SE, S, SE, NE]);
    let railway = path(&grid, HexIndex::new(1, 6), &[NE, SE, NE, N, NE, SE, NE]);
    for w in road.windows(2) {
        stroke(
            &mut img,
            at(grid.centre(w[0])),
            at(grid.centre(w[1])),
            1.5,
            BLACK,
        );
    }
    dot(&mut img, at(grid.centre(road[2])), 5.0, BLACK);
    for w in railway.windows(2) {
        let (a, b) = (at(grid.centre(w[0])), at(grid.centre(w[1])));
        stroke(&mut img, a, b, 0.5, BLACK);
        let l = (b[0] - a[0]).hypot(b[1] - a[1]);
        let (u, n) = (
            [(b[0] - a[0]) / l, (b[1] - a[1]) / l],
            [-(b[1] - a[1]) / l, (b[0] - a[0]) / l],
        );
        let mut s = 3.0;
        while s < l {
            let p = [a[0] + u[0] * s, a[1] + u[1] * s];
            stroke(
                &mut img,
                [p[0] - 4.0 * n[0], p[1] - 4.0 * n[1]],
                [p[0] + 4.0 * n[0], p[1] + 4.0 * n[1]],
                0.5,
                BLACK,
            );
            s += 6.0;
        }
    }
    // A blank label over the road's fourth crossing, 7 px across.
    let hidden = crossed(&grid, &road)[3];
    let [a, b] = grid.side_corners(hidden.0, hidden.1).unwrap();
    let mid = at([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
    dot(&mut img, mid, 3.5, PAPER);
    // A place name across 0808/N: letters 5 px wide, 9 px tall, 2 px apart.
    let lettered = grid.canonical_hexside(HexIndex::new(7, 7), N);
    let [a, b] = grid.side_corners(lettered.0, lettered.1).unwrap();
    let mid = at([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
    for letter in 0..6 {
        let x = mid[0] - 20.0 + 7.0 * f64::from(letter);
        stroke(&mut img, [x, mid[1] - 4.5], [x, mid[1] + 4.5], 0.6, BLACK);
        stroke(
            &mut img,
            [x, mid[1] - 4.5],
            [x + 5.0, mid[1] - 4.5],
            0.6,
            BLACK,
        );
        stroke(
            &mut img,
            [x + 5.0, mid[1] - 4.5],
            [x + 5.0, mid[1] + 4.5],
            0.6,
            BLACK,
        );
        stroke(&mut img, [x, mid[1]], [x + 5.0, mid[1] + 4.5], 0.6, BLACK);
    }
    draw(&mut img, &at);
    Sheet {
        grid,
        scan: Scan::from(img),
        m,
        road,
        railway,
        hidden,
        lettered,
    }
}

/// The sheet traced from two marked crossings of each line (the first and the last of its
/// path), per interior hexside.
fn traced(sheet: &Sheet) -> (Vec<(HexIndex, Side)>, Vec<Crossing>) {
    traced_with_water(sheet, &[])
}

/// [`traced`] keeping the lines' ink away from `water`'s.
fn traced_with_water(sheet: &Sheet, water: &[Lab]) -> (Vec<(HexIndex, Side)>, Vec<Crossing>) {
    let grid = &sheet.grid;
    let terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::from([(
        ".".to_owned(),
        vec![
            HexIndex::new(0, 0),
            HexIndex::new(9, 0),
            HexIndex::new(5, 4),
        ],
    )]);
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(
        &sheet.scan,
        grid,
        &sheet.m.into(),
        &terrain_samples,
        &options,
    )
    .unwrap();
    let hex = |i: HexIndex| terrain.get(grid, i).and_then(|s| s.colour);
    let colours = Colours {
        hex: &hex,
        terrain: terrain
            .hexes
            .iter()
            .filter(|s| s.marked)
            .filter_map(|s| s.colour)
            .collect(),
        grid_ink: Some(srgb_to_lab(LINE)),
    };
    let ends = |hexes: &[HexIndex]| {
        let all = crossed(grid, hexes);
        vec![all[0], all[all.len() - 1]]
    };
    let lines = [
        ThroughLine {
            crossed: ends(&sheet.road),
        },
        ThroughLine {
            crossed: ends(&sheet.railway),
        },
    ];
    let hexsides = interior_hexsides(grid);
    let crossings = trace_through(
        &sheet.scan,
        grid,
        &sheet.m.into(),
        &lines,
        &colours,
        water,
        &hexsides,
    )
    .unwrap();
    (hexsides, crossings)
}

#[test]
fn a_road_and_a_railway_of_one_ink_are_followed_through_the_hexes_and_told_apart() {
    let sheet = sheet();
    let (hexsides, crossings) = traced(&sheet);
    let at = |h: (HexIndex, Side)| crossings[hexsides.iter().position(|x| *x == h).unwrap()];
    let name = |h: (HexIndex, Side)| sheet.grid.hexside_ref(h.0, h.1);
    let road = crossed(&sheet.grid, &sheet.road);
    let railway = crossed(&sheet.grid, &sheet.railway);
    // Every crossing of the road is the road, sure: past the town's dot, under the label.
    for h in &road {
        let c = at(*h);
        assert_eq!(c.feature, Some(0), "{}: {c:?}", name(*h));
        assert!(c.confidence >= DOUBTFUL_BELOW, "{}: {c:?}", name(*h));
    }
    assert!(road.contains(&sheet.hidden));
    // Every crossing of the railway is the railway: the same ink, drawn otherwise.
    for h in &railway {
        let c = at(*h);
        assert_eq!(c.feature, Some(1), "{}: {c:?}", name(*h));
        assert!(c.confidence >= DOUBTFUL_BELOW, "{}: {c:?}", name(*h));
    }
    // The place name's letters across a side are no sure line.
    let c = at(sheet.lettered);
    assert!(
        c.feature.is_none() || c.confidence < DOUBTFUL_BELOW,
        "{}: {c:?}",
        name(sheet.lettered)
    );
    // No other hexside is crossed.
    for (h, c) in hexsides.iter().zip(&crossings) {
        if road.contains(h) || railway.contains(h) || *h == sheet.lettered {
            continue;
        }
        assert!(
            c.feature.is_none() || c.confidence < DOUBTFUL_BELOW,
            "{}: {c:?}",
            name(*h)
        );
        assert!(c.feature.is_none(), "{}: {c:?}", name(*h));
    }
}

#[test]
fn a_crossing_whose_line_stops_in_both_hexes_is_for_review() {
    let grid = grid();
    // A road through five hexes, and one crossing alone further off (letters across a side).
    let road = crossed(
        &grid,
        &path(
            &grid,
            HexIndex::new(1, 2),
            &[Side::SE, Side::NE, Side::SE, Side::NE],
        ),
    );
    let alone = grid.canonical_hexside(HexIndex::new(6, 6), Side::N);
    let hexsides: Vec<(HexIndex, Side)> = road.iter().copied().chain([alone]).collect();
    let mut decided: Vec<Crossing> = hexsides
        .iter()
        .map(|_| Crossing {
            feature: Some(0),
            confidence: SURE,
        })
        .collect();
    alone_for_review(&grid, &hexsides, &mut decided, &[0]);
    for (h, c) in hexsides.iter().zip(&decided) {
        let expected = if *h == alone { REVIEW } else { SURE };
        assert_eq!(c.confidence, expected, "{h:?}");
        assert_eq!(c.feature, Some(0));
    }
    // The end of a road (at the map's edge, in a town) goes on in one of its hexes: sure.
    assert_eq!(decided[0].confidence, SURE);
}

#[test]
fn a_road_between_two_bridges_is_a_line_though_shorter_than_one() {
    // A road crossing the side between 1001 and 1002 (a column no other line reaches), cut
    // 0.8 hex radius either side of it by a river's water (two bridges): 1.6 radii of ink,
    // under the 2 a line spans elsewhere.
    const WATER: [u8; 3] = [40, 120, 220];
    let grid = grid();
    let (upper, lower) = (HexIndex::new(9, 0), HexIndex::new(9, 1));
    let side = grid.canonical_hexside(upper, Side::S);
    let draw = |img: &mut image::RgbImage, at: &dyn Fn([f32; 2]) -> [f64; 2]| {
        let [a, b] = grid.side_corners(side.0, side.1).unwrap();
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        for dy in [-0.8f32, 0.8] {
            // The river, across the road's way, 5 px wide.
            stroke(
                img,
                at([mid[0] - 0.6, mid[1] + dy]),
                at([mid[0] + 0.6, mid[1] + dy]),
                2.5,
                WATER,
            );
        }
        stroke(
            img,
            at([mid[0], mid[1] - 0.8 + 0.05]),
            at([mid[0], mid[1] + 0.8 - 0.05]),
            1.5,
            BLACK,
        );
    };
    let sheet = sheet_with(draw);
    assert!(!sheet.road.contains(&upper) && !sheet.railway.contains(&upper));
    assert!(!sheet.road.contains(&lower) && !sheet.railway.contains(&lower));
    let (hexsides, crossings) = traced_with_water(&sheet, &[srgb_to_lab(WATER)]);
    let c = crossings[hexsides.iter().position(|x| *x == side).unwrap()];
    // Found as the road; it goes into no other side of its hexes, so it is for review.
    assert_eq!(c.feature, Some(0), "{c:?}");
    // Without water at its ends the same short piece is a word or a symbol: no line.
    let (hexsides, crossings) = traced(&sheet);
    let dry = crossings[hexsides.iter().position(|x| *x == side).unwrap()];
    assert!(
        dry.feature.is_none() || dry.confidence < DOUBTFUL_BELOW,
        "{dry:?}"
    );
}

/// A railway in the grid line's grey, down from `a` to `b` (pixels): a pixel-wide rail, ties
/// every 6 px.
fn grey_railway(img: &mut image::RgbImage, a: [f64; 2], b: [f64; 2]) {
    stroke(img, a, b, 0.5, LINE);
    let mut y = a[1] + 3.0;
    while y < b[1] {
        stroke(img, [a[0] - 4.0, y], [a[0] + 4.0, y], 0.5, LINE);
        y += 6.0;
    }
}

#[test]
fn a_line_in_the_grid_lines_grey_crossing_sides_puts_them_up_for_review() {
    // A railway printed in the grid line's own grey (as tld's): a pixel-wide rail with ties,
    // down column 10 from 1001 to 1004. Neither marked line's ink: the trace cannot say what
    // it is, but the sides it crosses are not surely crossed by nothing.
    let grid = grid();
    let hexes: Vec<HexIndex> = (0..4).map(|row| HexIndex::new(9, row)).collect();
    let draw = |img: &mut image::RgbImage, at: &dyn Fn([f32; 2]) -> [f64; 2]| {
        grey_railway(img, at(grid.centre(hexes[0])), at(grid.centre(hexes[3])));
    };
    let sheet = sheet_with(draw);
    for h in &hexes {
        assert!(!sheet.road.contains(h) && !sheet.railway.contains(h));
    }
    let (hexsides, crossings) = traced(&sheet);
    let grey = crossed(&grid, &hexes);
    for h in &grey {
        let c = crossings[hexsides.iter().position(|x| x == h).unwrap()];
        assert!(
            c.confidence < DOUBTFUL_BELOW,
            "{}: {c:?}",
            grid.hexside_ref(h.0, h.1)
        );
    }
    // The grid line alone (its grey on every side) puts no side up for review: every side
    // nothing is drawn across is surely crossed by nothing.
    let road = crossed(&grid, &sheet.road);
    let railway = crossed(&grid, &sheet.railway);
    let near_a_line = |h: &(HexIndex, Side)| {
        let of = |i: HexIndex| {
            sheet.road.contains(&i) || sheet.railway.contains(&i) || hexes.contains(&i)
        };
        of(h.0) || grid.neighbour(h.0, h.1).is_some_and(of)
    };
    let mut checked = 0;
    for (h, c) in hexsides.iter().zip(&crossings) {
        if road.contains(h) || railway.contains(h) || grey.contains(h) || *h == sheet.lettered {
            continue;
        }
        if near_a_line(h) {
            continue;
        }
        checked += 1;
        assert_eq!(
            *c,
            Crossing {
                feature: None,
                confidence: 1.0
            },
            "{}",
            grid.hexside_ref(h.0, h.1)
        );
    }
    assert!(checked > 40, "{checked}");
}

#[test]
fn a_line_in_the_grid_lines_grey_cut_by_a_box_at_a_side_still_puts_it_up_for_review() {
    // The grey railway of the test above, a blank box half a hex radius long over its middle
    // crossing (a bridge's box, a label): its ink stops short of the side on both sides.
    let grid = grid();
    let hexes: Vec<HexIndex> = (0..4).map(|row| HexIndex::new(9, row)).collect();
    let boxed = grid.canonical_hexside(hexes[1], Side::S);
    let draw = |img: &mut image::RgbImage, at: &dyn Fn([f32; 2]) -> [f64; 2]| {
        grey_railway(img, at(grid.centre(hexes[0])), at(grid.centre(hexes[3])));
        let [c, d] = grid.side_corners(boxed.0, boxed.1).unwrap();
        let mid = at([(c[0] + d[0]) / 2.0, (c[1] + d[1]) / 2.0]);
        for dy in -8..=8 {
            for dx in -6..=6 {
                let (x, y) = (mid[0] + f64::from(dx), mid[1] + f64::from(dy));
                img.put_pixel(x as u32, y as u32, image::Rgb(PAPER));
            }
        }
    };
    let sheet = sheet_with(draw);
    let (hexsides, crossings) = traced(&sheet);
    let c = crossings[hexsides.iter().position(|x| *x == boxed).unwrap()];
    assert!(
        c.confidence < DOUBTFUL_BELOW,
        "{}: {c:?}",
        grid.hexside_ref(boxed.0, boxed.1)
    );
}
