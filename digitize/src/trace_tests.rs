//! The features followed as drawn lines ([`super::trace`]).

use std::collections::BTreeMap;

use bataille_schema::map::{HexNaming, Orientation, Shifted};

use super::*;
use crate::calibrate::{Matrix, apply, invert};
use crate::classify::{ClassifyOptions, suggest_terrain};
use crate::colour::srgb_to_lab;

const PAPER: [u8; 3] = [236, 230, 205];
const LINE: [u8; 3] = [90, 90, 90];
const BLUE: [u8; 3] = [40, 90, 200];
/// The hex the second river hugs (0702).
const SECOND: HexIndex = HexIndex::new(6, 1);

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Even,
        first_column: 1,
        first_row: 1,
        columns: 9,
        rows: 7,
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

/// A printed sheet: grey grid lines, a blue river hugging four sides of hex 0403 a few
/// pixels inside them (wiggling, cutting the corners, a bridge gap on one side), a blue
/// label (letters) beside another hexside and a blue lake filling hex 0806.
/// The river is drawn `river_px` pixels either side of its middle; with `second`, a second
/// river of the same ink, apart from the first, hugs hex 0702 likewise.
fn sheet_with(m: &Matrix, river_px: f64, second: bool) -> Scan {
    let grid = grid();
    let mut img = image::RgbImage::from_pixel(420, 330, image::Rgb(PAPER));
    let at = |p: [f64; 2]| apply(m, p);
    let lake = HexIndex::new(7, 5);
    let [cx, cy] = grid.centre(lake);
    for y in 0..330u32 {
        for x in 0..420u32 {
            let p = apply(
                &invert(m).unwrap(),
                [f64::from(x) + 0.5, f64::from(y) + 0.5],
            );
            if grid.hex_at([p[0] as f32, p[1] as f32]) == Some(lake)
                && (p[0] - f64::from(cx)).hypot(p[1] - f64::from(cy)) < 2.0
            {
                img.put_pixel(x, y, image::Rgb(BLUE));
            }
        }
    }
    for index in grid.indices() {
        for side in sides(grid.orientation) {
            let [a, b] = grid.side_corners(index, side).unwrap();
            for s in 0..=60 {
                let t = f64::from(s) / 60.0;
                let p = [
                    f64::from(a[0]) + t * f64::from(b[0] - a[0]),
                    f64::from(a[1]) + t * f64::from(b[1] - a[1]),
                ];
                dot(&mut img, at(p), 0.6, LINE);
            }
        }
    }
    // The river: around hex 0403 (index 3, 2) at 0.68 of its radius, wiggling, with a bridge
    // gap a fifth of the way along its north-east side; the second, around 0702 (index 6, 1),
    // without one.
    let mut rivers = vec![(HexIndex::new(3, 2), true)];
    if second {
        rivers.push((SECOND, false));
    }
    for (river, bridged) in rivers {
        let [cx, cy] = grid.centre(river);
        let (cx, cy) = (f64::from(cx), f64::from(cy));
        for s in 0..=400 {
            // From the north-west corner's angle through north, north-east, south-east, south.
            let angle = (-120.0 + 240.0 * f64::from(s) / 400.0f64).to_radians();
            let wiggle = 0.04 * (f64::from(s) * 0.3).sin();
            let r = 0.68 + wiggle;
            let p = [cx + r * angle.cos(), cy + r * angle.sin()];
            if bridged && (130..=142).contains(&s) {
                continue;
            }
            dot(&mut img, at(p), river_px, BLUE);
        }
    }
    // A label: letters beside hexside 0206/N.
    let [lx, ly] = grid.centre(HexIndex::new(1, 5));
    for letter in 0..5 {
        let p = at([
            f64::from(lx) - 0.5 + 0.22 * f64::from(letter),
            f64::from(ly) - 0.7,
        ]);
        for k in 0..4 {
            dot(&mut img, [p[0], p[1] + f64::from(k)], 1.0, BLUE);
        }
    }
    Scan::from(img)
}

/// The sheet traced: its grid, the river line (marked on hex 0403's N and S), the trace and
/// the hexsides in its order.
fn traced_sheet() -> (Grid, [Line; 1], Trace, Vec<(HexIndex, Side)>) {
    traced_sheet_as(true, HexsideSymbol::River)
}

/// The same sheet with its line declared as `symbol` (`water` or not).
fn traced_sheet_as(
    water: bool,
    symbol: HexsideSymbol,
) -> (Grid, [Line; 1], Trace, Vec<(HexIndex, Side)>) {
    traced_sheet_with(water, symbol, 1.6, false)
}

/// With `second`, the sheet has the second river and the line is marked on it (0702's N and
/// S), not on the river round 0403.
fn traced_sheet_with(
    water: bool,
    symbol: HexsideSymbol,
    river_px: f64,
    second: bool,
) -> (Grid, [Line; 1], Trace, Vec<(HexIndex, Side)>) {
    let grid = grid();
    let m = [30.0, 0.0, 30.0, 0.0, 30.0, 30.0, 0.0, 0.0, 1.0];
    let scan = sheet_with(&m, river_px, second);
    let river = if second { SECOND } else { HexIndex::new(3, 2) };
    let terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::from([
        (
            ".".to_owned(),
            vec![HexIndex::new(0, 0), HexIndex::new(5, 1)],
        ),
        ("~".to_owned(), vec![HexIndex::new(7, 5)]),
    ]);
    let options = ClassifyOptions::default();
    let terrain = suggest_terrain(&scan, &grid, &m.into(), &terrain_samples, &options).unwrap();
    let n = grid.canonical_hexside(river, Side::N);
    let s = grid.canonical_hexside(river, Side::S);
    let lines = [Line {
        marked: vec![n, s],
        water,
        bridge: false,
        symbol: Some(symbol),
    }];
    let hex = |i: HexIndex| terrain.get(&grid, i).and_then(|s| s.colour);
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
    let hexsides = crate::classify::interior_hexsides(&grid);
    let trace = trace(&scan, &grid, &m.into(), &lines, &colours, &hexsides);
    (grid, lines, trace, hexsides)
}

#[test]
fn a_river_drawn_beside_the_sides_is_followed_across_a_bridge_and_labels_and_lakes_are_not_lines() {
    // The line is marked on the second river (0702's N and S); the river round 0403 is the
    // same ink apart from it.
    let (grid, lines, trace, hexsides) = traced_sheet_with(true, HexsideSymbol::River, 1.6, true);
    let river = HexIndex::new(3, 2);
    let side = |name: &str| grid.parse_hexside(name).unwrap();
    assert_eq!(trace.reliable, [true]);
    let coverage = |h: (HexIndex, Side)| {
        let h = grid.canonical_hexside(h.0, h.1);
        trace.coverage[hexsides.iter().position(|x| *x == h).unwrap()][0]
    };
    // Along the river: most of each side, the bridged one too.
    for side in [Side::N, Side::NE, Side::SE, Side::S] {
        assert!(
            coverage((river, side)) >= FOUND,
            "{side:?}: {}",
            coverage((river, side))
        );
    }
    // Not along the other sides, the label's, or the lake's.
    assert!(coverage((river, Side::SW)) < PART);
    assert!(coverage((river, Side::NW)) < PART);
    assert_eq!(coverage(side("0206/N")), 0.0);
    for side in sides(grid.orientation) {
        assert_eq!(
            coverage((HexIndex::new(7, 5), side)),
            0.0,
            "the lake's {side:?}"
        );
    }
    // As suggestions: where the patch model was unsure (plain at 0.4), the unmarked sides of
    // each river carry it (0702's NE and SE, 0403's N, NE, SE and S), nothing else. Where it was sure of plain (0.9), the marked
    // river's still carry it (the user marked that line: the trace follows it from there),
    // the other river's are for review (ink of that colour apart from what the user marked
    // may be letters or a symbol).
    let names = |hex: HexIndex, sides: &[Side]| -> Vec<String> {
        let mut v: Vec<String> = sides
            .iter()
            .map(|s| grid.hexside_ref(hex, *s).to_string())
            .collect();
        v.sort();
        v
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let joined = names(SECOND, &[Side::NE, Side::SE]);
    let apart = names(river, &[Side::N, Side::NE, Side::SE, Side::S]);
    for (plain, painted) in [(0.4, true), (0.9, false)] {
        let mut decisions: Vec<Decision> = hexsides
            .iter()
            .map(|h| Decision {
                feature: None,
                confidence: plain,
                marked: lines[0].marked.contains(h),
            })
            .collect();
        apply_trace(
            &grid,
            &lines,
            &trace,
            &hexsides,
            &mut decisions,
            &|_| false,
            0.25,
        );
        let named = |keep: &dyn Fn(&Decision) -> bool| -> Vec<String> {
            hexsides
                .iter()
                .zip(&decisions)
                .filter(|(_, d)| !d.marked && keep(d))
                .map(|(h, _)| grid.hexside_ref(h.0, h.1).to_string())
                .collect()
        };
        let found = sorted(named(&|d| d.feature.is_some()));
        let review = sorted(named(&|d| d.confidence < 0.25));
        if painted {
            assert_eq!(found, sorted([apart.clone(), joined.clone()].concat()));
            assert!(review.is_empty(), "{review:?}");
        } else {
            assert_eq!(found, joined);
            assert_eq!(review, apart);
        }
    }
}

#[test]
fn a_river_drawn_as_a_wide_band_is_a_line_and_the_lake_still_a_blob() {
    // The band is a third of a hex radius wide (10 px at 30 px a radius), deeper than the
    // 0.11 hex radius that makes a blob; it is as deep along the marked hexsides, so it is the
    // line as the user marked it. The lake, far deeper, is still not a line.
    let (grid, _, trace, hexsides) = traced_sheet_with(true, HexsideSymbol::River, 5.0, false);
    let coverage = |h: (HexIndex, Side)| {
        let h = grid.canonical_hexside(h.0, h.1);
        trace.coverage[hexsides.iter().position(|x| *x == h).unwrap()][0]
    };
    assert_eq!(trace.reliable, [true]);
    let river = HexIndex::new(3, 2);
    for side in [Side::N, Side::NE, Side::SE, Side::S] {
        assert!(
            coverage((river, side)) >= FOUND,
            "{side:?}: {}",
            coverage((river, side))
        );
    }
    for side in sides(grid.orientation) {
        assert_eq!(
            coverage((HexIndex::new(7, 5), side)),
            0.0,
            "the lake's {side:?}"
        );
    }
}

#[test]
fn a_river_the_patch_model_missed_surely_is_assigned_when_it_runs_on_to_found_hexsides() {
    // The patch model is sure every unmarked hexside is plain (0.9): the band it learnt from
    // two hexsides looks different elsewhere. The line is marked on the second river (0702);
    // the trace follows it from there round that hex, so its sides between the marked ones
    // carry it. The river round 0403, apart from it, carries it only between hexsides the
    // patch model found carrying it (0403's N and S, sure) when they are; without a found
    // feature at its ends a traced side stays for review only.
    let (grid, lines, trace, hexsides) = traced_sheet_with(true, HexsideSymbol::River, 5.0, true);
    let river = HexIndex::new(3, 2);
    let ends = [Side::N, Side::S].map(|s| grid.canonical_hexside(river, s));
    for found_ends in [true, false] {
        let mut decisions: Vec<Decision> = hexsides
            .iter()
            .map(|h| {
                let marked = lines[0].marked.contains(h);
                Decision {
                    feature: (marked || found_ends && ends.contains(h)).then_some(0),
                    confidence: 0.9,
                    marked,
                }
            })
            .collect();
        apply_trace(
            &grid,
            &lines,
            &trace,
            &hexsides,
            &mut decisions,
            &|_| false,
            0.25,
        );
        let mut found: Vec<String> = hexsides
            .iter()
            .zip(&decisions)
            .filter(|(h, d)| !d.marked && !ends.contains(h) && d.feature.is_some())
            .map(|(h, _)| grid.hexside_ref(h.0, h.1).to_string())
            .collect();
        found.sort();
        let hexes = if found_ends {
            vec![SECOND, river]
        } else {
            vec![SECOND]
        };
        let mut expected: Vec<String> = hexes
            .iter()
            .flat_map(|hex| [Side::NE, Side::SE].map(|s| grid.hexside_ref(*hex, s).to_string()))
            .collect();
        expected.sort();
        assert_eq!(found, expected, "found at the ends: {found_ends}");
    }
}

#[test]
fn a_doubtful_suggestion_the_trace_clearly_agrees_with_leaves_the_review_queue() {
    let (grid, lines, trace, hexsides) = traced_sheet();
    let river = HexIndex::new(3, 2);
    let at = |h: (HexIndex, Side)| {
        let h = grid.canonical_hexside(h.0, h.1);
        hexsides.iter().position(|x| *x == h).unwrap()
    };
    // The patch model in doubt everywhere (a textured sheet): plain at 0.1, except a river
    // suggested along the river's NE side (right) and along its NW side (wrong: the river
    // only touches its ends).
    let run = |wet: bool| -> Vec<Decision> {
        let mut decisions: Vec<Decision> = hexsides
            .iter()
            .map(|h| Decision {
                feature: None,
                confidence: 0.1,
                marked: lines[0].marked.contains(h),
            })
            .collect();
        for side in [Side::NE, Side::NW] {
            decisions[at((river, side))].feature = Some(0);
        }
        apply_trace(
            &grid,
            &lines,
            &trace,
            &hexsides,
            &mut decisions,
            &|_| wet,
            0.25,
        );
        decisions
    };
    let decisions = run(false);
    let sure = |h: (HexIndex, Side)| decisions[at(h)].confidence >= 0.25;
    // Agreed: the river where its line runs along the side, plain where no line is near
    // (0206/N, beside the blue label's letters) or only near its ends (the river's SW side: the
    // river turns at its corners).
    assert!(sure((river, Side::NE)));
    assert_eq!(decisions[at((river, Side::NE))].feature, Some(0));
    assert!(sure(grid.parse_hexside("0206/N").unwrap()));
    let sw = at((river, Side::SW));
    assert!(
        sure((river, Side::SW)),
        "{} {} {}",
        trace.coverage[sw][0],
        trace.middle[sw][0],
        decisions[sw].confidence
    );
    assert_eq!(decisions[sw].feature, None);
    // Disagreed: the river suggested where the trace finds no line along the side stays in
    // the queue.
    assert!(!sure((river, Side::NW)));
    assert_eq!(decisions[at((river, Side::NW))].feature, Some(0));
    // Beside water the two readings are not independent (a bank looks like a water feature
    // to both): nothing leaves the queue.
    let wet = run(true);
    for (i, d) in wet.iter().enumerate() {
        assert!(d.marked || d.confidence < 0.25, "{:?}", hexsides[i]);
    }
}

/// A fortification line (or a road) drawn along hexsides is followed as a line too: where the
/// patch model is unsure, the sides its own ink runs along, linked into the line at both ends,
/// carry it (at most [`LINE_SURE`] sure); where the patch model is sure of plain they are for
/// review; the label beside another side is not a line.
#[test]
fn a_fortification_line_drawn_along_the_sides_is_assigned_by_its_geometry() {
    let (grid, lines, trace, hexsides) = traced_sheet_as(false, HexsideSymbol::Fortification);
    let hex = HexIndex::new(3, 2);
    assert_eq!(trace.reliable, [true]);
    // The marked hexsides carry their feature, as in the pipeline: the two sides between them
    // are a gap in the line.
    let expected: Vec<String> = [Side::NE, Side::SE]
        .iter()
        .map(|s| grid.hexside_ref(hex, *s).to_string())
        .collect();
    for (plain, assigned) in [(0.4, true), (0.9, false)] {
        let mut decisions: Vec<Decision> = hexsides
            .iter()
            .map(|h| {
                let marked = lines[0].marked.contains(h);
                Decision {
                    feature: marked.then_some(0),
                    confidence: if marked { 1.0 } else { plain },
                    marked,
                }
            })
            .collect();
        apply_trace(
            &grid,
            &lines,
            &trace,
            &hexsides,
            &mut decisions,
            &|_| false,
            0.25,
        );
        let named = |keep: &dyn Fn(&Decision) -> bool| -> Vec<String> {
            hexsides
                .iter()
                .zip(&decisions)
                .filter(|(_, d)| !d.marked && keep(d))
                .map(|(h, _)| grid.hexside_ref(h.0, h.1).to_string())
                .collect()
        };
        let found = named(&|d| d.feature.is_some());
        let review = named(&|d| d.confidence < 0.25);
        if assigned {
            assert_eq!(found, expected);
            assert!(review.is_empty(), "{review:?}");
            for (h, d) in hexsides.iter().zip(&decisions) {
                if d.feature.is_some() && !d.marked {
                    assert!(
                        (0.25..=LINE_SURE).contains(&d.confidence),
                        "{h:?} {}",
                        d.confidence
                    );
                }
            }
        } else {
            assert!(found.is_empty(), "{found:?}");
            assert_eq!(review, expected);
        }
    }
}

/// The ink joined to the marked places: pieces of one line cut by a bridge (a gap up to the
/// given size) are one line; a piece further off (letters of the same ink) is not.
#[test]
fn the_ink_joined_to_the_marked_line_crosses_a_bridge_and_leaves_letters_apart() {
    let (w, h) = (60, 20);
    let mut mask = vec![false; w * h];
    // A line along row 5: x 0..20, a gap of 4 cells, x 24..40; letters at x 48..56, row 15.
    for x in (0..20).chain(24..40) {
        mask[5 * w + x] = true;
    }
    for x in 48..56 {
        mask[15 * w + x] = true;
    }
    let joined = |gap: usize| -> Vec<usize> {
        let j = super::morphology::joined_to(&mask, w, h, &[(2, 5)], 1, gap);
        (0..w * h).filter(|i| j[*i]).collect()
    };
    let line: Vec<usize> = (0..20).chain(24..40).map(|x| 5 * w + x).collect();
    assert_eq!(joined(5), line);
    assert_eq!(joined(2), (0..20).map(|x| 5 * w + x).collect::<Vec<_>>());
    // Nothing is joined to a place with no ink near it.
    let none = super::morphology::joined_to(&mask, w, h, &[(30, 15)], 1, 5);
    assert!(none.iter().all(|j| !j));
}
