//! The legend editor through the real app: deleting a terrain type in use asks what replaces
//! it, and the whole edit is one undo step; adding a hexside type makes it drawable.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_schema::HexIndex;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::*;

/// The map opened in the editor, its legend open on the forest.
fn legend_on_forest(map: &bataille_schema::Map) -> (tempfile::TempDir, H) {
    let (dir, path) = temp_with_map(map, "legend.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.get_by_label("Edit legend…").click();
    h.run();
    h.get_by_label("f: Forest").click();
    h.run();
    (dir, h)
}

#[test]
fn deleting_terrain_in_use_asks_for_a_replacement() {
    let mut map = blank_map(10, 8);
    map.rows[2] = "cffffccccc".into();
    let (_dir, mut h) = legend_on_forest(&map);
    h.get_by_label("Delete").click();
    h.run();
    h.get_by_label_contains("is used on 4 hexes");
    h.get_by_label("Replacement").scroll_to_me();
    h.run();
    h.get_by_label("Replacement").click();
    h.run();
    h.get_by_label("m (Marsh)").click();
    h.run();
    h.get_by_label("Replace and delete").scroll_to_me();
    h.run();
    h.get_by_label("Replace and delete").click();
    h.run();
    {
        let doc = &h.state().doc;
        assert!(!doc.map.terrain.contains_key("f"));
        assert_eq!(doc.terrain_uses('m'), 4);
        assert_eq!(doc.code(HexIndex::new(1, 2)), Some('m'));
    }
    assert_eq!(h.state().doc.history().undo_depth(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let doc = &h.state().doc;
    assert!(doc.map.terrain.contains_key("f"));
    assert_eq!(doc.map.rows[2], "cffffccccc");
}

/// Seen under Xvfb: the legend window keeps the height it opened with (it scrolls), so the
/// question that Delete asks for an entry in use came below its bottom edge, out of sight, as if
/// Delete did nothing. The window scrolls the question into view.
#[test]
fn the_delete_question_is_scrolled_into_view() {
    let mut map = blank_map(10, 8);
    map.rows[2] = "cffffccccc".into();
    let (_dir, mut h) = legend_on_forest(&map);
    let delete = h.get_by_label("Delete").rect().center();
    tap(&mut h, delete, egui::PointerButton::Primary);
    h.run();
    // egui names a window's area after its title (`Window::new`: `Id::unique(title.text())`).
    let window = h
        .ctx
        .memory(|m| m.area_rect(egui::Id::unique(Some("Legend"))))
        .expect("the legend window");
    for label in ["Replace and delete", "Cancel delete"] {
        let button = h.get_by_label(label).rect();
        assert!(
            window.contains_rect(button),
            "{label} at {button:?}, the window at {window:?}"
        );
    }
}

/// Seen under Xvfb: the legend window opened in the window's corner, over the menu bar and the
/// terrain palette it edits; it opens over the map.
#[test]
fn the_legend_opens_over_the_map() {
    let (_dir, h) = legend_on_forest(&blank_map(10, 8));
    let window = h
        .ctx
        .memory(|m| m.area_rect(egui::Id::unique(Some("Legend"))))
        .expect("the legend window");
    let map = h.state().ui.map_rect;
    assert!(
        window.top() >= map.top() && window.left() >= map.left(),
        "the window at {window:?}, the map at {map:?}"
    );
}

/// Issue 11, trip 9: with a scan under the map, a legend colour is picked from it. "Pick from
/// scan" arms the eyedropper (Escape disarms it and leaves the legend open); the next click on
/// the map takes the scan's colour there — the median of a small patch, so the halftone's black
/// and white dots do not decide — shows it, and applies it as one undo step.
#[test]
fn a_legend_colour_is_picked_from_the_scan_in_one_undo_step() {
    use bataille_editor::map::scan::{new_background, screen_point};
    use bataille_editor::panels::legend::LegendTab;
    let field = [0x5a, 0x8c, 0x3c];
    let (width, height) = (300u32, 240u32);
    // The scan beside the map (a map's scan stays inside its root: the door refuses an
    // absolute path in a file).
    let dir = tempfile::tempdir().expect("temp dir");
    let scan_path = dir.path().join("scan.png");
    // A green field printed as a halftone: one pixel in three a black or a white dot.
    image::RgbImage::from_fn(width, height, |x, y| match (x + 2 * y) % 3 {
        0 if x % 2 == 0 => image::Rgb([0, 0, 0]),
        0 => image::Rgb([255, 255, 255]),
        _ => image::Rgb(field),
    })
    .save(&scan_path)
    .expect("the scan is written");
    let mut map = blank_map(10, 8);
    map.background = Some(new_background(&map.grid, "scan.png".into(), width, height));
    let path = dir.path().join("picked.ron");
    write_map(&path, &map);
    let mut h = harness(app_with_file(dir.path(), &path));
    common::scan::wait_for_jobs(&mut h);
    assert!(
        h.state().services.digitise.scan.is_some(),
        "the scan did not load"
    );
    h.get_by_label("Edit legend…").click();
    h.run();
    let before = h.state().doc.map.terrain["c"].colour.clone();

    // Escape leaves pick mode, not the legend.
    h.get_by_label("Pick from scan").click();
    h.run();
    assert_eq!(h.state().panels.legend.picking, Some(LegendTab::Terrain));
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().panels.legend.picking, None);
    assert!(h.state().panels.legend.open);
    assert_eq!(h.state().doc.map.terrain["c"].colour, before);

    // Armed again, a click on the scan (right of the legend window) takes its colour.
    h.get_by_label("Pick from scan").click();
    h.run();
    let at = {
        let app = h.state();
        let bg = app.doc.map.background.as_ref().expect("the scan's fit");
        screen_point(
            &app.ui.view,
            app.ui.map_rect,
            &bg.grid_to_image,
            // The middle of a black dot: (270 + 2 × 201) % 3 == 0, 270 even.
            [270.5, 201.5],
        )
    };
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.run();
    h.drop_at(at);
    h.run();
    assert_eq!(
        h.state().doc.map.terrain["c"].colour.rgb(),
        Some(field),
        "clicked at {at:?}"
    );
    assert_eq!(h.state().panels.legend.picking, None);
    assert_eq!(h.state().doc.history().undo_depth(), 1);
    h.get_by_label("Picked #5a8c3c from the scan");
    // Nothing else was painted by the click.
    assert_eq!(h.state().doc.terrain_uses('c'), 10 * 8);

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.terrain["c"].colour, before);

    // A tap (press and release in one frame: a touchpad, a remote desktop) picks like a click.
    h.get_by_label("Pick from scan").click();
    h.run();
    h.hover_at(at);
    h.run();
    tap(&mut h, at, egui::PointerButton::Primary);
    h.run();
    assert_eq!(
        h.state().doc.map.terrain["c"].colour.rgb(),
        Some(field),
        "a tap picks the colour"
    );
    assert_eq!(h.state().panels.legend.picking, None);
}

/// Undoing (and redoing) a legend edit shows the undone value in the open legend form: the form
/// follows the document, it does not keep the value just applied.
#[test]
fn undoing_a_legend_edit_refreshes_the_open_form() {
    let (_dir, mut h) = legend_on_forest(&blank_map(6, 5));
    type_text_into(&mut h, "Name", "Pine wood");
    click(&mut h, "Apply changes");
    h.run();
    assert_eq!(h.state().doc.map.terrain["f"].name, "Pine wood");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.run();
    assert_eq!(h.state().doc.map.terrain["f"].name, "Forest");
    assert_eq!(
        h.get_by_label("Name").value().as_deref(),
        Some("Forest"),
        "the form shows the undone name"
    );
    h.get_by_label("f: Forest");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.run();
    assert_eq!(
        h.get_by_label("Name").value().as_deref(),
        Some("Pine wood"),
        "and the redone one"
    );
}
