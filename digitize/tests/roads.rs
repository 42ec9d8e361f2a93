//! Roads drawn through the hexes by our own renderer (Napoleon at Waterloo's map, its roads
//! drawn along the paths the file states) are found again by the one pass the command and the
//! editor run ([`suggest_features`]) from three marked crossings, and written back as paths
//! that cross the same hexsides.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, PathSamples, edge_hexsides, suggest_features, suggest_terrain,
};
use bataille_digitize::paths::{crossings_of_paths, hexes_of_paths, paths_from_crossings};
use bataille_digitize::scan::no_progress;
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::{HexIndex, Id, Map, load_map};
use image::{Rgb, RgbImage};

fn naw() -> Map {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/napoleon-at-waterloo.ron");
    load_map(&path).unwrap().map
}

/// The map rendered without hex names and place names (which a user would mark around), and
/// where the grid lies on it.
fn rendered(map: &Map) -> (RgbImage, [f64; 9]) {
    let options = RenderOptions {
        px_per_hex: 48.0,
        hex_names: false,
        labels: false,
        ..RenderOptions::default()
    };
    let pixmap = render_map(map, &options).unwrap();
    let layout = Layout::new(&map.grid, &options).unwrap();
    let mut image = RgbImage::new(pixmap.width(), pixmap.height());
    for (pixel, out) in pixmap.pixels().iter().zip(image.pixels_mut()) {
        let c = pixel.demultiply();
        *out = Rgb([c.red(), c.green(), c.blue()]);
    }
    (image, layout.grid_to_image())
}

/// Three hexes of each terrain code, spread over the map, with no road in them.
fn terrain_samples(map: &Map) -> BTreeMap<String, Vec<HexIndex>> {
    let roads = hexes_of_paths(&map.grid, &map.paths[&Id::from("road")]);
    let mut out: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    for code in map.terrain.keys() {
        let of_code: Vec<HexIndex> = map
            .grid
            .indices()
            .filter(|i| {
                map.rows[i.row as usize].chars().nth(i.col as usize) == code.chars().next()
                    && !roads.contains(i)
            })
            .collect();
        if of_code.is_empty() {
            continue;
        }
        let picks: BTreeSet<HexIndex> = [0, of_code.len() / 2, of_code.len() - 1]
            .map(|k| of_code[k])
            .into_iter()
            .collect();
        out.insert(code.clone(), picks.into_iter().collect());
    }
    out
}

#[test]
fn rendered_roads_come_back_as_their_paths() {
    let map = naw();
    let road = Id::from("road");
    let truth = crossings_of_paths(&map.grid, &map.paths[&road]);
    assert!(truth.len() > 40, "{}", truth.len());
    let (image, matrix) = rendered(&map);
    let scan = bataille_digitize::Scan::from(image);
    let mapping = matrix.into();
    let options = ClassifyOptions::default();
    let terrain =
        suggest_terrain(&scan, &map.grid, &mapping, &terrain_samples(&map), &options).unwrap();
    // Three crossings marked, spread along the roads.
    let list: Vec<_> = truth.iter().copied().collect();
    let marked = vec![list[3], list[list.len() / 2], list[list.len() - 4]];
    let paths = PathSamples {
        lines: BTreeMap::from([(road.clone(), marked.clone())]),
    };
    let found = suggest_features(
        &scan,
        &map.grid,
        &mapping,
        &terrain,
        &HexsideSamples::default().with_legend(&map.hexside_types, &map.terrain),
        &paths,
        &options,
        &no_progress,
    )
    .unwrap();
    let crossings = found.crossings.expect("the road's ink is read");
    assert_eq!(
        crossings.len(),
        found.hexsides.len() + edge_hexsides(&map.grid).len(),
        "every hexside between two hexes and every side on the grid's edge"
    );
    let suggested: BTreeSet<_> = crossings
        .iter()
        .filter(|c| c.line.as_ref() == Some(&road))
        .map(|c| (c.index, c.side))
        .collect();
    for m in &marked {
        assert!(suggested.contains(m), "a marked crossing is kept");
    }
    let hits = truth.intersection(&suggested).count();
    let wrong = suggested.difference(&truth).count();
    println!("{hits} of {} crossings found, {wrong} wrong", truth.len());
    assert!(
        hits * 100 >= truth.len() * 90 && wrong * 100 <= truth.len() * 3,
        "{hits} of {} crossings found, {wrong} wrong",
        truth.len()
    );
    // Written as paths, they cross what was found.
    let written = paths_from_crossings(&map.grid, &suggested);
    assert_eq!(crossings_of_paths(&map.grid, &written), suggested);
}
