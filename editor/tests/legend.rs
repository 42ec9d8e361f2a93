//! The legend editor through the real app: deleting a terrain type in use asks what replaces
//! it, and the whole edit is one undo step; adding a hexside type makes it drawable.

mod common;

use bataille_schema::HexIndex;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use common::*;

#[test]
fn deleting_terrain_in_use_asks_for_a_replacement() {
    let mut map = blank_map(10, 8);
    map.rows[2] = "cffffccccc".into();
    let (dir, path) = temp_with_map(&map, "legend.ron");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    h.get_by_label("Edit legend…").click();
    h.run();
    h.get_by_label("f: Forest").click();
    h.run();
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
    assert_eq!(h.state().history.undo_depth(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    let doc = &h.state().doc;
    assert!(doc.map.terrain.contains_key("f"));
    assert_eq!(doc.map.rows[2], "cffffccccc");
}
