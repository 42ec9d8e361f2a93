//! End-to-end editing through the real app, driven by egui_kittest: paint with the brush, fill,
//! draw a river along hexsides, undo, redo, save, reload and compare the file.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::tools::Tool;
use bataille_schema::{HexIndex, Id, Side};
use egui::{Key, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;

use common::*;

fn lerp(a: Pos2, b: Pos2, t: f32) -> Pos2 {
    a + (b - a) * t
}

/// Presses at `points[0]`, moves through the points, releases at the last.
fn drag_through(h: &mut egui_kittest::Harness<'_, bataille_editor::EditorApp>, points: &[Pos2]) {
    let Some((&first, rest)) = points.split_first() else {
        return;
    };
    h.hover_at(first);
    h.drag_at(first);
    for &p in rest {
        h.hover_at(p);
    }
    h.drop_at(*points.last().unwrap_or(&first));
    h.run();
}

#[test]
fn paint_fill_river_undo_redo_save_reload() {
    let (dir, path) = temp_with_map(&blank_map(20, 12), "test.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
    let original = h.state().doc.map.clone();

    // Brush: B, pick Forest in the palette, drag down column 4.
    h.key_press(Key::B);
    h.run();
    assert_eq!(h.state().ui.tools.tool, Tool::Brush);
    h.get_by_label("f  Forest").click();
    h.run();
    assert_eq!(h.state().ui.tools.terrain, 'f');
    let a = h.state().screen_of_hex(HexIndex::new(4, 1));
    let b = h.state().screen_of_hex(HexIndex::new(4, 6));
    let points: Vec<Pos2> = (0..=10).map(|i| lerp(a, b, i as f32 / 10.0)).collect();
    drag_through(&mut h, &points);
    {
        let doc = &h.state().doc;
        for row in 1..=6 {
            assert_eq!(doc.code(HexIndex::new(4, row)), Some('f'), "row {row}");
        }
        assert_eq!(doc.code(HexIndex::new(4, 0)), Some('c'));
        assert_eq!(doc.code(HexIndex::new(4, 7)), Some('c'));
        assert_eq!(doc.code(HexIndex::new(3, 3)), Some('c'));
        assert_eq!(doc.code(HexIndex::new(5, 3)), Some('c'));
    }
    assert_eq!(
        h.state().doc.history().undo_depth(),
        1,
        "one stroke is one step"
    );
    assert!(h.state().window_title().contains('●'));
    h.get_by_label("unsaved");

    // Fill: F, pick Water, click in the forest: the six forest hexes become water.
    h.key_press(Key::F);
    h.run();
    assert_eq!(h.state().ui.tools.tool, Tool::Fill);
    h.get_by_label("w  Water").click();
    h.run();
    assert_eq!(h.state().ui.tools.tool, Tool::Fill);
    let p = h.state().screen_of_hex(HexIndex::new(4, 3));
    drag_through(&mut h, &[p, p]);
    {
        let doc = &h.state().doc;
        assert_eq!(doc.terrain_uses('w'), 6);
        assert_eq!(doc.terrain_uses('f'), 0);
        assert_eq!(doc.code(HexIndex::new(4, 6)), Some('w'));
    }
    assert_eq!(h.state().doc.history().undo_depth(), 2);

    // Hexside: H, drag a river along four connected edges.
    h.key_press(Key::H);
    h.run();
    assert_eq!(h.state().ui.tools.tool, Tool::Hexside);
    assert_eq!(h.state().ui.tools.hexside, Some(Id::from("river")));
    let grid = h.state().doc.map.grid.clone();
    let edges = [
        (HexIndex::new(10, 4), Side::NE),
        (HexIndex::new(10, 4), Side::SE),
        (HexIndex::new(10, 5), Side::NE),
        (HexIndex::new(10, 5), Side::SE),
    ];
    let mut points: Vec<Pos2> = Vec::new();
    for (hex, side) in edges {
        let [c0, c1] = grid.side_corners(hex, side).expect("a side");
        let s0 = h.state().screen_of(c0);
        let s1 = h.state().screen_of(c1);
        // Walk the edge from the end nearest the last point.
        let (from, to) = match points.last() {
            Some(&last) if (s1 - last).length() < (s0 - last).length() => (s1, s0),
            _ => (s0, s1),
        };
        for t in [0.15, 0.35, 0.5, 0.65, 0.85] {
            points.push(lerp(from, to, t));
        }
    }
    drag_through(&mut h, &points);
    let expected: Vec<_> = {
        let mut e: Vec<_> = edges
            .iter()
            .map(|(hex, side)| grid.hexside_ref(*hex, *side))
            .collect();
        e.sort();
        e
    };
    let river = |h: &H| hexsides_of(h, "river");
    assert_eq!(river(&h), expected);
    assert_eq!(
        h.state().doc.history().undo_depth(),
        3,
        "one drag is one step"
    );

    // Undo the river (Ctrl+Z), redo it (Ctrl+Shift+Z).
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(river(&h).is_empty());
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(river(&h), expected);

    // Undo everything: the map is the original; redo everything with Ctrl+Y.
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert_eq!(h.state().doc.map, original);
    assert!(!h.state().is_dirty(), "back at the saved state");
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
        h.run();
    }
    assert_eq!(river(&h), expected);
    assert_eq!(h.state().doc.terrain_uses('w'), 6);
    let edited = h.state().doc.map.clone();

    // Save (Ctrl+S): a toast, no unsaved mark, the file is the canonical text of the map.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!h.state().is_dirty());
    assert!(!h.state().window_title().contains('●'));
    h.get_by_label("Saved test.ron");
    h.get_by_label("saved");
    let text = std::fs::read_to_string(&path).expect("saved file");
    assert_eq!(
        text,
        bataille_schema::map_to_string(&edited).expect("canonical")
    );

    // Reload in a new editor: the same map.
    let reloaded = bataille_schema::load_map(&path).expect("reload").map;
    let mut canonical = edited.clone();
    canonical.canonicalize();
    assert_eq!(reloaded, canonical);
    let mut h2 = harness(app_with_file(dir.path(), &path));
    h2.run();
    assert_eq!(h2.state().doc.map, canonical);
    assert!(!h2.state().is_dirty());
}

#[test]
fn brush_size_keys_and_tool_shortcuts() {
    let (dir, path) = temp_with_map(&blank_map(12, 10), "keys.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    for tool in Tool::ALL {
        h.key_press(tool.key());
        h.run();
        assert_eq!(h.state().ui.tools.tool, tool);
    }
    h.key_press(Key::B);
    h.key_press(Key::CloseBracket);
    h.key_press(Key::CloseBracket);
    h.run();
    assert_eq!(h.state().ui.tools.brush_radius, 2);
    h.key_press(Key::OpenBracket);
    h.run();
    assert_eq!(h.state().ui.tools.brush_radius, 1);
    // A radius-1 click paints the hex and its six neighbours.
    h.get_by_label("m  Marsh").click();
    h.run();
    let p = h.state().screen_of_hex(HexIndex::new(5, 5));
    drag_through(&mut h, &[p, p]);
    assert_eq!(h.state().doc.terrain_uses('m'), 7);
    // N toggles hex names.
    let names = h.state().ui.view.layers.hex_names;
    h.key_press(Key::N);
    h.run();
    assert_ne!(h.state().ui.view.layers.hex_names, names);
}

#[test]
fn alt_click_picks_terrain() {
    let mut map = blank_map(10, 8);
    map.rows[3] = "ccvccccccc".into();
    let (dir, path) = temp_with_map(&map, "pick.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let p = h.state().screen_of_hex(HexIndex::new(2, 3));
    h.hover_at(p);
    h.event_modifiers(
        egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: Modifiers::ALT,
        },
        Modifiers::ALT,
    );
    h.run();
    h.event_modifiers(
        egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: Modifiers::ALT,
        },
        Modifiers::ALT,
    );
    h.run();
    assert_eq!(h.state().ui.tools.terrain, 'v');
    assert!(!h.state().is_dirty(), "picking changes nothing");
}

#[test]
fn overlay_and_label_tools() {
    let (dir, path) = temp_with_map(&blank_map(10, 8), "ov.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.key_press(Key::O);
    h.run();
    h.get_by_label("Town: Town").click();
    h.run();
    let p = h.state().screen_of_hex(HexIndex::new(3, 3));
    drag_through(&mut h, &[p, p]);
    let name = h.state().doc.map.grid.name(HexIndex::new(3, 3));
    assert!(h.state().doc.has_overlay(&name, &Id::from("town")));

    h.key_press(Key::L);
    h.run();
    h.get_by_label("Label text").focus();
    h.run();
    h.get_by_label("Label text").type_text("Denain");
    h.run();
    drag_through(&mut h, &[p, p]);
    assert_eq!(
        h.state().doc.map.labels.get(&name).map(String::as_str),
        Some("Denain")
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().doc.map.labels.is_empty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().doc.map.overlays.is_empty());
}

#[test]
fn space_drag_and_middle_drag_pan_without_painting() {
    let (dir, path) = temp_with_map(&blank_map(20, 12), "pan.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.get_by_label("f  Forest").click();
    h.run();
    let start = h.state().ui.view.centre;
    let a = h.state().screen_of_hex(HexIndex::new(5, 5));
    let b = a + egui::vec2(120.0, 40.0);
    // Space held while dragging with the primary button.
    h.hover_at(a);
    h.key_down(Key::Space);
    h.run();
    h.drag_at(a);
    h.hover_at(lerp(a, b, 0.5));
    h.hover_at(b);
    h.drop_at(b);
    h.key_up(Key::Space);
    h.run();
    assert!(!h.state().is_dirty(), "panning paints nothing");
    let moved = h.state().ui.view.centre - start;
    let zoom = h.state().ui.view.zoom;
    assert!((moved.x + 120.0 / zoom).abs() < 1e-3, "{moved:?}");
    assert!((moved.y + 40.0 / zoom).abs() < 1e-3, "{moved:?}");
    // Middle button drag.
    let start = h.state().ui.view.centre;
    h.hover_at(a);
    h.event(egui::Event::PointerButton {
        pos: a,
        button: egui::PointerButton::Middle,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.hover_at(b);
    h.event(egui::Event::PointerButton {
        pos: b,
        button: egui::PointerButton::Middle,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    assert!(!h.state().is_dirty());
    assert!((h.state().ui.view.centre - start).length() > 1.0);
    // Ctrl+0 fits the map again; Ctrl+1 is 100 %.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num1);
    h.run();
    assert!((h.state().ui.view.zoom_percent() - 100.0).abs() < 0.01);
    h.get_by_label("zoom 100%");
}

#[test]
fn wheel_zooms_to_the_cursor() {
    let (dir, path) = temp_with_map(&blank_map(20, 12), "zoom.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    let hex = HexIndex::new(14, 8);
    let p = h.state().screen_of_hex(hex);
    let zoom = h.state().ui.view.zoom;
    h.hover_at(p);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, 3.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: Modifiers::NONE,
    });
    h.run();
    assert!(h.state().ui.view.zoom > zoom * 1.2);
    let after = h.state().screen_of_hex(hex);
    assert!((after - p).length() < 1.0, "the hex stays under the cursor");
    h.get_by_label_contains("hex 1509");
}
