//! Digitising through the real app, driven by egui_kittest: a map rendered by bataille-render
//! and saved as a PNG plays the scan. Import it (decoded off the UI thread), calibrate the grid
//! from clicked, named hex centres, drop a bad point, save and reopen aligned; mark samples,
//! classify, accept above a threshold and undo it in one step; checked marks with C; a hostile
//! PNG header refused with a message.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_render::Layout;
use bataille_schema::map::{Background, FitKind};
use bataille_schema::{HexIndex, Id, Side};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::scan::*;
use common::*;

#[test]
fn import_calibrate_drop_a_point_save_and_reopen_aligned() {
    let (dir, map_path, scan_path, truth) = setup(None);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    import(&mut h, &scan_path);
    {
        let app = h.state();
        assert!(app.ui.dialog.is_none(), "{:?}", app.ui.dialog);
        let bg = app.doc.map.background.as_ref().expect("background set");
        // Held absolute in memory (a Save As elsewhere never leaves it stale); written
        // relative to the map file (checked after the save below).
        assert_eq!(
            std::path::Path::new(&bg.image),
            bataille_schema::paths::absolute(&scan_path),
            "the scan itself"
        );
        let scan = app.services.digitise.scan.as_ref().expect("scan loaded");
        assert!(!scan.tiles.is_empty());
        assert!(
            scan.tiles
                .iter()
                .all(|t| t.width <= 2048 && t.height <= 2048)
        );
        assert_eq!(app.doc.history().undo_depth(), 1, "the import is one step");
    }
    h.get_by_label_contains("to check");

    // Calibrate: three clicked hex centres with typed names.
    h.get_by_label("Calibrate").click();
    h.run();
    h.get_by_label("✚ Click hex centres").click();
    h.run();
    h.get_by_label("Affine (skew, stretch)").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num0);
    h.run();
    let points = [
        (HexIndex::new(0, 0), "0101", 0.0),
        (HexIndex::new(11, 0), "1201", 0.0),
        (HexIndex::new(0, 8), "0109", 0.0),
        // A bad click: 15 px off.
        (HexIndex::new(6, 4), "0705", 15.0),
    ];
    for (i, (hex, name, error)) in points.iter().enumerate().take(3) {
        let at = screen_of_scan_hex(&h, &truth, *hex, *error);
        click_at(&mut h, at);
        assert_eq!(h.state().services.digitise.calibration.points.len(), i + 1);
        type_text_into(&mut h, &format!("Hex of point {}", i + 1), name);
    }
    {
        let app = h.state();
        let bg = app.doc.map.background.as_ref().expect("background");
        assert_eq!(bg.fit, FitKind::Affine);
        assert_eq!(bg.control_points.len(), 3);
        let error = max_matrix_error(&app.doc.map, &bg.grid_to_image, &truth);
        assert!(error < 1.5, "the fit is {error} px off somewhere");
        for i in 0..3 {
            let r = app
                .services
                .digitise
                .calibration
                .residual(i)
                .expect("a residual");
            assert!(r < 0.5, "point {i}: {r} px");
        }
    }
    h.get_by_label_contains("RMS");
    assert!(h.query_all_by_label("0.00 px").count() >= 1);

    // A fourth, bad point shows in the residuals; dropping it refits.
    let (hex, name, error) = points[3];
    let at = screen_of_scan_hex(&h, &truth, hex, error);
    click_at(&mut h, at);
    type_text_into(&mut h, "Hex of point 4", name);
    let worst = (0..4)
        .filter_map(|i| h.state().services.digitise.calibration.residual(i))
        .fold(0.0, f64::max);
    assert!(worst > 3.0, "the bad point shows: worst residual {worst}");
    assert_eq!(
        h.state()
            .doc
            .map
            .background
            .as_ref()
            .map(|b| b.control_points.len()),
        Some(4)
    );
    let drops: Vec<_> = h.query_all_by_label("Drop").collect();
    assert_eq!(drops.len(), 4);
    drops[3].click();
    h.run();
    let stored = {
        let app = h.state();
        let bg = app.doc.map.background.clone().expect("background");
        assert_eq!(bg.control_points.len(), 3);
        assert!(max_matrix_error(&app.doc.map, &bg.grid_to_image, &truth) < 1.5);
        let fit = app
            .services
            .digitise
            .calibration
            .fit
            .clone()
            .expect("fit")
            .expect("ok");
        assert!(fit.rms_px < 0.5, "RMS {}", fit.rms_px);
        bg
    };

    // Undo the drop, redo it: one step each.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state()
            .doc
            .map
            .background
            .as_ref()
            .map(|b| b.control_points.len()),
        Some(4)
    );
    assert_eq!(h.state().services.digitise.calibration.points.len(), 4);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.background.as_ref(), Some(&stored));

    // Save, reopen: aligned, the scan loaded again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!h.state().is_dirty());
    let text = std::fs::read_to_string(&map_path).expect("saved");
    assert!(text.contains("../scans/scan.png"), "{text}");
    drop(h);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    wait_for_jobs(&mut h);
    let app = h.state();
    let bg = app.doc.map.background.as_ref().expect("background kept");
    assert_eq!(bg.fit, stored.fit);
    assert_eq!(bg.control_points, stored.control_points);
    for (a, b) in bg.grid_to_image.iter().zip(&stored.grid_to_image) {
        assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} vs {b}");
    }
    assert!(
        app.services.digitise.scan.is_some(),
        "the map reopens with its scan"
    );
    assert!(app.ui.dialog.is_none(), "{:?}", app.ui.dialog);
}

#[test]
fn maps_without_numbers_first_centre_and_the_hex_below_or_the_hex_size() {
    let (dir, map_path, scan_path, truth) = setup(None);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    import(&mut h, &scan_path);
    h.get_by_label("Calibrate").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num0);
    h.run();
    h.get_by_label("Click the first hex's centre").click();
    h.run();
    h.get_by_label_contains("Click the centre of the first hex (0101)");
    let at = screen_of_scan_hex(&h, &truth, HexIndex::new(0, 0), 0.0);
    click_at(&mut h, at);
    h.get_by_label_contains("Click the centre of the hex below it (0102)");
    let at = screen_of_scan_hex(&h, &truth, HexIndex::new(0, 1), 0.0);
    click_at(&mut h, at);
    {
        let app = h.state();
        let bg = app.doc.map.background.as_ref().expect("background");
        assert_eq!(bg.fit, FitKind::Similarity);
        assert_eq!(bg.control_points.len(), 2);
        let error = max_matrix_error(&app.doc.map, &bg.grid_to_image, &truth);
        assert!(error < 3.0, "two clicks place the grid within {error} px");
    }
    // Or the first centre and the hex width: 40 px between neighbouring centres.
    type_text_into(&mut h, "Hex width (px)", "40");
    h.get_by_label("Place grid").click();
    h.run();
    let app = h.state();
    let bg = app.doc.map.background.as_ref().expect("background");
    assert_eq!(bg.control_points.len(), 1);
    let error = max_matrix_error(&app.doc.map, &bg.grid_to_image, &truth);
    assert!(
        error < 3.0,
        "first centre and size place the grid within {error} px"
    );
}

#[test]
fn suggest_terrain_accept_above_threshold_and_undo_in_one_step() {
    let truth_matrix = Layout::new(&truth_map().grid, &scan_options())
        .expect("layout")
        .grid_to_image();
    let background = Background {
        image: "../scans/scan.png".into(),
        fit: FitKind::Similarity,
        grid_to_image: truth_matrix,
        control_points: Vec::new(),
    };
    let (dir, map_path, _, _) = setup(Some(background));
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    wait_for_jobs(&mut h);
    assert!(
        h.state().services.digitise.scan.is_some(),
        "the map's scan loads"
    );
    let truth = truth_map();
    let original = h.state().doc.map.clone();

    h.get_by_label("Digitise").click();
    h.run();
    h.get_by_label("Suggest terrain…").click();
    h.run();
    // The panel took room from the map: show the whole map again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num0);
    h.run();
    // Three samples per code, spread over the map.
    let names = [
        ('c', "Sample Clear: "),
        ('f', "Sample Forest: "),
        ('m', "Sample Marsh: "),
        ('w', "Sample Water: "),
    ];
    // Seen under Xvfb: classifying before any sample says what to do, and the advice goes once
    // samples are marked (it stayed, red, while the user did what it said).
    h.get_by_label("Classify hexes").click();
    h.run();
    let advice = "Mark a few sample hexes of each terrain first";
    h.get_by_label_contains(advice);
    for (code, label) in names {
        h.get_by_label_contains(label).click();
        h.run();
        assert_eq!(h.state().ui.tools.terrain, code);
        let of_code: Vec<HexIndex> = truth
            .grid
            .indices()
            .filter(|hex| code_at(&truth, *hex) == code)
            .collect();
        for k in [0, of_code.len() / 2, of_code.len() - 1] {
            let at = h.state().screen_of_hex(of_code[k]);
            click_at(&mut h, at);
        }
    }
    assert_eq!(h.state().services.digitise.suggest.samples.len(), 12);
    assert!(h.query_by_label_contains(advice).is_none());
    run_suggestion(&mut h, "Classify hexes");
    assert!(h.state().services.digitise.suggest.terrain.is_some());
    h.get_by_label_contains("hexes classified");
    h.get_by_label("Confidence").click();
    h.run();
    h.state_mut().services.digitise.suggest.threshold = 0.1;
    h.run();
    let depth = h.state().doc.history().undo_depth();
    h.get_by_label_contains("Accept above threshold").click();
    h.run();
    assert_eq!(
        h.state().doc.history().undo_depth(),
        depth + 1,
        "one undo step"
    );
    let doc = &h.state().doc;
    let right = truth
        .grid
        .indices()
        .filter(|hex| doc.code(*hex) == Some(code_at(&truth, *hex)))
        .count();
    let total = truth.grid.hex_count();
    assert!(
        right * 10 >= total * 9,
        "{right} of {total} hexes got the right terrain"
    );

    // Review: the next doubtful hex (if any) can be skipped; then undo restores everything.
    h.get_by_label("Next doubtful ▶").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.rows, original.rows, "undo restores all");
}

#[test]
fn checked_marks_toggle_count_and_survive_save() {
    let (dir, map_path, _, _) = setup(None);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    let total = h.state().doc.map.grid.hex_count();
    assert_eq!(h.state().doc.hexes_to_check(), total);
    h.get_by_label("Digitise").click();
    h.run();
    h.get_by_label("Check the work…").click();
    h.run();
    h.get_by_label_contains(&format!("0 of {total} hexes checked"));
    for hex in [HexIndex::new(2, 2), HexIndex::new(3, 5)] {
        let at = h.state().screen_of_hex(hex);
        h.hover_at(at);
        h.run();
        h.key_press(Key::C);
        h.run();
    }
    assert_eq!(h.state().doc.map.checked.len(), 2);
    assert_eq!(h.state().doc.hexes_to_check(), total - 2);
    h.get_by_label_contains(&format!("checked · {} to check", total - 2));
    // C again unmarks; undo marks it again.
    h.key_press(Key::C);
    h.run();
    assert_eq!(h.state().doc.hexes_to_check(), total - 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.hexes_to_check(), total - 2);
    // Flicker and blend do not get in the way.
    h.get_by_label("Flicker between map and scan").click();
    h.run_steps(3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    drop(h);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    let checked: Vec<String> = h
        .state()
        .doc
        .map
        .checked
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(checked, ["0303", "0406"]);
}

/// The scan under a blank 12 × 9 map, two stream and two plain hexsides marked as samples,
/// and the hexsides classified: the harness, and the map's grid.
fn hexsides_classified() -> (tempfile::TempDir, H, bataille_schema::Grid) {
    hexsides_classified_on(write_scan)
}

/// [`hexsides_classified`] on the scan `write` makes.
fn hexsides_classified_on(
    write: impl FnOnce(&std::path::Path) -> (std::path::PathBuf, [f64; 9]),
) -> (tempfile::TempDir, H, bataille_schema::Grid) {
    let (dir, map_path, _, truth_matrix) = setup_with(None, write);
    let background = Background {
        image: "../scans/scan.png".into(),
        fit: FitKind::Similarity,
        grid_to_image: truth_matrix,
        control_points: Vec::new(),
    };
    let mut map = blank_map(12, 9);
    map.background = Some(background);
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
    h.get_by_label_contains("Sample Stream: ").click();
    h.run();
    let grid = h.state().doc.map.grid.clone();
    // Two stream hexsides and two plain ones.
    click_sides(
        &mut h,
        &grid,
        &[
            (HexIndex::new(6, 1), Side::NE),
            (HexIndex::new(6, 6), Side::SE),
        ],
    );
    h.get_by_label_contains("Sample plain hexsides: ").click();
    h.run();
    click_sides(
        &mut h,
        &grid,
        &[
            (HexIndex::new(2, 2), Side::NE),
            (HexIndex::new(9, 5), Side::SE),
        ],
    );
    assert_eq!(h.state().services.digitise.suggest.side_samples.len(), 4);
    run_suggestion(&mut h, "Find hexside features and roads");
    assert!(h.state().services.digitise.suggest.hexsides.is_some());
    (dir, h, grid)
}

/// Clicks the middle of each of these hexsides.
fn click_sides(h: &mut H, grid: &bataille_schema::Grid, sides: &[(HexIndex, Side)]) {
    for (hex, side) in sides {
        let at = h.state().screen_of(side_midpoint(grid, *hex, *side));
        click_at(h, at);
    }
}

/// Clicks a button that starts a suggestion job and waits for the job to end, which must not
/// have failed.
fn run_suggestion(h: &mut H, button: &str) {
    h.get_by_label(button).click();
    h.run();
    wait_for_jobs(h);
    assert_eq!(h.state().services.digitise.suggest.error, None);
}

#[test]
fn suggest_hexsides_from_marked_samples_and_accept_in_one_step() {
    let (_dir, mut h, grid) = hexsides_classified();
    let midpoint = |hex: HexIndex, side: Side| side_midpoint(&grid, hex, side);
    // The review queue of doubtful hexsides: with the threshold above every confidence, every
    // suggested stream (the map has none yet) is in it; "Next doubtful hexside" selects the
    // first, shows it and zooms in on it; "Skip hexside" moves on.
    h.state_mut().services.digitise.suggest.threshold = 1.01;
    h.run();
    let queue = {
        let app = h.state();
        app.services.digitise.suggest.doubtful_hexsides(&app.doc)
    };
    assert!(queue.len() >= 2, "{queue:?}");
    let zoom = h.state().ui.view.zoom;
    h.get_by_label("Next doubtful hexside ▶").click();
    h.run();
    let reviewed = h.state().services.digitise.suggest.side_review;
    assert_eq!(reviewed, Some(queue[0]));
    assert!(
        h.state().ui.view.zoom >= bataille_editor::map::view::ZOOM_100 * 2.0
            && h.state().ui.view.zoom >= zoom,
        "zoomed in to {}",
        h.state().ui.view.zoom
    );
    let at = h.state().screen_of(midpoint(queue[0].0, queue[0].1));
    assert!(
        h.state().ui.map_rect.shrink(20.0).contains(at),
        "{at:?} not in {:?}",
        h.state().ui.map_rect
    );
    let name = grid.hexside_ref(queue[0].0, queue[0].1).to_string();
    h.get_by_label_contains(&format!("{name}: plain on the map, Stream suggested"));
    h.get_by_label("Skip hexside").click();
    h.run();
    assert_eq!(
        h.state().services.digitise.suggest.side_review,
        Some(queue[1])
    );
    assert!(
        h.state()
            .services
            .digitise
            .suggest
            .side_skipped
            .contains(&queue[0])
    );
    h.state_mut().services.digitise.suggest.threshold = 0.3;
    h.run();

    let depth = h.state().doc.history().undo_depth();
    h.get_by_label_contains("Accept hexsides above threshold")
        .click();
    h.run();
    assert_eq!(
        h.state().doc.history().undo_depth(),
        depth + 1,
        "one undo step"
    );
    let mut found = h
        .state()
        .doc
        .map
        .hexsides
        .get(&Id::from("stream"))
        .cloned()
        .unwrap_or_default();
    found.sort();
    let truth = stream_sides(&truth_map());
    let hits = truth.iter().filter(|s| found.contains(s)).count();
    let false_hits = found.iter().filter(|s| !truth.contains(s)).count();
    assert!(
        hits * 10 >= truth.len() * 8 && false_hits <= 2,
        "{hits} of {} stream hexsides found, {false_hits} wrong: {found:?}",
        truth.len()
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        h.state()
            .doc
            .map
            .hexsides
            .get(&Id::from("stream"))
            .is_none_or(Vec::is_empty)
    );
}

#[test]
fn a_long_import_shows_progress_and_can_be_cancelled() {
    let (dir, map_path, _, _) = setup(None);
    let big = dir.path().join("big.png");
    image::RgbImage::from_fn(6000, 4000, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, ((x ^ y) % 256) as u8])
    })
    .save(&big)
    .expect("write a big PNG");
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    h.get_by_label("Digitise").click();
    h.run();
    h.get_by_label("Import scan…").click();
    h.run();
    type_text_into(&mut h, "File path", &big.display().to_string());
    h.get_by_label("Open").click();
    h.run_steps(2);
    assert!(
        h.state().services.digitise.import_job.is_some(),
        "still decoding"
    );
    h.get_by_label_contains("Importing the scan…");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    wait_for_jobs(&mut h);
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    assert!(h.state().doc.map.background.is_none());
    assert!(h.state().services.digitise.scan.is_none());
    assert!(!h.state().is_dirty());
}

/// A PNG whose header claims `width × height` pixels, with a tiny IDAT.
fn hostile_png(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xffff_ffffu32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
        out
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    ));
    png.extend(chunk(b"IEND", &[]));
    png
}

#[test]
fn a_hostile_image_is_refused_with_a_message() {
    let (dir, map_path, _, _) = setup(None);
    let hostile = dir.path().join("huge.png");
    std::fs::write(&hostile, hostile_png(100_000, 100_000)).expect("write");
    let garbage = dir.path().join("garbage.png");
    std::fs::write(&garbage, b"not an image at all").expect("write");
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    import(&mut h, &hostile);
    h.get_by_label("⛔ Could not import the scan");
    h.get_by_label_contains("100000×100000");
    h.get_by_label("OK").click();
    h.run();
    assert!(h.state().doc.map.background.is_none());
    assert!(!h.state().is_dirty());
    import(&mut h, &garbage);
    h.get_by_label("⛔ Could not import the scan");
    h.get_by_label("OK").click();
    h.run();
    import(&mut h, &dir.path().join("missing.png"));
    h.get_by_label("⛔ Could not import the scan");
    assert!(h.state().doc.map.background.is_none());
}

#[test]
fn accepting_a_plain_hexside_in_the_review_removes_the_feature_in_one_step() {
    let (_dir, mut h, grid) = hexsides_classified();
    // A stream drawn where the scan shows a plain hexside: the review queue doubts it.
    let plain = h
        .state()
        .services
        .digitise
        .suggest
        .hexsides
        .iter()
        .flatten()
        .find(|s| s.feature.is_none() && !s.marked)
        .map(|s| (s.index, s.side))
        .expect("a plain hexside suggested");
    let side = grid.hexside_ref(plain.0, plain.1);
    let stream = Id::from("stream");
    h.state_mut().request(bataille_editor::AppCommand::Edit {
        label: "Draw stream".into(),
        changes: vec![bataille_editor::model::history::Change::Hexside {
            feature: stream.clone(),
            side: side.clone(),
            present: true,
        }],
    });
    h.run();
    assert!(h.state().doc.has_hexside(&stream, &side));
    h.state_mut().services.digitise.suggest.threshold = 1.01;
    h.state_mut().services.digitise.suggest.side_review = Some(plain);
    h.run();
    h.get_by_label_contains(&format!("{side}: Stream on the map, plain suggested"));
    let depth = h.state().doc.history().undo_depth();
    h.get_by_label("Accept hexside").click();
    h.run();
    assert!(
        !h.state().doc.has_hexside(&stream, &side),
        "accepting plain removes the stream"
    );
    assert_eq!(
        h.state().doc.history().undo_depth(),
        depth + 1,
        "one undo step"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(
        h.state().doc.has_hexside(&stream, &side),
        "undo brings it back"
    );
}

/// Finding hexside features judges the terrain suggestions in doubt again with the lines'
/// inks masked, as `bataille digitize` does: the editor's terrain after the hexside pass is
/// the library's `suggest_hexsides_and_terrain` on the same scan, grid and samples (the editor
/// kept the terrain from before the lines were known, so the two could differ).
#[test]
fn finding_hexsides_judges_the_terrain_again_as_the_command_does() {
    // A clear hex half covered by magenta letters, a colour no terrain has (a title over
    // the map): in doubt until the letters are masked.
    let lettered = HexIndex::new(1, 1);
    let (_dir, mut h, grid) = hexsides_classified_on(|dir| {
        let (path, matrix) = write_scan(dir);
        let mapping = bataille_digitize::GridMapping::from(matrix);
        let grid = truth_map().grid;
        let [cx, cy] = mapping.hex_centre(&grid, lettered);
        let radius = 0.7 * mapping.scale([cx, cy]);
        let mut image = image::open(&path).expect("scan").into_rgba8();
        for (x, y, pixel) in image.enumerate_pixels_mut() {
            let (dx, dy) = (f64::from(x) - cx, f64::from(y) - cy);
            if dx * dx + dy * dy < radius * radius && (y / 3) % 2 == 0 {
                *pixel = image::Rgba([230, 0, 200, 255]);
            }
        }
        image.save(&path).expect("png");
        (path, matrix)
    });
    // Terrain samples (three hexes of each code) and the hexes classified; then the hexsides
    // found again, now from those terrain suggestions.
    let truth = truth_map();
    {
        let suggest = &mut h.state_mut().services.digitise.suggest;
        for code in ['c', 'f', 'm', 'w'] {
            let of_code: Vec<HexIndex> = grid
                .indices()
                .filter(|hex| code_at(&truth, *hex) == code)
                .collect();
            for k in [0, of_code.len() / 2, of_code.len() - 1] {
                suggest.samples.insert(of_code[k], code);
            }
        }
    }
    // The menu (the panel's heading has the same name).
    h.get_all_by_label("Digitise").next().expect("menu").click();
    h.run();
    h.get_by_label("Suggest terrain…").click();
    h.run();
    run_suggestion(&mut h, "Classify hexes");
    let before = h
        .state()
        .services
        .digitise
        .suggest
        .terrain
        .clone()
        .expect("terrain");
    // The menu (the panel's heading has the same name).
    h.get_all_by_label("Digitise").next().expect("menu").click();
    h.run();
    h.get_by_label("Suggest hexsides…").click();
    h.run();
    run_suggestion(&mut h, "Find hexside features and roads");

    let state = h.state();
    let suggest = &state.services.digitise.suggest;
    let mut samples = bataille_digitize::HexsideSamples::default();
    for (hexside, feature) in &suggest.side_samples {
        match feature {
            Some(id) => samples
                .features
                .entry(id.clone())
                .or_default()
                .push(*hexside),
            None => samples.plain.push(*hexside),
        }
    }
    let scan = &state.services.digitise.scan.as_ref().expect("scan").scan;
    let matrix = state
        .doc
        .map
        .background
        .as_ref()
        .expect("background")
        .grid_to_image;
    let (_, want) = bataille_digitize::suggest_hexsides_and_terrain(
        scan,
        &grid,
        &matrix.into(),
        &before,
        &samples,
        &bataille_digitize::ClassifyOptions::default(),
        &bataille_digitize::scan::no_progress,
    )
    .expect("the library's pass");
    assert_ne!(
        want, before,
        "on this scan the lines' inks change some hex in doubt (else this test proves nothing)"
    );
    assert_eq!(
        suggest.terrain.as_ref(),
        Some(&want),
        "the editor's terrain is the command's"
    );
}
