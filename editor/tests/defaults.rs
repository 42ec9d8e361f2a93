//! Issue 21, what a new user hit, through the real app driven by egui_kittest: armies told
//! apart at a glance, another battle's rules without its history, placement and zones that fit
//! the unit, ids that follow names, nothing moving under the pointer, the file dialog, the
//! starter legend, a small window, notices and hidden hex names.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use bataille_editor::model::scenario_edit::new_scenario;
use bataille_editor::panels::oob::Sel;
use bataille_editor::{AppCommand, UiCommand};
use bataille_schema::scenario::{Army, Corps, Owner, Placement, Zone};
use bataille_schema::{HexIndex, Id, Scenario};
use egui::{Key, Modifiers, PointerButton};
use egui_kittest::kittest::Queryable;

use common::*;

/// Writes a 12 × 10 map and `scenario` beside it; opens the scenario.
fn open(scenario: &Scenario) -> (tempfile::TempDir, H) {
    let dir = tempfile::tempdir().expect("dir");
    write_map(&dir.path().join("map.ron"), &blank_map(12, 10));
    let path = dir.path().join("scenario.ron");
    std::fs::write(
        &path,
        bataille_schema::scenario_to_string(scenario).expect("scenario text"),
    )
    .expect("write scenario");
    let mut h = harness(app_with_file(dir.path(), &path));
    h.run();
    (dir, h)
}

fn corps(id: &str, name: &str, colour: &str) -> Corps {
    Corps {
        id: Id::from(id),
        name: name.into(),
        colour: colour.into(),
        leader: None,
        friendly_edges: Vec::new(),
        allow: Vec::new(),
    }
}

/// France (corps `aile`, blue) and Autriche (corps `arriere`, red), with these units.
fn two_armies(
    french: Vec<bataille_schema::scenario::Unit>,
    allied: Vec<bataille_schema::scenario::Unit>,
) -> Scenario {
    let mut s = scenario("map.ron");
    s.armies.push(france(french));
    s.armies.push(Army {
        id: Id::from("autriche"),
        name: "Autriche".into(),
        colour: None,
        friendly_edges: Vec::new(),
        commanders: Vec::new(),
        units: allied,
        corps: vec![corps("arriere", "Arrière-garde", "#b83a3a")],
    });
    s
}

fn zone(id: &str, name: &str, owner: Owner, hexes: &[&str]) -> Zone {
    Zone {
        id: Id::from(id),
        name: name.into(),
        owner,
        hexes: hexes.iter().map(|h| (*h).into()).collect(),
        shared_with: Vec::new(),
    }
}

fn shapes(h: &H) -> Vec<egui::Shape> {
    h.output()
        .shapes
        .iter()
        .map(|clipped| clipped.shape.clone())
        .collect()
}

/// Every shape, groups opened.
fn flat(shapes: Vec<egui::Shape>) -> Vec<egui::Shape> {
    let mut out = Vec::new();
    for shape in shapes {
        match shape {
            egui::Shape::Vec(inner) => out.extend(flat(inner)),
            other => out.push(other),
        }
    }
    out
}

// 1. Each army a colour family: a second army's corps never take the first army's colours,
// and its zones are tinted by it.
#[test]
fn two_armies_take_two_colour_families() {
    let (_dir, mut h) = open(&new_scenario("Colours", "map.ron"));
    click(&mut h, "Add army");
    click(&mut h, "Add corps");
    command(&mut h, AppCommand::Select(Some(Sel::Army(0))));
    click(&mut h, "Add corps");
    click(&mut h, "Add army");
    assert_eq!(h.state().ui.selection.item, Some(Sel::Army(1)));
    click(&mut h, "Add corps");
    command(&mut h, AppCommand::Select(Some(Sel::Army(1))));
    click(&mut h, "Add corps");
    let s = scenario_of(&h);
    let colours = |a: usize| -> Vec<String> {
        s.armies[a]
            .corps
            .iter()
            .map(|c| c.colour.to_string())
            .collect()
    };
    let (first, second) = (colours(0), colours(1));
    assert_eq!((first.len(), second.len()), (2, 2));
    assert_ne!(first[0], first[1], "corps of one army in shades");
    for colour in &second {
        assert!(!first.contains(colour), "{first:?} and {second:?}");
    }
    // The first army's corps are bluer than red, the second's redder than blue.
    let rgb = |c: &str| {
        let c = c.trim_start_matches('#');
        let v = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).expect("hex colour");
        (v(0), v(2), v(4))
    };
    for c in &first {
        let (r, _, b) = rgb(c);
        assert!(b > r, "{c} is of the blue family");
    }
    for c in &second {
        let (r, _, b) = rgb(c);
        assert!(r > b, "{c} is of the red family");
    }
}

// 1. A stack of two shows its count; a stack of two armies shows both armies' colours.
#[test]
fn a_stack_of_two_armies_shows_its_count_and_both_colours() {
    let s = two_armies(
        vec![unit("navarre", "Navarre", "aile", Some("0505"))],
        vec![{
            let mut u = unit("daun", "Daun", "arriere", Some("0505"));
            u.kind = Id::from("infantry");
            u
        }],
    );
    let (_dir, mut h) = open(&s);
    // Zoomed in, so that counters are drawn as shapes.
    command(&mut h, UiCommand::Zoom100);
    h.run();
    let all = flat(shapes(&h));
    let badge = all
        .iter()
        .any(|shape| matches!(shape, egui::Shape::Text(text) if text.galley.text() == "2"));
    assert!(badge, "a stack of two shows 2");
    let blue = egui::Color32::from_rgb(0x20, 0x40, 0xa0);
    let red = egui::Color32::from_rgb(0xb8, 0x3a, 0x3a);
    let filled = |colour: egui::Color32| {
        all.iter().any(|shape| match shape {
            egui::Shape::Circle(c) => c.fill == colour,
            egui::Shape::Path(p) => p.fill == colour,
            _ => false,
        })
    };
    assert!(filled(blue) && filled(red), "both armies on the badge");
    // One army: the badge without the ring of the other.
    let bataille_editor::map::counters::Badge { count, armies } =
        bataille_editor::map::counters::badge(
            h.state()
                .services
                .counters
                .by_hex
                .get(&HexIndex::new(4, 4))
                .expect("the stack"),
        )
        .expect("a badge");
    assert_eq!((count, armies.len()), (2, 2));
}

// 1. A broken rule's outline is a red line on a white casing: never a red army's zone edge.
#[test]
fn a_broken_rule_is_outlined_unlike_a_zone() {
    // Two units of France in Autriche's zone, which is red: E0501 (not in its zone).
    let mut s = two_armies(vec![], vec![]);
    let mut navarre = unit("navarre", "Navarre", "aile", None);
    navarre.placement = Placement::Free {
        zone: Id::from("zone-a"),
        at: Some("0303".into()),
    };
    s.armies[0].units.push(navarre);
    s.zones.push(zone(
        "zone-a",
        "Autriche's deployment zone",
        Owner::Army(Id::from("autriche")),
        &["0505", "0506"],
    ));
    let (_dir, mut h) = open(&s);
    command(&mut h, UiCommand::Zoom100);
    h.run();
    assert!(
        h.state()
            .services
            .diagnostics
            .diagnostics
            .iter()
            .any(|d| d.severity == bataille_validator::Severity::Error && d.hex.is_some()),
        "an error on a hex"
    );
    let [casing, core] =
        bataille_editor::layers::scenario::outline_strokes(bataille_validator::Severity::Error);
    let strokes: Vec<egui::Stroke> = flat(shapes(&h))
        .iter()
        .filter_map(|shape| match shape {
            egui::Shape::Path(p) => match p.stroke.color {
                egui::epaint::ColorMode::Solid(c) => Some(egui::Stroke::new(p.stroke.width, c)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert!(
        strokes.contains(&casing),
        "the casing is drawn: {strokes:?}"
    );
    assert!(strokes.contains(&core), "the red line is drawn");
    assert!(casing.width > core.width);
    let zone =
        bataille_editor::tools::zone::zone_colour(scenario_of(&h), &scenario_of(&h).zones[0]);
    assert_ne!(core.color, zone);
    assert_ne!(casing.color, zone);
}

// 2. A new scenario on Fontenoy's rules: its kinds, stacking and command, not its armies.
#[test]
fn fontenoy_rules_come_without_its_armies() {
    let (dir, map_path) = temp_with_map(&blank_map(10, 8), "field.ron");
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    click(&mut h, "Order of battle");
    click(&mut h, "New scenario for this map…");
    type_into(&mut h, "Title", "On Fontenoy's rules");
    type_into(&mut h, "Date", "1745-05-11");
    click(&mut h, "Rules");
    click(&mut h, "Fontenoy 1745's rules");
    click(&mut h, "Create scenario");
    h.run();
    let fontenoy: Scenario = bataille_schema::io::ron_options()
        .from_str(include_str!("../../scenarios/fontenoy-1745.ron"))
        .expect("Fontenoy");
    let s = scenario_of(&h);
    assert_eq!(s.rules.stacking, fontenoy.rules.stacking);
    assert_eq!(s.rules.command, fontenoy.rules.command);
    assert_eq!(
        s.rules.unit_kinds.keys().collect::<Vec<_>>(),
        fontenoy.rules.unit_kinds.keys().collect::<Vec<_>>()
    );
    let artillery = &s.rules.unit_kinds[&Id::from("artillery")];
    assert!(artillery.armies.is_empty(), "any army fields artillery");
    assert!(!artillery.name.contains("French"), "{}", artillery.name);
    assert!(artillery.immobile, "the rule itself comes");
    let diagnostics: Vec<String> = h
        .state()
        .services
        .diagnostics
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(diagnostics.is_empty(), "clean when empty: {diagnostics:?}");
    // The settings restrict a kind to an army again (Fontenoy 10).
    click(&mut h, "Add army");
    click(&mut h, "Add army");
    click(&mut h, "⚙ Settings…");
    let first = h
        .get_all_by_label("Army 1")
        .next()
        .expect("a tick for Army 1")
        .rect()
        .center();
    // The first kind in order is the artillery.
    tap(&mut h, first, PointerButton::Primary);
    h.run();
    click(&mut h, "Apply");
    assert_eq!(
        scenario_of(&h).rules.unit_kinds[&Id::from("artillery")].armies,
        vec![Id::from("army-2")]
    );
}

// 3. "Free in a zone" picks the unit's own zone, not the file's first (the enemy's).
#[test]
fn free_placement_takes_the_units_own_zone() {
    let mut s = two_armies(vec![unit("navarre", "Navarre", "aile", None)], vec![]);
    s.zones.push(zone(
        "zone-autriche",
        "Autriche's deployment zone",
        Owner::Army(Id::from("autriche")),
        &["0909"],
    ));
    s.zones.push(zone(
        "zone-france",
        "France's deployment zone",
        Owner::Army(Id::from("france")),
        &["0202"],
    ));
    let (_dir, mut h) = open(&s);
    command(&mut h, AppCommand::Select(Some(Sel::Unit(0, 0))));
    click(&mut h, "Placement");
    click(&mut h, "Free in a zone");
    h.run();
    match &scenario_of(&h).armies[0].units[0].placement {
        Placement::Free { zone, .. } => assert_eq!(zone.as_str(), "zone-france"),
        other => panic!("{other:?}"),
    }
}

// 3. New zones are named after their owner, numbered from the second.
#[test]
fn new_zones_are_named_after_their_owner() {
    let (_dir, mut h) = open(&two_armies(vec![], vec![]));
    command(&mut h, AppCommand::Select(Some(Sel::Army(1))));
    command(&mut h, UiCommand::Tool(bataille_editor::tools::Tool::Zone));
    click(&mut h, "New zone for Autriche");
    click(&mut h, "New zone for Autriche");
    let names: Vec<&str> = scenario_of(&h)
        .zones
        .iter()
        .map(|z| z.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["Autriche's deployment zone", "Autriche's deployment zone 2"]
    );
}

// 5. An id follows its name until the user types one; undo names the step.
#[test]
fn ids_follow_names_until_typed() {
    let (_dir, mut h) = open(&new_scenario("Ids", "map.ron"));
    click(&mut h, "Add army");
    click(&mut h, "Add corps");
    click(&mut h, "Add unit");
    assert_eq!(scenario_of(&h).armies[0].units[0].id.as_str(), "unit-1");
    type_into(&mut h, "Name", "Normandie");
    assert_eq!(scenario_of(&h).armies[0].units[0].id.as_str(), "normandie");
    assert_eq!(
        h.state().doc.history().undo_label(),
        Some("Rename unit Unit 1 to Normandie")
    );
    // Typed by the user, the id stays.
    type_into(&mut h, "Id", "nor-1");
    type_into(&mut h, "Name", "Normandie 1/");
    let unit = &scenario_of(&h).armies[0].units[0];
    assert_eq!(
        (unit.id.as_str(), unit.name.as_str()),
        ("nor-1", "Normandie 1/")
    );
    // A corps' id follows its name, and its units follow the corps.
    command(&mut h, AppCommand::Select(Some(Sel::Corps(0, 0))));
    type_into(&mut h, "Name", "Aile droite");
    let s = scenario_of(&h);
    assert_eq!(s.armies[0].corps[0].id.as_str(), "aile-droite");
    assert_eq!(
        s.armies[0].units[0].corps.as_ref().map(Id::as_str),
        Some("aile-droite")
    );
    // The army too.
    command(&mut h, AppCommand::Select(Some(Sel::Army(0))));
    type_into(&mut h, "Name", "Armée du Roi");
    assert_eq!(scenario_of(&h).armies[0].id.as_str(), "armee-du-roi");
}

// 6. F8 leaves the map still when the diagnostic's hex is already in sight.
#[test]
fn going_to_a_hex_in_sight_leaves_the_map_still() {
    // Navarre stands at 0606 in Autriche's zone: E0501 there.
    let mut s = two_armies(vec![], vec![]);
    let mut navarre = unit("navarre", "Navarre", "aile", None);
    navarre.placement = Placement::Free {
        zone: Id::from("zone-a"),
        at: Some("0606".into()),
    };
    s.armies[0].units.push(navarre);
    s.zones.push(zone(
        "zone-a",
        "Autriche's deployment zone",
        Owner::Army(Id::from("autriche")),
        &["0909"],
    ));
    let (_dir, mut h) = open(&s);
    assert!(
        h.state()
            .services
            .diagnostics
            .diagnostics
            .iter()
            .any(|d| d.hex.as_deref() == Some("0606")),
        "an error at 0606: {:?}",
        h.state().services.diagnostics.diagnostics
    );
    let before = h.state().ui.view.centre;
    h.key_press(Key::F8);
    h.run();
    assert_eq!(h.state().ui.view.centre, before, "the hex was in sight");
    // Zoomed in far elsewhere, F8 brings it into view.
    h.state_mut().ui.view.zoom = 200.0;
    h.state_mut().ui.view.centre = egui::pos2(0.0, 0.0);
    let d = h
        .state()
        .services
        .diagnostics
        .diagnostics
        .iter()
        .find(|d| d.hex.as_deref() == Some("0606"))
        .cloned()
        .expect("the error");
    command(&mut h, AppCommand::GoToDiagnostic(Box::new(d)));
    let [x, y] = h.state().doc.map.grid.centre(HexIndex::new(5, 5));
    assert_eq!(h.state().ui.view.centre, egui::pos2(x, y));
}

// 6. A dialog keeps its top edge when its content grows: a row added does not move the
// buttons above it.
#[test]
fn a_dialog_stays_put_when_it_grows() {
    let (dir, map_path) = temp_with_map(&blank_map(10, 8), "field.ron");
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    click(&mut h, "Order of battle");
    click(&mut h, "New scenario for this map…");
    h.run();
    let title = h.get_by_label("Title").rect().top();
    click(&mut h, "Rules");
    click(&mut h, "Another scenario's rules");
    h.run();
    h.get_by_label("Scenario file");
    assert_eq!(h.get_by_label("Title").rect().top(), title);
}

// 8. A double click on a folder enters it and opens nothing inside.
#[test]
fn a_double_click_on_a_folder_enters_it() {
    let dir = tempfile::tempdir().expect("dir");
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(maps.join("inner")).expect("folders");
    let map_path = maps.join("field.ron");
    write_map(&map_path, &blank_map(10, 8));
    write_map(&maps.join("inner/aaa.ron"), &blank_map(6, 6));
    write_map(&maps.join("inner/bbb.ron"), &blank_map(6, 6));
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    // 4. The path field has the keyboard at once.
    assert!(
        h.get_by_label("File path").is_focused(),
        "the path is typed at once"
    );
    // The folder is the listing's first row; inside it, aaa.ron is.
    let folder = h.get_by_label("📁 inner").rect().center();
    double_tap(&mut h, folder);
    assert!(h.state().ui.dialog.is_some(), "the dialog is still open");
    assert_eq!(
        h.state().doc.map_path.as_deref(),
        Some(map_path.as_path()),
        "nothing opened"
    );
    assert!(h.get_by_label("🗋 aaa.ron").rect().contains(folder));
    // A double click on a file inside opens it.
    double_tap(&mut h, folder);
    assert_eq!(
        h.state().doc.map_path.as_deref(),
        Some(maps.join("inner/aaa.ron").as_path())
    );
}

/// Two clicks in two frames in a row (a quarter of a second apart in the harness): a double
/// click.
fn double_tap(h: &mut H, at: egui::Pos2) {
    for _ in 0..2 {
        let events = &mut h.input_mut().events;
        events.push(egui::Event::PointerMoved(at));
        for pressed in [true, false] {
            events.push(egui::Event::PointerButton {
                pos: at,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            });
        }
        h.step();
    }
    h.run();
}

// 10. The starter legend has a village and hexside features; a hexside feature named without
// an id takes one from its name.
#[test]
fn the_starter_legend_draws_a_village_and_a_stream() {
    let dir = tempfile::tempdir().expect("dir");
    let mut h = harness(bataille_editor::EditorApp::new(
        bataille_editor::EditorConfig::isolated(dir.path()),
    ));
    h.run();
    {
        let map = &h.state().doc.map;
        assert!(
            map.terrain.values().any(|t| t.effects.built_up),
            "a village"
        );
        assert!(map.hexside_types.contains_key("stream"));
    }
    h.get_by_label("Edit legend…").click();
    h.run();
    click(&mut h, "Hexside features");
    click(&mut h, "➕ New");
    type_text_into(&mut h, "Name", "Haie vive");
    type_text_into(&mut h, "Id", "");
    click(&mut h, "Add to legend");
    assert!(
        h.state().doc.map.hexside_types.contains_key("haie-vive"),
        "{:?}",
        h.state().doc.map.hexside_types.keys().collect::<Vec<_>>()
    );
}

// 11. At 1024 × 700 with the docks shown, the map has more than half the window's width.
#[test]
fn a_small_window_leaves_the_map_room() {
    let dir = tempfile::tempdir().expect("dir");
    write_map(&dir.path().join("map.ron"), &blank_map(12, 10));
    let path = dir.path().join("scenario.ron");
    let s = new_scenario("Small", "map.ron");
    std::fs::write(
        &path,
        bataille_schema::scenario_to_string(&s).expect("text"),
    )
    .expect("write");
    let mut app = app_with_file(dir.path(), &path);
    app.services.diagnostics.live.mode = bataille_editor::services::validation::Mode::Inline;
    let mut h = egui_kittest::Harness::builder()
        .with_size([1024.0, 700.0])
        .build_ui_state(
            |ui, app: &mut bataille_editor::EditorApp| app.ui_root(ui),
            app,
        );
    h.run();
    h.run();
    assert!(h.state().ui.settings.show_left_dock && h.state().ui.settings.show_right_dock);
    let map = h.state().ui.map_rect.width();
    assert!(map > 540.0, "the map is {map} of 1024 px");
}

// 11. A notice wraps between words.
#[test]
fn a_notice_wraps_between_words() {
    let (_dir, mut h) = open(&new_scenario("Toast", "map.ron"));
    // A short notice first: the corner's area took its width, and the next, long one was laid
    // out in it.
    command(&mut h, AppCommand::Notify("Saved".to_owned()));
    let text = "Exported the Tiled map /tmp/battles/fontenoy-1745/exports/fontenoy.tmx and \
                2 image(s) beside it";
    command(&mut h, AppCommand::Notify(text.to_owned()));
    let galley = flat(shapes(&h))
        .into_iter()
        .find_map(|shape| match shape {
            egui::Shape::Text(t) if t.galley.text() == text => Some(t.galley),
            _ => None,
        })
        .expect("the notice is shown");
    assert!(galley.rows.len() > 1, "long enough to wrap");
    let rows: Vec<String> = galley.rows.iter().map(|r| r.text()).collect();
    for row in &rows[..rows.len() - 1] {
        assert!(row.ends_with(' '), "{rows:?}");
    }
}

// 12. Hex names hidden on one map are hidden on the next, and the status bar says so.
#[test]
fn hidden_hex_names_are_said_and_offered_back() {
    let (dir, map_path) = temp_with_map(&blank_map(10, 8), "field.ron");
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    assert!(h.query_by_label_contains("hex names off").is_none());
    h.key_press(Key::N);
    h.run();
    assert!(!h.state().ui.view.layers.hex_names);
    click(&mut h, "hex names off (N)");
    assert!(h.state().ui.view.layers.hex_names);
}

// 9. An export into a folder that does not exist makes it, and the next export starts there.
#[test]
fn exports_make_their_folder_and_remember_it() {
    let (dir, mut h) = open(&two_armies(
        vec![unit("navarre", "Navarre", "aile", Some("0303"))],
        vec![],
    ));
    command(&mut h, UiCommand::ExportTiled);
    let out = dir.path().join("exports/tiled/battle.tmx");
    type_into(&mut h, "Destination", &out.display().to_string());
    h.get_by_label_contains("will be created");
    h.get_by_label("Export").click();
    h.step();
    let start = std::time::Instant::now();
    while h.state().services.exports.job.is_some() {
        h.step();
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the export ends"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for _ in 0..5 {
        h.step();
    }
    assert!(
        matches!(h.state().services.exports.last, Some(Ok(_))),
        "{:?}",
        h.state().services.exports.last
    );
    assert!(out.is_file());
    command(&mut h, UiCommand::ExportVassal);
    let form = match &h.state().ui.dialog {
        Some(bataille_editor::Dialog::Export(form)) => form.out.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        std::path::Path::new(&form).parent(),
        Some(dir.path().join("exports/tiled").as_path())
    );
}

// 9. A new map's Save As starts in the folder of the last file opened, not the working folder.
#[test]
fn a_new_map_is_saved_where_the_last_file_was() {
    let dir = tempfile::tempdir().expect("dir");
    let (_maps, earlier) = temp_with_map(&blank_map(6, 6), "earlier.ron");
    let mut h = harness(bataille_editor::EditorApp::new(
        bataille_editor::EditorConfig::isolated(dir.path()),
    ));
    h.run();
    h.state_mut().ui.settings.recent = vec![earlier.clone()];
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    let typed = match &h.state().ui.dialog {
        Some(bataille_editor::Dialog::Path { dialog, .. }) => dialog.text.clone(),
        other => panic!("{other:?}"),
    };
    let folder = earlier.parent().expect("folder");
    assert!(
        std::path::Path::new(&typed).starts_with(folder),
        "{typed} is in {}",
        folder.display()
    );
}

// 7. A calibration point's name field takes the keyboard as the point is clicked, the suggested
// name filled in and selected: typing replaces it (it was a grey hint to retype at point 2, and
// from point 3 typing appended to it: "0120120 — not a hex").
#[test]
fn a_calibration_points_name_is_typed_over_its_suggestion() {
    use common::scan::{click_at, import, screen_of_scan_hex, setup};
    let (dir, map_path, scan_path, truth) = setup(None);
    let mut h = harness(app_with_file(dir.path(), &map_path));
    h.run();
    import(&mut h, &scan_path);
    h.get_by_label("Calibrate").click();
    h.run();
    h.get_by_label("✚ Click hex centres").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Num0);
    h.run();
    let points = [
        (HexIndex::new(0, 0), "0101"),
        (HexIndex::new(11, 0), "1201"),
        (HexIndex::new(0, 8), "0109"),
        (HexIndex::new(6, 4), "0705"),
    ];
    for (i, (hex, name)) in points.iter().enumerate() {
        let at = screen_of_scan_hex(&h, &truth, *hex, 0.0);
        click_at(&mut h, at);
        let field = format!("Hex of point {}", i + 1);
        assert!(
            h.get_by_label(&field).is_focused(),
            "{field} has the keyboard"
        );
        if i >= 1 {
            // From the second point the fit suggests the name: it is there already.
            assert!(
                !h.state().services.digitise.calibration.points[i]
                    .hex
                    .is_empty(),
                "point {} is suggested",
                i + 1
            );
        }
        h.event(egui::Event::Text((*name).to_owned()));
        h.run();
        h.key_press(Key::Enter);
        h.run();
        assert_eq!(h.state().services.digitise.calibration.points[i].hex, *name);
    }
    let fitted = h
        .state()
        .doc
        .map
        .background
        .as_ref()
        .map_or(0, |b| b.control_points.len());
    assert_eq!(fitted, 4);
}
