//! Every exporter that writes markup, fed arbitrary names (issue 19: one way into markup).
//!
//! A property test (proptest): names made of markup characters (`<>&"'`), C0 and C1 controls,
//! bidi and zero-width characters, U+FFFE/U+FFFF, `{NEXT}` and other placeholders, letters of
//! every plane, short or very long, given to a battle's map, terrain, scenario, armies,
//! commanders, corps, line leaders, units and labels; then the VASSAL module's `buildFile.xml`,
//! the Tiled `.tmx` (its tileset inside), the table plan's SVG, the roster's SVG and every SVG
//! page of the print kit are parsed by an XML parser (roxmltree): each must be well-formed, hold
//! no element a name could have opened (`script`), and give each name back literally where the
//! output names it whole: what XML 1.0 can hold comes back equal, what it cannot
//! (`bataille_schema::markup::xml_can_hold`: C0 controls but tab/LF/CR, U+FFFE, U+FFFF) as
//! U+FFFD, as `schema/src/markup.rs` documents.
//!
//! The names do not go through the door here (which refuses control characters in a file,
//! E0123): the exporters are the sinks, and must hold whatever reaches them (the editor's
//! unsaved state, later callers).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::PathBuf;

use bataille_export::print::{PrintOptions, kit_pages};
use bataille_export::vassal::VassalOptions;
use bataille_schema::markup::xml_can_hold;
use bataille_schema::{Map, Scenario, System};
use bataille_table::PlanRequest;
use bataille_validator::door::{Document, open};
use proptest::prelude::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Denain, its map and the Age of Honor system, as the door opens them.
fn denain() -> (Scenario, Map, System) {
    let options = bataille_validator::Options {
        root: Some(root()),
        ..bataille_validator::Options::default()
    };
    let opened = open(&root().join("scenarios/denain-1712.ron"), &options);
    let Some(Document::Scenario(document)) = opened.document else {
        panic!("Denain opens: {:?}", opened.report.diagnostics);
    };
    let map = document.map.clone().expect("Denain's map").map;
    let system = document
        .system("age-of-honor")
        .expect("Age of Honor")
        .system
        .clone();
    (document.scenario, map, system)
}

/// The name as markup gives it back: what XML 1.0 cannot hold is U+FFFD.
fn expected(name: &str) -> String {
    name.chars()
        .map(|c| if xml_can_hold(c) { c } else { '\u{FFFD}' })
        .collect()
}

/// Every text and attribute value of a well-formed document; panics (with the place) when the
/// document is not well-formed or holds an element a name could have opened.
fn texts(what: &str, xml: &str) -> BTreeSet<String> {
    let doc = roxmltree::Document::parse_with_options(
        xml,
        roxmltree::ParsingOptions {
            allow_dtd: false,
            nodes_limit: u32::MAX,
            ..roxmltree::ParsingOptions::default()
        },
    )
    .unwrap_or_else(|error| {
        let at = error.pos();
        let line = xml.lines().nth(at.row as usize - 1).unwrap_or("");
        panic!("{what} is not well-formed XML: {error}\n{line:?}")
    });
    let mut out = BTreeSet::new();
    for node in doc.descendants() {
        if node.is_element() {
            let name = node.tag_name().name();
            assert!(
                !matches!(name, "script" | "foreignObject" | "iframe"),
                "{what}: a name opened a <{name}> element"
            );
            for attribute in node.attributes() {
                out.insert(attribute.value().to_owned());
            }
            // The text of an element whole (a `<text>` of several text nodes).
            let text: String = node
                .children()
                .filter(|c| c.is_text())
                .filter_map(|c| c.text())
                .collect();
            if !text.is_empty() {
                out.insert(text);
            }
        }
    }
    out
}

/// The name comes back whole in one text or attribute value (alone, or in a longer text: the
/// plan's title is "TITLE — SYSTEM").
fn assert_holds(what: &str, texts: &BTreeSet<String>, field: &str, name: &str) {
    let want = expected(name);
    assert!(
        texts.iter().any(|t| t.contains(&want)),
        "{what}: the {field} {name:?} does not come back whole (wanted {want:?})"
    );
}

/// Runs of white space as one space, none at either end.
fn one_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The names given to one battle, each field its own.
#[derive(Debug, Clone)]
struct Names {
    map: String,
    terrain: String,
    label: String,
    title: String,
    army: String,
    commander: String,
    corps: String,
    leader: String,
    unit: String,
}

fn rename(scenario: &mut Scenario, map: &mut Map, names: &Names) {
    map.name.clone_from(&names.map);
    if let Some(terrain) = map.terrain.values_mut().next() {
        terrain.name.clone_from(&names.terrain);
    }
    if let Some(label) = map.labels.values_mut().next() {
        label.clone_from(&names.label);
    }
    scenario.title.clone_from(&names.title);
    let army = &mut scenario.armies[0];
    army.name.clone_from(&names.army);
    army.commanders[0].name.clone_from(&names.commander);
    let corps = &mut army.corps[0];
    corps.name.clone_from(&names.corps);
    if let Some(leader) = corps.leader.as_mut() {
        leader.name.clone_from(&names.leader);
    }
    army.units[0].name = names.unit.as_str().into();
}

fn build_file(module: &[u8]) -> String {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(module)).expect("the module is a zip");
    let mut text = String::new();
    zip.by_name("buildFile.xml")
        .expect("buildFile.xml")
        .read_to_string(&mut text)
        .expect("buildFile.xml is UTF-8");
    text
}

/// Every exporter on the renamed battle: each output well-formed, each name back where the
/// output names it whole (a name an output does not show, or shows only cut into lines, is
/// not looked for there).
fn check_exports(base: &(Scenario, Map, System), names: &Names) {
    let (mut scenario, mut map, system) = base.clone();
    rename(&mut scenario, &mut map, names);
    let fields = [
        ("map name", &names.map),
        ("terrain name", &names.terrain),
        ("label", &names.label),
        ("title", &names.title),
        ("army name", &names.army),
        ("commander name", &names.commander),
        ("corps name", &names.corps),
        ("line leader name", &names.leader),
        ("unit name", &names.unit),
    ];
    let holds = |what: &str, texts: &BTreeSet<String>, shown: &[&str]| {
        for (field, name) in fields {
            if shown.contains(&field) {
                assert_holds(what, texts, field, name);
            }
        }
    };

    let module = bataille_export::vassal::export(
        &scenario,
        &map,
        &VassalOptions {
            px_per_hex: 16,
            ..VassalOptions::default()
        },
    )
    .expect("the module is made");
    holds(
        "buildFile.xml",
        &texts("buildFile.xml", &build_file(&module)),
        &[
            "map name",
            "title",
            "army name",
            "commander name",
            "corps name",
            "line leader name",
            "unit name",
        ],
    );

    // `{NEXT}` in a name stays text (it came out as the next object id).
    let tiled = bataille_export::tiled::export(&map, Some(&scenario), None, "battle")
        .expect("the Tiled map is made");
    holds(
        "the .tmx",
        &texts("the .tmx", &tiled.tmx),
        &["map name", "terrain name", "label", "unit name"],
    );

    let plan = bataille_table::plan(
        &scenario,
        &map,
        &system,
        &PlanRequest {
            figures: "15mm".into(),
            table: None,
            turn_degrees: 0.0,
        },
    )
    .expect("the plan is drawn");
    holds(
        "the table plan",
        &texts("the table plan", &plan.svg),
        &[
            "terrain name",
            "label",
            "title",
            "commander name",
            "line leader name",
            "unit name",
        ],
    );

    let pages = bataille_table::roster::roster_pages(&scenario, &system).expect("the roster");
    holds(
        "the roster",
        &texts("the roster", &bataille_table::roster::roster_svg(&pages)),
        &[
            "title",
            "army name",
            "commander name",
            "corps name",
            "line leader name",
            "unit name",
        ],
    );

    // The kit sets its texts as paragraphs: a run of white space is one space there, a line
    // break (LF, CR, VT, FF, U+0085, U+2028, U+2029) breaks the line, and a long name with
    // spaces may be broken over lines; so names are compared with their runs of white space
    // as one space, and only those of one line that cannot be broken (short, or without a
    // space) are looked for whole.
    let kit = kit_pages(&scenario, &map, &PrintOptions::default()).expect("the kit is drawn");
    let mut kit_texts = BTreeSet::new();
    for (i, (kind, svg)) in kit.iter().enumerate() {
        kit_texts.extend(
            texts(&format!("kit page {} ({kind:?})", i + 1), svg)
                .iter()
                .map(|t| one_space(t)),
        );
    }
    let one_line = |name: &str| {
        !name.chars().any(|c| c.is_whitespace() && c != ' ')
            && (name.chars().count() <= 30 || !name.contains(' '))
    };
    let fields = fields.map(|(field, name)| (field, one_line(name), one_space(&expected(name))));
    let holds = |what: &str, texts: &BTreeSet<String>, shown: &[&str]| {
        for (field, one_line, name) in &fields {
            if shown.contains(field) && *one_line {
                assert_holds(what, texts, field, name);
            }
        }
    };
    holds(
        "the print kit",
        &kit_texts,
        &[
            "map name",
            "label",
            "title",
            "army name",
            "commander name",
            "line leader name",
            "unit name",
        ],
    );
}

/// One character of a hostile name.
fn hostile_char() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-zA-Z0-9 ]{1,4}",
        3 => prop::sample::select(vec!["<", ">", "&", "\"", "'", "&amp;", "]]>", "<!--", "<script>", "{NEXT}", "{NEXTLAYER}", "%s", "$1", "\\"]).prop_map(str::to_owned),
        2 => prop::sample::select(vec!['\u{1}', '\u{8}', '\u{B}', '\u{C}', '\u{1B}', '\u{1F}', '\t', '\n', '\r', '\u{7F}']).prop_map(String::from),
        2 => prop::sample::select(vec!['\u{80}', '\u{85}', '\u{9B}', '\u{9F}']).prop_map(String::from),
        2 => prop::sample::select(vec!['\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200E}', '\u{61C}']).prop_map(String::from),
        2 => prop::sample::select(vec!['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{AD}']).prop_map(String::from),
        2 => prop::sample::select(vec!['\u{FFFE}', '\u{FFFF}', '\u{FFFD}', '\u{D7FF}', '\u{E000}', '\u{10FFFF}']).prop_map(String::from),
        2 => any::<char>().prop_map(String::from),
        1 => prop::sample::select(vec!["é", "Ö", "ß", "日本", "𝔘", "😀", "e\u{301}"]).prop_map(str::to_owned),
    ]
}

fn hostile_name() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(hostile_char(), 1..24).prop_map(|parts| parts.concat()),
        // Very long: a whole name of thousands of characters.
        1 => (hostile_char(), 500..4000usize).prop_map(|(part, n)| part.repeat(n / part.len().max(1) + 1)),
    ]
}

fn names() -> impl Strategy<Value = Names> {
    prop::collection::vec(hostile_name(), 9).prop_map(|n| Names {
        map: n[0].clone(),
        terrain: n[1].clone(),
        label: n[2].clone(),
        title: n[3].clone(),
        army: n[4].clone(),
        commander: n[5].clone(),
        corps: n[6].clone(),
        leader: n[7].clone(),
        unit: n[8].clone(),
    })
}

#[test]
fn the_names_listed_in_the_issue_survive_every_exporter() {
    let base = denain();
    let name = |s: &str| Names {
        map: format!("{s} map"),
        terrain: format!("{s} terrain"),
        label: format!("{s} label"),
        title: format!("{s} title"),
        army: format!("{s} army"),
        commander: format!("{s} commander"),
        corps: format!("{s} corps"),
        leader: format!("{s} leader"),
        unit: format!("{s} unit"),
    };
    for s in [
        "{NEXT}",
        "#cc0000\"/><script>alert(1)</script><rect x=\"0",
        "a\u{1}b\u{FFFE}c",
        "\u{202E}evil\u{200D}",
        "l'Escaut & <Selle>",
    ] {
        check_exports(&base, &name(s));
    }
}

proptest! {
    // A fixed seed: CI draws the same cases every run, so a bound near its limit cannot make
    // it fail one run in ten (issue 19); change the seed to explore, keep a failure as a case.
    #![proptest_config(ProptestConfig {
        cases: 12,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x19_0004),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_names_stay_text_in_every_exporter(names in names()) {
        thread_local! {
            static BASE: (Scenario, Map, System) = denain();
        }
        BASE.with(|base| check_exports(base, &names));
    }
}
