//! Roads drawn through the hexes, digitised through the real app (egui_kittest): a map with
//! two crossing roads rendered by bataille-render plays the scan; three crossings marked in
//! the Hexsides tab ("Sample crossings of Road"), "Find hexside features and roads" runs the library's
//! one pass, "Accept all crossings" writes the roads as the map's paths and overlays in one
//! undo step, and the review queue accepts one doubtful crossing at a time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bataille_digitize::classify::CrossingSuggestion;
use bataille_digitize::paths::{crossings_of_paths, hexes_of_paths};
use bataille_render::{Layout, render_map};
use bataille_schema::map::{Background, FitKind};
use bataille_schema::{HexIndex, Id, Map, Side};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::scan::*;
use common::*;

/// The scan's map: the terrain patches of the other digitising tests, a road across the
/// map from west to east and one from north to south, crossing it.
fn road_map() -> Map {
    let mut map = truth_map();
    map.hexsides.clear();
    let grid = map.grid.clone();
    let walk = |start: HexIndex, steps: &[Side]| {
        let mut hexes = vec![start];
        for s in steps {
            hexes.push(grid.neighbour(*hexes.last().unwrap(), *s).unwrap());
        }
        hexes
            .iter()
            .map(|i| grid.name(*i).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    use Side::*;
    let east = walk(
        HexIndex::new(0, 4),
        &[NE, SE, NE, SE, NE, SE, NE, SE, NE, SE, NE],
    );
    let south = walk(HexIndex::new(5, 0), &[S, S, S, S, SE, S, S, S]);
    map.paths.insert(Id::from("road"), vec![east, south]);
    for hex in hexes_of_paths(&grid, &map.paths[&Id::from("road")]) {
        map.overlays
            .entry(grid.name(hex))
            .or_default()
            .push(Id::from("road"));
    }
    map
}

/// Renders [`road_map`] to `scans/scan.png` under `dir`.
fn write_road_scan(dir: &Path) -> (PathBuf, [f64; 9]) {
    let options = scan_options();
    let map = road_map();
    let pixmap = render_map(&map, &options).expect("render");
    let layout = Layout::new(&map.grid, &options).expect("layout");
    let scans = dir.join("scans");
    std::fs::create_dir_all(&scans).unwrap();
    let path = scans.join("scan.png");
    bataille_render::save_png(&pixmap, &path).expect("png");
    (path, layout.grid_to_image())
}

fn click_sides(h: &mut H, grid: &bataille_schema::Grid, sides: &[(HexIndex, Side)]) {
    for (hex, side) in sides {
        let at = h.state().screen_of(side_midpoint(grid, *hex, *side));
        click_at(h, at);
    }
}

fn road_crossings(map: &Map) -> BTreeSet<(HexIndex, Side)> {
    map.paths
        .get(&Id::from("road"))
        .map(|p| crossings_of_paths(&map.grid, p))
        .unwrap_or_default()
}

#[test]
fn marked_road_crossings_become_the_maps_paths_in_one_step() {
    let (dir, map_path, _, truth_matrix) = setup_with(None, write_road_scan);
    let mut map = blank_map(12, 9);
    map.background = Some(Background {
        image: "../scans/scan.png".into(),
        fit: FitKind::Similarity,
        grid_to_image: truth_matrix,
        control_points: Vec::new(),
    });
    write_map(&map_path, &map);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    wait_for_jobs(&mut h);
    h.get_by_label("Digitise").click();
    h.run();
    h.get_by_label("Suggest hexsides…").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num0);
    h.run();
    h.get_by_label_contains("Sample crossings of Road: ")
        .click();
    h.run();
    let grid = h.state().doc.map.grid.clone();
    let truth = road_crossings(&road_map());
    // Three crossings, one on the north-south road, two on the west-east one.
    let marked = [
        grid.canonical_hexside(HexIndex::new(5, 1), Side::S),
        grid.canonical_hexside(HexIndex::new(1, 4), Side::SE),
        grid.canonical_hexside(HexIndex::new(9, 4), Side::SE),
    ];
    for m in &marked {
        assert!(truth.contains(m), "{m:?} is a crossing of the roads");
    }
    click_sides(&mut h, &grid, &marked);
    {
        let suggest = &h.state().services.digitise.suggest;
        assert_eq!(suggest.crossing_samples.len(), 3);
        assert!(
            suggest.side_samples.is_empty(),
            "crossings, not hexside samples"
        );
    }
    h.get_by_label_contains("Sample crossings of Road: 3");
    h.get_by_label("Find hexside features and roads").click();
    h.run();
    wait_for_jobs(&mut h);
    {
        let suggest = &h.state().services.digitise.suggest;
        assert_eq!(suggest.error, None);
        assert!(suggest.crossings.is_some(), "the roads were traced");
        assert!(suggest.hexsides.is_none(), "no hexside feature was marked");
    }
    h.get_by_label_contains("road crossings suggested that the map's paths lack");

    // Accept all: the roads as paths and the hexes on them as road hexes, one undo step.
    let depth = h.state().doc.history().undo_depth();
    h.get_by_label("Accept all crossings").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth + 1, "one step");
    let found = road_crossings(&h.state().doc.map);
    let hits = truth.intersection(&found).count();
    let wrong = found.difference(&truth).count();
    assert!(
        hits * 10 >= truth.len() * 9 && wrong <= 1,
        "{hits} of {} crossings found, {wrong} wrong",
        truth.len()
    );
    {
        let map = &h.state().doc.map;
        let road = Id::from("road");
        for hex in hexes_of_paths(&map.grid, &map.paths[&road]) {
            assert!(
                map.overlays
                    .get(&map.grid.name(hex))
                    .is_some_and(|l| l.contains(&road)),
                "{} carries the road",
                map.grid.name(hex)
            );
        }
    }
    // Nothing left to accept; undo takes paths and overlays away together.
    h.get_by_label_contains("0 road crossings suggested");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().doc.map.paths.is_empty());
    assert!(h.state().doc.map.overlays.is_empty());

    // The review queue: with the threshold above every typed crossing's confidence, each
    // crossing a line is suggested for is in it; accepting the one reviewed adds that
    // crossing alone.
    h.state_mut().services.digitise.suggest.threshold = 0.99;
    h.run();
    let (queue, typed) = {
        let suggest = &h.state().services.digitise.suggest;
        let typed: Vec<(HexIndex, Side)> = suggest
            .crossings
            .iter()
            .flatten()
            .filter(|s| !s.marked && s.line.is_some())
            .map(|s| (s.index, s.side))
            .collect();
        (suggest.doubtful_crossings(), typed)
    };
    assert!(typed.len() >= 10, "{typed:?}");
    assert!(typed.iter().all(|t| queue.contains(t)), "{queue:?}");
    h.get_by_label("Next doubtful crossing ▶").click();
    h.run();
    assert_eq!(
        h.state().services.digitise.suggest.crossing_review,
        Some(queue[0])
    );
    h.get_by_label_contains("suggested (");
    h.get_by_label("Accept crossing").click();
    h.run();
    let after: Vec<_> = road_crossings(&h.state().doc.map).into_iter().collect();
    let expected: Vec<_> = typed.iter().copied().filter(|t| *t == queue[0]).collect();
    assert_eq!(after, expected);
    assert_eq!(
        h.state().services.digitise.suggest.crossing_review,
        Some(queue[1]),
        "on to the next"
    );
}

/// The review queue lists a crossing the trace saw ink across but could not type ("none"
/// suggested); "Add as Road" adds it to the map's paths, and on a crossing the map's paths
/// make, "Remove from Road" cuts the path there and takes the overlay off the hexes no path
/// passes through any more; each is one undo step.
#[test]
fn a_crossing_in_doubt_is_added_as_a_line_or_removed_from_the_paths() {
    let (dir, map_path, _, truth_matrix) = setup_with(None, write_road_scan);
    let mut map = blank_map(12, 9);
    map.background = Some(Background {
        image: "../scans/scan.png".into(),
        fit: FitKind::Similarity,
        grid_to_image: truth_matrix,
        control_points: Vec::new(),
    });
    let grid = map.grid.clone();
    // The map has one road: 0402 0403 0404 (column 3, rows 1 to 3).
    let road = Id::from("road");
    let hexes = [
        HexIndex::new(3, 1),
        HexIndex::new(3, 2),
        HexIndex::new(3, 3),
    ];
    let names: Vec<String> = hexes.iter().map(|h| grid.name(*h).to_string()).collect();
    map.paths.insert(road.clone(), vec![names.join(" ")]);
    for h in &hexes {
        map.overlays
            .entry(grid.name(*h))
            .or_default()
            .push(road.clone());
    }
    write_map(&map_path, &map);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    wait_for_jobs(&mut h);
    h.get_by_label("Digitise").click();
    h.run();
    h.get_by_label("Suggest hexsides…").click();
    h.run();
    // What a trace left: a crossing in doubt with no line (off the map's road), and one the
    // road on the map makes, in doubt too.
    let loose = grid.canonical_hexside(HexIndex::new(7, 4), Side::N);
    let on_road = grid.canonical_hexside(hexes[1], Side::S);
    let doubt = |(index, side): (HexIndex, Side), line: Option<Id>| CrossingSuggestion {
        index,
        side,
        line,
        confidence: 0.15,
        marked: false,
    };
    {
        let suggest = &mut h.state_mut().services.digitise.suggest;
        suggest.crossings = Some(vec![doubt(on_road, Some(road.clone())), doubt(loose, None)]);
    }
    h.run();
    let queue = h.state().services.digitise.suggest.doubtful_crossings();
    let expected = vec![on_road, loose];
    assert_eq!(
        BTreeSet::from_iter(queue.iter().copied()),
        BTreeSet::from_iter(expected),
        "both in the queue, the one with no line too"
    );
    h.get_by_label_contains("Review the doubtful crossings (2)");
    // Step to the loose crossing: no line suggested, not on the map.
    while h.state().services.digitise.suggest.crossing_review != Some(loose) {
        h.get_by_label("Next doubtful crossing ▶").click();
        h.run();
    }
    h.get_by_label_contains("no line suggested (15 %), not on the map");
    let depth = h.state().doc.history().undo_depth();
    h.get_by_label("Add as Road").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth + 1, "one step");
    assert!(road_crossings(&h.state().doc.map).contains(&loose));
    // Step to the crossing the road on the map makes; remove it.
    while h.state().services.digitise.suggest.crossing_review != Some(on_road) {
        h.get_by_label("Next doubtful crossing ▶").click();
        h.run();
    }
    h.get_by_label_contains("on the map: Road");
    h.get_by_label("Remove from Road").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth + 2, "one step");
    {
        let map = &h.state().doc.map;
        let crossings = road_crossings(map);
        assert!(!crossings.contains(&on_road), "{:?}", map.paths);
        assert!(
            crossings.contains(&grid.canonical_hexside(hexes[0], Side::S)),
            "the rest of the road stays: {:?}",
            map.paths
        );
        // 0404 is on no path of the road any more: its overlay went with the crossing.
        assert!(!h.state().doc.has_overlay(&grid.name(hexes[2]), &road));
        assert!(h.state().doc.has_overlay(&grid.name(hexes[1]), &road));
    }
    // Undo brings the crossing and the overlay back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(road_crossings(&h.state().doc.map).contains(&on_road));
    assert!(h.state().doc.has_overlay(&grid.name(hexes[2]), &road));
}

/// "Accept crossing" makes the map's paths cross the reviewed hexside as suggested, one undo
/// step, and the crossing leaves the queue: a crossing the map's road already makes and the
/// trace suggests as road changes nothing; one the map has as road and the trace suggests as
/// railway is retyped (the road cut there, the railway added); one the map has as road with no
/// line suggested is cut; one with no line suggested and none on the map changes nothing.
#[test]
fn accepting_a_crossing_already_on_the_map_makes_the_map_agree_and_leaves_the_queue() {
    let (dir, map_path, _, truth_matrix) = setup_with(None, write_road_scan);
    let mut map = blank_map(12, 9);
    map.background = Some(Background {
        image: "../scans/scan.png".into(),
        fit: FitKind::Similarity,
        grid_to_image: truth_matrix,
        control_points: Vec::new(),
    });
    let road = Id::from("road");
    let railway = Id::from("railway");
    let mut railway_type = map.overlay_types[&road].clone();
    railway_type.name = "Railway".into();
    map.overlay_types.insert(railway.clone(), railway_type);
    let grid = map.grid.clone();
    // The map has one road down column 3, rows 1 to 5.
    let hexes: Vec<HexIndex> = (1..=5).map(|r| HexIndex::new(3, r)).collect();
    let names: Vec<String> = hexes.iter().map(|h| grid.name(*h).to_string()).collect();
    map.paths.insert(road.clone(), vec![names.join(" ")]);
    for h in &hexes {
        map.overlays
            .entry(grid.name(*h))
            .or_default()
            .push(road.clone());
    }
    write_map(&map_path, &map);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    wait_for_jobs(&mut h);
    h.get_by_label("Digitise").click();
    h.run();
    h.get_by_label("Suggest hexsides…").click();
    h.run();
    let south = |i: usize| grid.canonical_hexside(hexes[i], Side::S);
    let (agrees, retyped, cut) = (south(0), south(1), south(3));
    let loose = grid.canonical_hexside(HexIndex::new(7, 4), Side::N);
    let doubt = |(index, side): (HexIndex, Side), line: Option<&Id>| CrossingSuggestion {
        index,
        side,
        line: line.cloned(),
        confidence: 0.15,
        marked: false,
    };
    h.state_mut().services.digitise.suggest.crossings = Some(vec![
        doubt(agrees, Some(&road)),
        doubt(retyped, Some(&railway)),
        doubt(cut, None),
        doubt(loose, None),
    ]);
    h.run();
    h.get_by_label_contains("Review the doubtful crossings (4)");
    let reviewed = |h: &H| h.state().services.digitise.suggest.crossing_review;
    let depth = h.state().doc.history().undo_depth();
    h.get_by_label("Next doubtful crossing ▶").click();
    h.run();
    assert_eq!(reviewed(&h), Some(agrees));

    // On the map as suggested: nothing to change, and it leaves the queue.
    let before = h.state().doc.map.paths.clone();
    h.get_by_label("Accept crossing").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth, "no edit");
    assert_eq!(h.state().doc.map.paths, before);
    assert_eq!(reviewed(&h), Some(retyped), "on to the next");
    h.get_by_label_contains("Review the doubtful crossings (3)");

    // On the map as road, suggested railway: retyped in one step.
    h.get_by_label("Accept crossing").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth + 1, "one step");
    {
        let doc = &h.state().doc;
        assert!(!road_crossings(&doc.map).contains(&retyped));
        assert!(road_crossings(&doc.map).contains(&agrees));
        let rail = crossings_of_paths(&grid, &doc.map.paths[&railway]);
        assert_eq!(rail, BTreeSet::from([retyped]));
        assert!(doc.has_overlay(&grid.name(hexes[2]), &railway));
    }
    assert_eq!(reviewed(&h), Some(cut));

    // On the map as road, no line suggested: cut, one step; the last hex loses the road.
    h.get_by_label_contains("no line suggested (15 %), on the map: Road");
    h.get_by_label("Accept crossing").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth + 2, "one step");
    assert!(!road_crossings(&h.state().doc.map).contains(&cut));
    assert!(!h.state().doc.has_overlay(&grid.name(hexes[4]), &road));
    assert_eq!(reviewed(&h), Some(loose));

    // No line suggested, none on the map: nothing; the queue is empty.
    h.get_by_label("Accept crossing").click();
    h.run();
    assert_eq!(h.state().doc.history().undo_depth(), depth + 2, "no edit");
    assert_eq!(reviewed(&h), None);
    h.get_by_label_contains("Review the doubtful crossings (0)");

    // Undo takes back the cut alone.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(road_crossings(&h.state().doc.map).contains(&cut));
    assert!(h.state().doc.has_overlay(&grid.name(hexes[4]), &road));
    assert!(!road_crossings(&h.state().doc.map).contains(&retyped));
}
