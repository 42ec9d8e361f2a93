//! Refining on the print ([`super`]).

use super::*;
use crate::calibrate::fit;
use bataille_schema::map::{HexNaming, Orientation, Shifted};

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: 14,
        rows: 10,
        hex_names: HexNaming::default(),
    }
}

/// A sheet of hex outlines (2 px dark lines on cream paper) under `m`, bent by `bend`
/// (image pixels → displacement), with a blue line 4 px beside some sides (a river drawn
/// beside the grid line) and dark labels over others.
fn sheet(grid: &Grid, m: &Matrix, bend: &dyn Fn([f64; 2]) -> [f64; 2]) -> Scan {
    let (w, h) = (620u32, 560u32);
    let inverse = invert(m).unwrap();
    let apothem = 3f64.sqrt() / 2.0;
    let scale = local_scale(m, [5.0, 5.0]);
    let image = image::RgbImage::from_fn(w, h, |i, j| {
        let x = [f64::from(i) + 0.5, f64::from(j) + 0.5];
        let d = bend(x);
        let g = apply(&inverse, [x[0] - d[0], x[1] - d[1]]);
        let Some(hex) = grid.hex_at([g[0] as f32, g[1] as f32]) else {
            return image::Rgb([90, 90, 90]);
        };
        let [cx, cy] = grid.centre(hex);
        let (dx, dy) = (g[0] - f64::from(cx), g[1] - f64::from(cy));
        let mut edge = f64::INFINITY;
        for k in 0..6 {
            let a = (f64::from(k) * 60.0 + 30.0).to_radians();
            edge = edge.min(apothem - (dx * a.cos() + dy * a.sin()));
        }
        let px = edge * scale;
        if px < 1.0 {
            return image::Rgb([40, 35, 30]);
        }
        // A river 4 px inside the east sides of column 5's hexes.
        if hex.col == 5 && dx > 0.3 && (px - 5.0).abs() < 1.5 {
            return image::Rgb([40, 90, 200]);
        }
        // Labels: dark blocks over the middle of the north side of some hexes.
        if (hex.col + hex.row) % 7 == 0 && dy < -0.6 && dx.abs() < 0.3 {
            return image::Rgb([20, 20, 20]);
        }
        image::Rgb([235, 225, 195])
    });
    Scan::from(image)
}

fn centre_error(grid: &Grid, truth: &dyn Fn([f64; 2]) -> [f64; 2], r: &Refinement) -> f64 {
    grid.indices()
        .map(|i| {
            let [x, y] = grid.centre(i);
            let g = [f64::from(x), f64::from(y)];
            let (a, b) = (truth(g), r.map(g));
            (a[0] - b[0]).hypot(a[1] - b[1])
        })
        .fold(0.0, f64::max)
}

#[test]
fn two_rough_clicks_are_refined_to_the_printed_grid_and_a_bad_click_is_named() {
    let grid = grid();
    let m = [24.0, 1.2, 40.0, -0.9, 23.5, 45.0, 0.0, 0.0, 1.0];
    let scan = sheet(&grid, &m, &|_| [0.0, 0.0]);
    let centre = |i: HexIndex| {
        let [x, y] = grid.centre(i);
        [f64::from(x), f64::from(y)]
    };
    // Two clicks 2 px off in opposite directions: the similarity from them is several px
    // off at the far corners.
    let (a, b) = (centre(HexIndex::new(1, 1)), centre(HexIndex::new(4, 3)));
    let pa = apply(&m, a);
    let pb = apply(&m, b);
    let start = fit(
        FitKind::Similarity,
        &[
            (a, [pa[0] + 2.0, pa[1] - 2.0]),
            (b, [pb[0] - 2.0, pb[1] + 2.0]),
        ],
    )
    .unwrap();
    let before = grid
        .indices()
        .map(|i| {
            let (p, q) = (apply(&m, centre(i)), apply(&start.grid_to_image, centre(i)));
            (p[0] - q[0]).hypot(p[1] - q[1])
        })
        .fold(0.0, f64::max);
    assert!(before > 5.0, "{before}");
    let r = refine(
        &scan,
        &grid,
        &start.grid_to_image,
        &[a, b],
        FitKind::Similarity,
        &RefineOptions::default(),
    )
    .unwrap();
    let error = centre_error(&grid, &|g| apply(&m, g), &r);
    assert!(
        error < 0.5,
        "worst centre {error:.2} px off (before {before:.2})"
    );
    assert!(r.lines_found * 10 > r.sides_probed * 8, "{r:?}");
    // A click 1.5 px off agrees with the print; one 9 px off does not.
    let clicks = [
        ("0202".to_owned(), a, [pa[0] + 1.5, pa[1]]),
        ("0504".to_owned(), b, [pb[0] + 9.0, pb[1]]),
    ];
    let checked = check_clicks(&r, &clicks);
    assert!(!checked[0].suspect && checked[1].suspect, "{checked:?}");
    assert!(
        checked[1]
            .message()
            .starts_with("0504 is 9.0 px from the centre the printed grid lines give it"),
        "{}",
        checked[1].message()
    );
}

#[test]
fn a_bowed_sheet_gets_a_local_correction() {
    let grid = grid();
    let m = [24.0, 0.0, 40.0, 0.0, 24.0, 45.0, 0.0, 0.0, 1.0];
    // Up to 4 px, smooth over the sheet.
    let bend = |x: [f64; 2]| {
        let s = (std::f64::consts::PI * x[1] / 560.0).sin();
        [
            4.0 * s * (x[0] / 310.0 - 1.0),
            2.5 * (std::f64::consts::PI * x[0] / 620.0).sin(),
        ]
    };
    let scan = sheet(&grid, &m, &bend);
    let truth = |g: [f64; 2]| {
        let p = apply(&m, g);
        let mut x = p;
        for _ in 0..5 {
            let d = bend(x);
            x = [p[0] + d[0], p[1] + d[1]];
        }
        x
    };
    let clicked: Vec<[f64; 2]> = [
        HexIndex::new(1, 1),
        HexIndex::new(12, 8),
        HexIndex::new(12, 1),
    ]
    .iter()
    .map(|i| {
        let [x, y] = grid.centre(*i);
        [f64::from(x), f64::from(y)]
    })
    .collect();
    let pairs: Vec<([f64; 2], [f64; 2])> = clicked.iter().map(|g| (*g, truth(*g))).collect();
    let start = fit(FitKind::Affine, &pairs).unwrap();
    let flat = refine(
        &scan,
        &grid,
        &start.grid_to_image,
        &clicked,
        FitKind::Affine,
        &RefineOptions { local: false },
    )
    .unwrap();
    let bent = refine(
        &scan,
        &grid,
        &start.grid_to_image,
        &clicked,
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let (e_flat, e_bent) = (
        centre_error(&grid, &truth, &flat),
        centre_error(&grid, &truth, &bent),
    );
    assert!(bent.mapping.warp.is_some(), "{e_bent} vs {e_flat}");
    assert!(e_flat > 1.5, "{e_flat}");
    assert!(
        e_bent < 1.0 && e_bent < 0.6 * e_flat,
        "{e_bent} vs {e_flat}"
    );
}

#[test]
fn a_sheet_without_lines_keeps_the_clicks_fit() {
    let grid = grid();
    let image = image::RgbImage::from_pixel(400, 300, image::Rgb([230, 220, 200]));
    let m = [20.0, 0.0, 30.0, 0.0, 20.0, 30.0, 0.0, 0.0, 1.0];
    let result = refine(
        &Scan::from(image),
        &grid,
        &m,
        &[[0.0, 0.0], [9.0, 5.2]],
        FitKind::Affine,
        &RefineOptions::default(),
    );
    assert!(
        matches!(result, Err(RefineError::NoPrintedLines { .. })),
        "{result:?}"
    );
}

/// A line a couple of pixels from where the model puts it is found when the search reaches
/// it: the ridge (which reads the paper `gap` beyond the line) is looked for over the whole
/// search, the profile reading `gap` further out; and it is not found at a search that stops
/// short of it.
#[test]
fn a_line_within_the_search_is_found_and_one_beyond_it_is_not() {
    for line_y in [47.5, 48.5, 51.5, 52.5] {
        let image = image::RgbImage::from_fn(100, 100, |_, j| {
            if (f64::from(j) + 0.5 - line_y).abs() < 1.0 {
                image::Rgb([40, 35, 30])
            } else {
                image::Rgb([235, 225, 195])
            }
        });
        let scan = Scan::from(image);
        let (offset, ridge) =
            find_line(&scan, [50.0, 50.0], [1.0, 0.0], [0.0, 1.0], 8.0, 3.2, 2.6).unwrap();
        assert!(
            (offset - (line_y - 50.0)).abs() < 0.3,
            "line at {line_y}: found at offset {offset:.2}"
        );
        assert!(ridge > 40.0, "line at {line_y}: ridge {ridge}");
        // Searching ±0.6 px, only the line's flank is seen.
        let short = find_line(&scan, [50.0, 50.0], [1.0, 0.0], [0.0, 1.0], 8.0, 0.6, 2.6);
        assert!(
            short.is_none_or(|(_, r)| r < 0.5 * ridge),
            "line at {line_y}: {short:?}"
        );
    }
}

/// On the final rounds a side is searched as near the fit as its scatter allows, but at
/// least twice as far as the last fit moved the grid there (half a pixel or more), never
/// wider than the first rounds.
#[test]
fn the_final_search_reaches_as_far_as_the_grid_just_moved() {
    assert_eq!(final_search(13.0, 1.2, 0.0), 1.2);
    assert_eq!(final_search(13.0, 1.2, 0.55), 1.2);
    assert_eq!(final_search(13.0, 1.2, 2.0), 4.0);
    assert_eq!(final_search(13.0, 1.2, 40.0), 13.0);
    // A move under half a pixel does not widen a search the scatter left empty.
    assert_eq!(final_search(13.0, -0.4, 0.3), -0.4);
    assert_eq!(final_search(13.0, -0.4, 0.6), 1.2);
}

/// The banded solve gives the dense solve's answer on a banded system, and `None` on one
/// that is not positive definite.
#[test]
fn the_banded_solve_matches_the_dense_one() {
    let n = 30;
    let band = 7;
    let mut a = vec![0.0; n * n];
    let mut rng = crate::synth::Rng::new(5);
    for i in 0..n {
        for k in i..n.min(i + band + 1) {
            let v = if k == i { 20.0 } else { rng.range(-1.0, 1.0) };
            a[i * n + k] = v;
            a[k * n + i] = v;
        }
    }
    let b: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
    let dense = solve_spd(a.clone(), b.clone(), n, n).unwrap();
    let banded = solve_spd(a.clone(), b.clone(), n, band).unwrap();
    for (x, y) in dense.iter().zip(&banded) {
        assert!((x - y).abs() < 1e-12, "{x} vs {y}");
    }
    // And it solves the system.
    for i in 0..n {
        let r: f64 = (0..n).map(|k| a[i * n + k] * banded[k]).sum::<f64>() - b[i];
        assert!(r.abs() < 1e-9, "row {i}: {r}");
    }
    a[0] = -1.0;
    assert!(solve_spd(a, b, n, band).is_none());
}

/// A sheet printed from hex centres (pixels, `moved` off the lattice `m`): each pixel is the
/// nearest centre's, a 3 px line where two cells meet — so moving one hex's centre by `d`
/// moves each of its sides by half of `d` across it, as a hex printed off the lattice.
fn printed_from_centres(grid: &Grid, m: &Matrix, moved: &dyn Fn(HexIndex) -> [f64; 2]) -> Scan {
    printed_lines(grid, m, (700, 600), 1.5, moved)
}

/// [`printed_from_centres`] on a `size` sheet with lines `2 × half_width` px wide.
fn printed_lines(
    grid: &Grid,
    m: &Matrix,
    size: (u32, u32),
    half_width: f64,
    moved: &dyn Fn(HexIndex) -> [f64; 2],
) -> Scan {
    let inverse = invert(m).unwrap();
    let centre = |i: HexIndex| {
        let [x, y] = grid.centre(i);
        let p = apply(m, [f64::from(x), f64::from(y)]);
        let d = moved(i);
        [p[0] + d[0], p[1] + d[1]]
    };
    let image = image::RgbImage::from_fn(size.0, size.1, |i, j| {
        let x = [f64::from(i) + 0.5, f64::from(j) + 0.5];
        let g = apply(&inverse, x);
        let Some(hex) = grid.hex_at([g[0] as f32, g[1] as f32]) else {
            return image::Rgb([235, 225, 195]);
        };
        let mut near: Vec<(f64, [f64; 2])> = std::iter::once(hex)
            .chain(
                sides(grid.orientation)
                    .iter()
                    .filter_map(|s| grid.neighbour(hex, *s)),
            )
            .map(|c| {
                let p = centre(c);
                ((p[0] - x[0]).hypot(p[1] - x[1]), p)
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let ((d1, p1), (d2, p2)) = (near[0], near[1]);
        let between = (p1[0] - p2[0]).hypot(p1[1] - p2[1]);
        if (d2 * d2 - d1 * d1) / (2.0 * between) < half_width {
            image::Rgb([40, 35, 30])
        } else {
            image::Rgb([235, 225, 195])
        }
    });
    Scan::from(image)
}

#[test]
fn a_hex_printed_off_the_lattice_gets_its_own_centre_and_a_regular_print_none() {
    let grid = grid();
    let m = [30.0, 0.0, 45.0, 0.0, 30.0, 45.0, 0.0, 0.0, 1.0];
    let clicked = [[1.5, 1.7], [15.0, 12.1]];
    let refined = |scan: &Scan| {
        refine(
            scan,
            &grid,
            &m,
            &clicked,
            FitKind::Affine,
            &RefineOptions::default(),
        )
        .unwrap()
    };
    // A regular print: no hex takes its own reading.
    let regular = refined(&printed_from_centres(&grid, &m, &|_| [0.0, 0.0]));
    assert_eq!(regular.mapping.hex_shifts, None);
    // One hex printed 3.6 px off: its sides 1.8 px off at most, its centre from them half of it.
    let odd = HexIndex::new(6, 4);
    let scan = printed_from_centres(&grid, &m, &|i| {
        if i == odd { [3.0, -2.0] } else { [0.0, 0.0] }
    });
    let r = refined(&scan);
    let shifts = r
        .mapping
        .hex_shifts
        .as_ref()
        .expect("a hex with its own centre");
    let slot = |i: HexIndex| i.row as usize * grid.columns as usize + i.col as usize;
    let s = shifts[slot(odd)];
    assert!((s[0] - 1.5).hypot(s[1] + 1.0) < 0.35, "{s:?}");
    for i in grid.indices().filter(|i| *i != odd) {
        assert_eq!(shifts[slot(i)], [0.0, 0.0], "{}", grid.name(i));
    }
    // Its disc is read there; the lattice stays for the others.
    let [x, y] = grid.centre(odd);
    let lattice = r.map([f64::from(x), f64::from(y)]);
    let own = r.mapping.hex_centre(&grid, odd);
    assert!((own[0] - lattice[0] - s[0]).abs() < 1e-9 && (own[1] - lattice[1] - s[1]).abs() < 1e-9);
    let matrix = r.mapping.hex(&grid, odd);
    let at = apply(&matrix, [f64::from(x), f64::from(y)]);
    assert!((at[0] - own[0]).hypot(at[1] - own[1]) < 1e-9);
}

#[test]
fn how_far_a_side_may_be_read_off_the_grid_follows_the_print_s_line_width() {
    // A print with 7.2 px lines (hexes of 60 px): one hex drawn 7.6 px off the lattice
    // between two sides' normals, so four of its sides are read 3.3 px off the grid, within
    // half the line's width. With the 3 px first set on Arnhem's 6 px lines, those four were
    // taken for other lines and the hex kept the lattice.
    let grid = Grid {
        columns: 6,
        rows: 5,
        ..grid()
    };
    let m = [60.0, 0.0, 45.0, 0.0, 60.0, 45.0, 0.0, 0.0, 1.0];
    let odd = HexIndex::new(2, 2);
    let d = [3.8, 6.58];
    let scan = printed_lines(&grid, &m, (700, 700), 3.6, &|i| {
        if i == odd { d } else { [0.0, 0.0] }
    });
    let r = refine(
        &scan,
        &grid,
        &m,
        &[[1.5, 1.7], [7.5, 6.1]],
        FitKind::Affine,
        &RefineOptions::default(),
    )
    .unwrap();
    let shifts = r
        .mapping
        .hex_shifts
        .as_ref()
        .expect("a hex with its own centre");
    let slot = |i: HexIndex| i.row as usize * grid.columns as usize + i.col as usize;
    let s = shifts[slot(odd)];
    assert!((s[0] - d[0] / 2.0).hypot(s[1] - d[1] / 2.0) < 0.5, "{s:?}");
    // Hexes that share no side with it keep the lattice (a neighbour's outline has one side
    // moved with it: its own centre may move a little, as its outline says).
    let touching: Vec<HexIndex> = sides(grid.orientation)
        .iter()
        .filter_map(|side| grid.neighbour(odd, *side))
        .collect();
    for i in grid
        .indices()
        .filter(|i| *i != odd && !touching.contains(i))
    {
        assert_eq!(shifts[slot(i)], [0.0, 0.0], "{}", grid.name(i));
    }
}
