//! The checks on in-memory documents, as the editor calls them: the fixtures of
//! `tests/fixtures/` loaded, changed the way an edit would, and validated again.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::PathBuf;

use bataille_schema::scenario::{Placement, Unit};
use bataille_schema::{DocumentKind, HexIndex, HexName, Map, Scenario, Side, load_scenario};
use bataille_validator::{Code, Diagnostic, Options, validate_documents, validate_file};

fn fixture(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(relative)
}

fn fontenoy() -> (Scenario, Map) {
    let loaded = load_scenario(&fixture("valid/fontenoy.ron")).expect("the valid fixture loads");
    (loaded.scenario, loaded.map.map)
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<Code> {
    diagnostics.iter().map(|d| d.code).collect()
}

fn unit_mut<'a>(scenario: &'a mut Scenario, id: &str) -> &'a mut Unit {
    scenario
        .armies
        .iter_mut()
        .flat_map(|a| a.units.iter_mut())
        .find(|u| u.id.as_str() == id)
        .expect("unit exists")
}

fn hex(map: &Map, col: u32, row: u32) -> HexName {
    map.grid.name(HexIndex::new(col, row))
}

#[test]
fn the_valid_fixture_is_clean_with_and_without_the_schema_pass() {
    let (scenario, map) = fontenoy();
    assert!(validate_documents(&scenario, &map, &Options::default()).is_empty());
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
}

#[test]
fn an_edit_that_overstacks_gives_a_pointer_a_hex_and_related_units() {
    let (mut scenario, map) = fontenoy();
    // Fontenoy 3: suisses (3 CP) joins gardes-1 and gardes-2 (3 CP) at 0303.
    unit_mut(&mut scenario, "suisses").placement = Placement::Hex("0303".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    let stack: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == Code::E0301)
        .collect();
    assert_eq!(stack.len(), 1, "{diagnostics:#?}");
    let d = stack[0];
    assert_eq!(d.message, "hex 0303: 6 CP of infantry, at most 3");
    assert_eq!(d.hex.as_deref(), Some("0303"));
    assert_eq!(d.document, DocumentKind::Scenario);
    assert_eq!(d.pointer, "/armies/0/units/2/placement/Hex");
    assert_eq!(d.subject.as_deref(), Some("suisses"));
    assert!(d.span.is_none(), "no file in memory");
    let related: Vec<&str> = d
        .related
        .iter()
        .filter_map(|r| r.subject.as_deref())
        .collect();
    assert_eq!(related, ["gardes-1", "gardes-2"]);
    // Baggage at 0303 does not count (non-combat) and the battery left alone is legal.
    assert!(!d.message.contains("baggage"));
}

#[test]
fn an_infantry_counter_with_a_battery_is_legal_whatever_its_cp_but_not_two() {
    let (mut scenario, map) = fontenoy();
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // suisses (3 CP) is already with the battery at 0403; a second infantry counter breaks it.
    unit_mut(&mut scenario, "gardes-2").placement = Placement::Hex("0403".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0301], "{diagnostics:#?}");
}

#[test]
fn a_stack_fits_when_some_assignment_of_counters_to_terms_fits() {
    let (mut scenario, map) = fontenoy();
    // One term takes infantry or dragoons, one counter; another takes infantry, one counter.
    // Two infantry fit (one in each) although the first term alone is full after one.
    scenario.rules.stacking.compositions = vec![bataille_schema::scenario::Composition {
        name: "two".into(),
        terms: vec![
            bataille_schema::scenario::StackTerm {
                kinds: vec!["infantry".into(), "dragoons".into()],
                max_counters: Some(1),
                max_cp: None,
            },
            bataille_schema::scenario::StackTerm {
                kinds: vec!["infantry".into()],
                max_counters: Some(1),
                max_cp: None,
            },
        ],
    }];
    scenario.armies[0]
        .units
        .retain(|u| ["gardes-1", "gardes-2", "grassin"].contains(&u.id.as_str()));
    scenario.armies[1]
        .units
        .retain(|u| u.id.as_str() == "guards-2");
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    unit_mut(&mut scenario, "grassin").placement = Placement::Hex("0303".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0301]);
    assert_eq!(
        diagnostics[0].message,
        "hex 0303: 3 counters of infantry, at most 1"
    );
}

/// The French leader at `leader`, one unit of his corps at `unit`, the rest out of the way.
fn command_setup(leader: HexIndex, unit: HexIndex, radius: u32) -> (Scenario, Map) {
    let (mut scenario, map) = fontenoy();
    scenario.armies[0]
        .units
        .retain(|u| u.id.as_str() == "gardes-1");
    scenario.armies[1].units.clear();
    scenario.armies[1].commanders[0].placement = Placement::Unplaced;
    scenario.armies[1].corps[0]
        .leader
        .as_mut()
        .expect("leader")
        .placement = Placement::Unplaced;
    scenario.armies[0].corps[0]
        .leader
        .as_mut()
        .expect("leader")
        .placement = Placement::Hex(map.grid.name(leader));
    scenario.armies[0].commanders[0].placement = Placement::Hex(map.grid.name(leader));
    scenario.armies[0].corps[0]
        .leader
        .as_mut()
        .expect("leader")
        .radius_hexes = Some(radius);
    unit_mut(&mut scenario, "gardes-1").placement = Placement::Hex(map.grid.name(unit));
    (scenario, map)
}

fn enemy(id: &str, kind: &str, at: HexName, facing: Option<Side>) -> Unit {
    Unit {
        id: id.into(),
        name: id.into(),
        kind: kind.into(),
        corps: Some("anglais".into()),
        cp: Some(1),
        mp: None,
        morale: None,
        fire_modifier: None,
        always_in_command: false,
        facing,
        placement: Placement::Hex(at),
        ratings: Default::default(),
        allow: Default::default(),
    }
}

#[test]
fn rule_8_2_paths_do_not_cross_enemy_hexes_unless_a_friend_holds_them() {
    // 0101 → 0103: the only path of two hexes goes through 0102.
    let leader = HexIndex::new(0, 0);
    let target = HexIndex::new(0, 2);
    let middle = HexIndex::new(0, 1);
    let (mut scenario, map) = command_setup(leader, target, 2);
    let grid = &map.grid;
    let common: Vec<HexIndex> = grid
        .neighbours(leader)
        .map(|(_, h)| h)
        .filter(|h| grid.distance(*h, target) == 1)
        .collect();
    assert_eq!(common, [middle], "premise: one middle hex");
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());

    // An enemy battery east of the middle hex: all six hexsides front, so 0102 is blocked.
    let (_, beside) = grid
        .neighbours(middle)
        .find(|(_, h)| h.col == 1)
        .expect("a hex east");
    scenario.armies[1].units.push(enemy(
        "guns",
        "infantry",
        hex(&map, beside.col, beside.row),
        None,
    ));
    scenario
        .rules
        .unit_kinds
        .get_mut("infantry")
        .expect("kind")
        .front_hexsides = 6;
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    let w0901: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == Code::W0901)
        .collect();
    assert_eq!(w0901.len(), 1, "{diagnostics:#?}");
    assert!(
        w0901[0].message.contains("every path of at most 2 hexes"),
        "{}",
        w0901[0].message
    );
    assert_eq!(w0901[0].related[0].subject.as_deref(), Some("noailles"));

    // A friendly unit in the blocked hex opens the path again.
    let mut friend = enemy(
        "friend",
        "infantry",
        hex(&map, middle.col, middle.row),
        Some(Side::N),
    );
    friend.corps = Some("maison".into());
    scenario.armies[0].units.push(friend);
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert!(
        !codes(&diagnostics).contains(&Code::W0901),
        "{diagnostics:#?}"
    );

    // Without the rule, distance alone counts.
    scenario.armies[0]
        .units
        .retain(|u| u.id.as_str() != "friend");
    scenario.rules.command.blocked_by_enemy_front_and_flank = false;
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert!(
        !codes(&diagnostics).contains(&Code::W0901),
        "{diagnostics:#?}"
    );
}

#[test]
fn rule_9_3_a_line_of_battle_on_flank_hexes_carries_command() {
    // Infantry facing N has flank hexsides NW and SE: a line runs NW-SE.
    let (mut scenario, map) = command_setup(HexIndex::new(1, 1), HexIndex::new(1, 1), 0);
    let grid = map.grid.clone();
    let a = HexIndex::new(1, 1);
    let b = grid.neighbour(a, Side::SE).expect("SE");
    let c = grid.neighbour(b, Side::SE).expect("SE");
    for (id, at) in [("line-b", b), ("line-c", c)] {
        let mut u = enemy(id, "infantry", grid.name(at), Some(Side::N));
        u.corps = Some("maison".into());
        scenario.armies[0].units.push(u);
    }
    unit_mut(&mut scenario, "gardes-1").facing = Some(Side::N);
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());

    // Without lines of battle, B and C are out of command.
    scenario.rules.command.lines_of_battle = false;
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::W0901, Code::W0901]);

    // A unit in front of A (on its front hex, A on its rear) is in no line with it.
    scenario.rules.command.lines_of_battle = true;
    let front = grid.neighbour(a, Side::N).expect("N");
    unit_mut(&mut scenario, "line-c").placement = Placement::Hex(grid.name(front));
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::W0901], "{diagnostics:#?}");
    assert_eq!(diagnostics[0].subject.as_deref(), Some("line-c"));

    // Without B, C at the end of the line is cut off too.
    unit_mut(&mut scenario, "line-c").placement = Placement::Hex(grid.name(c));
    scenario.armies[0]
        .units
        .retain(|u| u.id.as_str() != "line-b");
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::W0901]);
}

#[test]
fn rule_9_3_cavalry_lines_need_only_adjacency() {
    let (mut scenario, map) = command_setup(HexIndex::new(1, 1), HexIndex::new(4, 4), 0);
    let grid = map.grid.clone();
    let a = HexIndex::new(1, 1);
    let b = grid.neighbour(a, Side::N).expect("N");
    unit_mut(&mut scenario, "gardes-1").placement = Placement::Hex(grid.name(b));
    unit_mut(&mut scenario, "gardes-1").kind = "cavalry".into();
    let mut anchor = enemy("anchor", "cavalry", grid.name(a), Some(Side::N));
    anchor.corps = Some("maison".into());
    scenario.armies[0].units.push(anchor);
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    unit_mut(&mut scenario, "anchor").kind = "infantry".into();
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(
        codes(&diagnostics),
        [Code::W0901],
        "infantry in front is no line for cavalry"
    );
}

#[test]
fn always_in_command_and_immobile_units_are_exempt() {
    let (mut scenario, map) = command_setup(HexIndex::new(0, 0), HexIndex::new(9, 7), 1);
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::W0901]
    );
    unit_mut(&mut scenario, "gardes-1").always_in_command = true;
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // 8.3 Tingry: a leader always in command is never reported out of his chief's radius.
    scenario.armies[0].commanders[0].radius_hexes = Some(0);
    scenario.armies[0].commanders[0].placement = Placement::Hex("1008".into());
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::W0801]
    );
    scenario.armies[0].corps[0]
        .leader
        .as_mut()
        .expect("leader")
        .always_in_command = true;
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
}

#[test]
fn suppressions_by_counter_by_scenario_and_by_option() {
    let (mut scenario, map) = command_setup(HexIndex::new(0, 0), HexIndex::new(9, 7), 1);
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::W0901]
    );
    let allowed = Options {
        allow: vec!["w0901".into()],
        ..Options::editor()
    };
    assert!(validate_documents(&scenario, &map, &allowed).is_empty());
    scenario.allow = vec!["W0901".into()];
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    scenario.allow.clear();
    unit_mut(&mut scenario, "gardes-1").allow = vec!["W0901".into()].into();
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // Another counter's allow list does not suppress it.
    unit_mut(&mut scenario, "gardes-1").allow.clear();
    scenario.armies[0].commanders[0].allow = vec!["W0901".into()];
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::W0901]
    );
}

#[test]
fn diagnostics_are_deterministic_and_sorted() {
    let report = validate_file(
        &fixture("invalid/w0506-zones-overlap.ron"),
        &Options::default(),
    );
    let again = validate_file(
        &fixture("invalid/w0506-zones-overlap.ron"),
        &Options::default(),
    );
    assert_eq!(report.diagnostics, again.diagnostics);
    let (mut scenario, map) = fontenoy();
    for unit in scenario.armies.iter_mut().flat_map(|a| a.units.iter_mut()) {
        unit.corps = None;
        unit.placement = Placement::Hex("0303".into());
    }
    let first = validate_documents(&scenario, &map, &Options::editor());
    let second = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(first, second);
    let mut sorted = first.clone();
    sorted.sort_by(Diagnostic::order);
    assert_eq!(first, sorted);
    assert!(first.iter().filter(|d| d.code == Code::E0401).count() >= 5);
}

#[test]
fn file_reports_resolve_spans_in_the_right_file() {
    let report = validate_file(
        &fixture("invalid/maps/e0603-unknown-code.ron"),
        &Options::default(),
    );
    assert_eq!(report.kind, Some(DocumentKind::Map));
    assert_eq!(report.errors(), 1);
    let span = report.diagnostics[0].span.as_ref().expect("resolved");
    assert_eq!((span.line, span.column, span.end_column), (22, 17, 18));
    let report = validate_file(
        &fixture("invalid/e0208-missing-map.ron"),
        &Options::default(),
    );
    assert_eq!(codes(&report.diagnostics), [Code::E0208]);
    assert_eq!(report.diagnostics[0].span.as_ref().map(|s| s.line), Some(4));
    let report = validate_file(&fixture("no-such-file.ron"), &Options::default());
    assert!(report.unreadable.is_some());
}

#[test]
fn the_docs_table_lists_every_code_with_its_severity_and_title() {
    let docs = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"),
    )
    .expect("docs/diagnostics.md");
    let is_code_row = |l: &&str| {
        let code = l.strip_prefix("| `").unwrap_or("");
        code.len() > 5
            && code.starts_with(['E', 'W'])
            && code[1..5].bytes().all(|b| b.is_ascii_digit())
    };
    let rows: Vec<&str> = docs.lines().filter(is_code_row).collect();
    assert_eq!(rows.len(), Code::ALL.len(), "one row per code");
    for code in Code::ALL {
        let row = format!(
            "| `{code}` | {} | {} | {} | {} |",
            code.severity().as_str(),
            code.group(),
            code.rule(),
            code.title()
        );
        assert!(
            rows.iter().any(|r| r.starts_with(&row)),
            "docs row for {code}: {row}"
        );
    }
}

/// Issue 23: from a code to its check in one jump. The registry names, for each code, the file
/// and function that raise it; the file exists, the function is in it and raises the code, and
/// docs/diagnostics.md links the code's row to that file and function.
#[test]
fn every_code_names_the_check_that_raises_it_and_the_docs_link_it() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("../docs/diagnostics.md")).expect("docs");
    for code in Code::ALL {
        let (file, function) = code
            .check()
            .split_once(": ")
            .unwrap_or_else(|| panic!("{code}: `file.rs: function`, not {:?}", code.check()));
        let text = std::fs::read_to_string(root.join("src").join(file))
            .unwrap_or_else(|e| panic!("{code}: {file}: {e}"));
        let start = text
            .find(&format!("fn {function}("))
            .or_else(|| text.find(&format!("fn {function}<")))
            .unwrap_or_else(|| panic!("{code}: no fn {function} in {file}"));
        // The function's body: up to the next function at the top level of the file.
        let body = &text[start..];
        let end = body[1..]
            .find("\nfn ")
            .into_iter()
            .chain(body[1..].find("\npub(crate) fn "))
            .chain(body[1..].find("\npub fn "))
            .chain(body[1..].find("\n#[cfg(test)]"))
            .min()
            .map_or(body.len(), |e| e + 1);
        assert!(
            body[..end].contains(&format!("Code::{code}")),
            "{code}: {file}'s {function} does not raise it"
        );
        let link = format!("[`{function}`](../validator/src/{file}) |");
        assert!(
            docs.lines()
                .any(|l| l.starts_with(&format!("| `{code}` |")) && l.ends_with(&link)),
            "{code}: docs/diagnostics.md's row ends with {link}"
        );
    }
}

#[test]
fn thousands_of_counters_in_one_hex_are_judged_without_deep_recursion() {
    let (mut scenario, map) = fontenoy();
    // One composition with no limit: any number of infantry may stack.
    scenario.rules.stacking.compositions = vec![bataille_schema::scenario::Composition {
        name: "any infantry".into(),
        terms: vec![bataille_schema::scenario::StackTerm {
            kinds: vec!["infantry".into()],
            max_counters: None,
            max_cp: None,
        }],
    }];
    let template = scenario.armies[0].units[0].clone();
    scenario.armies[0].units = (0..20_000)
        .map(|i| Unit {
            id: format!("u{i}").into(),
            ..template.clone()
        })
        .collect();
    let run = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || validate_documents(&scenario, &map, &Options::editor()))
        .expect("thread");
    let diagnostics = run.join().expect("no stack overflow");
    assert!(!codes(&diagnostics).contains(&Code::E0301));
}

#[test]
fn stacks_are_per_army_and_opposing_counters_are_e0304() {
    let (mut scenario, map) = fontenoy();
    // Fontenoy 3: gardes-1 (2 CP) and gardes-2 (1 CP) at 0303 make 3 CP of infantry, legal. An
    // Allied 1 CP there is not a 4th CP of infantry but an enemy in the hex (7.3).
    unit_mut(&mut scenario, "guards-1").placement = Placement::Hex("0303".into());
    unit_mut(&mut scenario, "guards-1").cp = Some(1);
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    let e0304: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == Code::E0304)
        .collect();
    assert!(
        !codes(&diagnostics).contains(&Code::E0301),
        "{diagnostics:#?}"
    );
    assert_eq!(e0304.len(), 1, "{diagnostics:#?}");
    let d = e0304[0];
    assert_eq!(d.hex.as_deref(), Some("0303"));
    assert_eq!(d.subject.as_deref(), Some("guards-1"));
    assert_eq!(d.pointer, "/armies/1/units/0/placement/Hex");
    // The French counters there, leader and baggage included, are related.
    let related: Vec<&str> = d
        .related
        .iter()
        .filter_map(|r| r.subject.as_deref())
        .collect();
    assert_eq!(related, ["noailles", "gardes-1", "gardes-2", "bagages"]);
    // A leader alone among enemies is reported too (no move enters an enemy-held hex).
    unit_mut(&mut scenario, "guards-1").placement = Placement::Free {
        zone: "allied-zone".into(),
        at: Some("0807".into()),
    };
    scenario.armies[1].corps[0]
        .leader
        .as_mut()
        .expect("leader")
        .placement = Placement::Hex("0204".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    let e0304: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == Code::E0304)
        .collect();
    assert_eq!(e0304.len(), 1, "{diagnostics:#?}");
    assert_eq!(e0304[0].subject.as_deref(), Some("ligonier"));
    assert!(e0304[0].message.contains("line leader `ligonier`"));
}

#[test]
fn zones_of_other_corps_are_errors_unless_shared() {
    use bataille_schema::scenario::{Owner, Zone};
    let (mut scenario, map) = fontenoy();
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // A French corps' zone: the Allied unit placed free in it breaks the set-up (0.2).
    scenario.zones.push(Zone {
        id: "maison-zone".into(),
        name: "Maison".into(),
        owner: Owner::Corps("maison".into()),
        hexes: vec!["0706".into()].into(),
        shared_with: Vec::new(),
    });
    unit_mut(&mut scenario, "guards-1").placement = Placement::Free {
        zone: "maison-zone".into(),
        at: Some("0706".into()),
    };
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0510], "{diagnostics:#?}");
    assert_eq!(diagnostics[0].hex.as_deref(), Some("0706"));
    assert!(diagnostics[0].is_error());
    // Shared with the Allied army (or its corps): legal.
    scenario.zones[1].shared_with = vec![Owner::Army("allied".into())];
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    scenario.zones[1].shared_with = vec![Owner::Corps("anglais".into())];
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // A commander in chief belongs to the corps he commands (8.1): Saxe commands the Maison,
    // so its zone is his; once he no longer commands it, it is not.
    scenario.zones[1].shared_with.clear();
    unit_mut(&mut scenario, "guards-1").placement = Placement::Hex("0706".into());
    scenario.armies[0].commanders[0].placement = Placement::Free {
        zone: "maison-zone".into(),
        at: Some("0706".into()),
    };
    scenario.armies[0].units.clear();
    scenario.armies[1].units.clear();
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [], "{diagnostics:#?}");
    scenario.armies[0].commanders[0].commands.clear();
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert!(
        codes(&diagnostics).contains(&Code::E0510),
        "{diagnostics:#?}"
    );
    // An unknown shared_with is a reference error.
    scenario.zones[1].shared_with = vec![Owner::Corps("nobody".into())];
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert!(
        codes(&diagnostics).contains(&Code::E0202),
        "{diagnostics:#?}"
    );
}

#[test]
fn leaders_stand_where_their_movement_class_can_go() {
    let (mut scenario, map) = fontenoy();
    // 0503 is forest, which cavalry cannot enter. Without a class leaders are not checked.
    scenario.armies[0].corps[0]
        .leader
        .as_mut()
        .expect("leader")
        .placement = Placement::Hex("0503".into());
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    scenario.rules.command.leaders_move_as = Some("cavalry".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0511], "{diagnostics:#?}");
    assert_eq!(diagnostics[0].hex.as_deref(), Some("0503"));
    assert_eq!(diagnostics[0].subject.as_deref(), Some("noailles"));
    // Dragoons move as cavalry: a class named through a kind's moves_as is known.
    scenario.rules.command.leaders_move_as = None;
    scenario.rules.command.commanders_move_as = Some("cavalry".into());
    scenario.armies[0].commanders[0].placement = Placement::Hex("0606".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0511], "{diagnostics:#?}");
    assert_eq!(diagnostics[0].subject.as_deref(), Some("saxe"));
    // A bridge over the river lets him stand there.
    scenario.armies[0].commanders[0].placement = Placement::Hex("0506".into());
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // A class no kind uses is a reference error.
    scenario.rules.command.commanders_move_as = Some("cavalery".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0204], "{diagnostics:#?}");
    assert_eq!(diagnostics[0].pointer, "/rules/command/commanders_move_as");
}

#[test]
fn column_entry_follows_halls_condition_over_entry_hexes() {
    use bataille_schema::scenario::EntryAllowance;
    let (mut scenario, map) = fontenoy();
    // One unit a turn by each hex; the game's last turn is 7.
    scenario.rules.stacking.column_entry = vec![EntryAllowance::AllMp];
    let arrive = |scenario: &mut Scenario, id: &str, entry: &[&str]| {
        let mut u = scenario.armies[1].units[1].clone();
        u.id = id.into();
        u.placement = Placement::Reinforcement {
            turn: 7,
            entry: entry.iter().map(|h| HexName::from(*h)).collect(),
        };
        scenario.armies[1].units.push(u);
    };
    scenario.armies[1].units[1].placement = Placement::Reinforcement {
        turn: 7,
        entry: vec!["1008".into()].into(),
    };
    // A by 1008, B by 1008 or 1007: A takes 1008 and B 1007 on turn 7.
    arrive(&mut scenario, "b", &["1008", "1007"]);
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // C by 1008 too: 1008 would need two places on the last turn.
    arrive(&mut scenario, "c", &["1008"]);
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0512], "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d.hex.as_deref(), Some("1008"));
    assert_eq!(d.subject.as_deref(), Some("c"));
    assert!(d.message.contains("1 cannot enter"), "{}", d.message);
    // Arriving a turn earlier, they fit.
    for u in &mut scenario.armies[1].units {
        if let Placement::Reinforcement { turn, .. } = &mut u.placement {
            *turn = 6;
        }
    }
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // Stacked entry, or no column limits: not checked.
    scenario.rules.stacking.column_entry.clear();
    for u in &mut scenario.armies[1].units {
        if let Placement::Reinforcement { turn, .. } = &mut u.placement {
            *turn = 7;
        }
    }
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
}

#[test]
fn allow_on_maps_and_corps_and_retired_codes() {
    let (mut scenario, mut map) = fontenoy();
    // A map's allow covers the map's diagnostics.
    map.overlays.insert("0101".into(), vec!["nothing".into()]);
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::E0604]
    );
    map.allow = vec!["E0604".into()];
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    assert!(bataille_validator::validate_map(&map, &Options::editor()).is_empty());
    map.allow = vec!["E0604".into(), "E9999".into()];
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::W0107]);
    assert_eq!(diagnostics[0].document, DocumentKind::Map);
    map.allow = vec!["E0604".into()];
    // A corps' allow covers its units and its line leader, not the other corps'.
    unit_mut(&mut scenario, "gardes-2").placement = Placement::Hex("1001".into());
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::W0901]
    );
    scenario.armies[1].corps[0].allow = vec!["W0901".into()];
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::W0901]
    );
    scenario.armies[0].corps[0].allow = vec!["W0901".into()];
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    // W0502 is retired: allowing it allows nothing, and the message names its replacement.
    scenario.armies[0].corps[0].allow = vec!["W0901".into(), "W0502".into()];
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::W0107]);
    assert!(
        diagnostics[0].message.contains("E0510"),
        "{}",
        diagnostics[0].message
    );
    assert_eq!(diagnostics[0].pointer, "/armies/0/corps/0/allow/1");
}

#[test]
fn fire_restrictions_name_terrain_of_the_map() {
    use bataille_schema::scenario::{FirePlace, FireRestriction};
    let (mut scenario, map) = fontenoy();
    scenario.rules.fire_restrictions = vec![FireRestriction {
        army: "french".into(),
        except_corps: vec![],
        fires_only: vec![FirePlace::NextTo("w".into()), FirePlace::Beyond("w".into())],
    }];
    assert!(validate_documents(&scenario, &map, &Options::editor()).is_empty());
    scenario.rules.fire_restrictions[0].fires_only[1] = FirePlace::Beyond("~".into());
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    assert_eq!(codes(&diagnostics), [Code::E0701]);
    assert_eq!(
        diagnostics[0].pointer,
        "/rules/fire_restrictions/0/fires_only/1/Beyond"
    );
    // Without a map it cannot be checked.
    assert!(bataille_validator::validate_scenario_alone(&scenario, &Options::editor()).is_empty());
    // The exempt corps must be of that army.
    scenario.rules.fire_restrictions[0].fires_only[1] = FirePlace::Beyond("w".into());
    scenario.rules.fire_restrictions[0].except_corps = vec!["anglais".into()];
    assert_eq!(
        codes(&validate_documents(&scenario, &map, &Options::editor())),
        [Code::E0202]
    );
}

#[test]
fn the_stress_battle_validates_clean_at_odd_sizes_too() {
    // The benchmarks' generator promises files that validate clean; at odd sizes its streams
    // used to run onto the map's edge (E0606: a hexside not between two hexes).
    for (columns, rows) in [(37, 25), (25, 37), (13, 13), (200, 9)] {
        let size = bataille_schema::stress::StressSize {
            columns,
            rows,
            units: 60,
            corps: 4,
        };
        let (map, scenario) = bataille_schema::stress::generate(size, "stress-map.ron");
        let errors: Vec<Code> = validate_documents(&scenario, &map, &Options::default())
            .iter()
            .filter(|d| d.severity == bataille_validator::Severity::Error)
            .map(|d| d.code)
            .collect();
        assert!(errors.is_empty(), "{columns}x{rows}: {errors:?}");
    }
}

/// Issue 23: the door opens a scenario's map while the scenario is parsed, from the first
/// `map: "..."` of its text. A decoy before the real field (a comment naming a broken map, or a
/// file outside the repository) must change nothing: the map the parsed scenario names is the
/// one checked and quoted, and the decoy is never reported.
#[test]
fn a_decoy_map_before_the_scenarios_own_is_never_what_is_checked() {
    let path = fixture("valid/fontenoy-decoy.ron");
    let text = std::fs::read_to_string(fixture("valid/fontenoy.ron")).unwrap();
    let seen = |text: String| {
        let report = bataille_validator::validate_source(
            bataille_schema::SourceFile::new(&path, text),
            &Options::default(),
        );
        let diagnostics: Vec<_> = report
            .diagnostics
            .iter()
            .map(|d| {
                let file = d.span.as_ref().map(|s| s.file.clone());
                (d.code, d.pointer.clone(), file)
            })
            .collect();
        let sources: Vec<_> = report.sources.iter().map(|s| s.path.clone()).collect();
        (diagnostics, sources)
    };
    let plain = seen(text.clone());
    assert!(plain.0.is_empty(), "{:?}", plain.0);
    assert_eq!(plain.1.len(), 2, "the scenario and its map: {:?}", plain.1);
    for decoy in [
        "../invalid/maps/e0603-unknown-code.ron",
        "../invalid/maps/e0122-nan-metres.ron",
        "../../../../../../../../etc/passwd",
        "../maps/no-such-map.ron",
    ] {
        let decoyed = text.replacen(
            "Scenario(\n",
            &format!("Scenario(\n    // map: \"{decoy}\",\n"),
            1,
        );
        assert_eq!(seen(decoyed), plain, "decoy {decoy}");
    }
    // The other way round: the real map is broken, a decoy before it is clean.
    let broken = text.replacen(
        "map: \"../maps/small.ron\"",
        "map: \"../invalid/maps/e0603-unknown-code.ron\"",
        1,
    );
    let (diagnostics, sources) = seen(broken.replacen(
        "Scenario(\n",
        "Scenario(\n    // map: \"../maps/small.ron\",\n",
        1,
    ));
    assert_eq!(
        (diagnostics.clone(), sources.clone()),
        seen(broken),
        "a clean decoy before a broken map"
    );
    assert!(diagnostics.iter().any(|(code, _, _)| *code == Code::E0603));
    assert!(
        sources[1].ends_with("e0603-unknown-code.ron"),
        "{sources:?}"
    );
}

/// A repeated id is one shared copy in its E0201 and the related first definition (issue 19:
/// 100,000 repeated ids held 200,000 copies of their ids), and both name it.
#[test]
fn a_repeated_id_is_shared_by_its_diagnostic_and_first_definition() {
    let (mut scenario, map) = fontenoy();
    let first = scenario.armies[0].units[0].id.clone();
    scenario.armies[0].units[1].id = first.clone();
    let diagnostics = validate_documents(&scenario, &map, &Options::editor());
    let d = diagnostics
        .iter()
        .find(|d| d.code == Code::E0201)
        .expect("the repeated id is reported");
    let subject = d.subject.as_ref().expect("a subject");
    let related = d.related[0].subject.as_ref().expect("a related subject");
    assert_eq!(&**subject, first.as_str());
    assert!(std::sync::Arc::ptr_eq(subject, related));
    assert_eq!(d.related[0].message, "first defined here, as a unit");
}
