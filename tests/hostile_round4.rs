//! A fourth round of hostile inputs (issue 19, `tests/hostile/round4.py`): the holes it found,
//! each kept shut on the real `bataille` binary, every run under an address-space and a time
//! limit, inside the 0/1/2 contract with no panic or abort.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/club.rs"]
mod club;
mod support;

use std::collections::BTreeSet;
use std::io::Read as _;

use club::{Club, SCENARIO};

const GARDES: &str = "                (id: \"fr-gardes-francaises\", name: \"Gardes françaises\", kind: \"infantry\", corps: \"fr-maison-du-roi\", cp: 3, mp: 4, morale: 5, facing: SE, placement: Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")),\n";

/// A unit beside the Gardes françaises, with its own id, name and values (so its own counter).
fn add_unit(club: &Club, id: &str, name: &str, values: &str) {
    let twin = GARDES
        .replace("\"fr-gardes-francaises\"", &format!("\"{id}\""))
        .replace("\"Gardes françaises\"", &format!("\"{name}\""))
        .replace("cp: 3, mp: 4, morale: 5", values);
    club.edit(SCENARIO, GARDES, &format!("{GARDES}{twin}"));
}

/// The image names of every piece slot named `name` in the module's build file, and the
/// module's entries.
fn images_of(club: &Club, module: &str, name: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let file = std::fs::File::open(club.path(module)).expect("the module");
    let mut zip = zip::ZipArchive::new(file).expect("a zip");
    let entries: BTreeSet<String> = zip
        .file_names()
        .map(|name| name.expect("an entry name").into_owned())
        .collect();
    let mut build = String::new();
    zip.by_name("buildFile.xml")
        .expect("buildFile.xml")
        .read_to_string(&mut build)
        .expect("text");
    let mut images = BTreeSet::new();
    let marker = format!("entryName=\"{name}\"");
    for (at, _) in build.match_indices(&marker) {
        let slot = &build[at..at + build[at..].find("</VASSAL").expect("the slot's end")];
        for word in slot.split(|c: char| !(c.is_ascii_alphanumeric() || "_.-".contains(c))) {
            if word.ends_with(".png") {
                images.insert(word.to_owned());
            }
        }
    }
    assert!(!images.is_empty(), "no piece named {name}");
    for image in &images {
        assert!(entries.contains(&format!("images/{image}")), "{image}");
    }
    (images, entries)
}

/// Names made inside the VASSAL module are one per counter by construction: a counter's back
/// (`X-back`), a replacement counter (`replacement-X`) and a long id's cut name ending with
/// its hash were each written out as another unit's valid id, and the module gave both
/// counters one image, so one showed the other's values. Now a stem never holds the `.` that
/// joins an image's parts, counters that are not units have a `:` no id holds, and no stem is
/// cut.
#[test]
fn names_inside_the_module_are_one_per_counter_whatever_the_ids() {
    let club = Club::new();
    add_unit(
        &club,
        "fr-gardes-francaises-back",
        "Gardes arriere",
        "cp: 2, mp: 3, morale: 4",
    );
    add_unit(
        &club,
        "replacement-fr-gardes-francaises",
        "Gardes remplacees",
        "cp: 4, mp: 3, morale: 4",
    );
    // A long id (cut before, ending with a hash of itself) and the id its cut name spelt.
    let long = format!("aaaa{}", ".".repeat(40));
    let hash = long.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let short = format!("aaaa{}-{hash:016x}", ".".repeat(24));
    add_unit(&club, &long, "Long", "cp: 2, mp: 2, morale: 2");
    add_unit(&club, &short, "Short", "cp: 1, mp: 1, morale: 1");
    let run = club.run(&["export", "--vassal", SCENARIO, "--out", "out.vmod"]);
    assert_eq!(run.code, 0, "{}", run.all());

    let (gardes, _) = images_of(&club, "out.vmod", "Gardes françaises");
    for (other, why) in [
        ("Gardes arriere", "a unit `X-back` and X's back"),
        ("Gardes françaises (replacement)", "X's replacement counter"),
        ("Gardes remplacees", "a unit `replacement-X` and X"),
    ] {
        let (theirs, _) = images_of(&club, "out.vmod", other);
        assert!(gardes.is_disjoint(&theirs), "{why}: {gardes:?} {theirs:?}");
    }
    let (replacement, _) = images_of(&club, "out.vmod", "Gardes françaises (replacement)");
    let (twin, _) = images_of(&club, "out.vmod", "Gardes remplacees");
    assert!(replacement.is_disjoint(&twin), "{replacement:?} {twin:?}");
    let (long_images, _) = images_of(&club, "out.vmod", "Long");
    let (short_images, _) = images_of(&club, "out.vmod", "Short");
    assert!(
        long_images.is_disjoint(&short_images),
        "{long_images:?} {short_images:?}"
    );
}

/// A table side is from 10 cm to 20 m: 0.001 mm (or 1e-300 cm) passed the parser, which only
/// refused sides of 0 or less, and the plan's entry labels panicked in `f64::clamp` (min > max).
#[test]
fn a_table_of_a_few_microns_is_refused_not_a_panic() {
    let club = Club::new();
    for table in ["0.001x0.001mm", "5x1e-300cm", "9x9cm", "1e-300x5cm"] {
        let run = club.table("plan.svg", &["--table", table]);
        assert_eq!(run.code, 2, "{table}: {}", run.all());
        assert!(run.stderr.contains("from 10 cm to 20 m"), "{}", run.all());
        assert!(!club.path("plan.svg").exists());
    }
    let run = club.table("plan.svg", &["--table", "10x10cm"]);
    assert_eq!(run.code, 0, "{}", run.all());
}

/// `--doubtful-below` is a confidence, a finite number of 0 or more: `NaN` was taken, and every
/// comparison with it is false, so nothing was listed as doubtful and nothing said why.
/// Refused as the command line is read (the files are never opened).
#[test]
fn a_doubtful_threshold_that_is_no_confidence_is_refused() {
    let club = Club::new();
    for value in ["NaN", "inf", "-inf", "-1", "-0.5"] {
        let option = format!("--doubtful-below={value}");
        let run = club.run(&[
            "digitize",
            "scan.png",
            "--calibration",
            "c.ron",
            "--samples",
            "s.ron",
            "--out",
            "m.ron",
            &option,
        ]);
        assert_eq!(run.code, 2, "{value}: {}", run.all());
        assert!(
            run.stderr.contains("a confidence of 0 or more"),
            "{}",
            run.all()
        );
    }
}

/// `bataille schema --out` writes its four schemas all or none: with a folder where
/// `system.schema.json` goes, the map's and scenario's schemas had already been replaced.
#[test]
fn the_schemas_are_written_all_or_none() {
    let club = Club::new();
    std::fs::create_dir_all(club.path("schemas/system.schema.json")).expect("a folder");
    club.write("schemas/map.schema.json", "OLD");
    let run = club.run(&["schema", "--out", "schemas"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert_eq!(club.read("schemas/map.schema.json"), "OLD", "{}", run.all());
    assert!(!club.path("schemas/scenario.schema.json").exists());
    let left: Vec<_> = std::fs::read_dir(club.path("schemas"))
        .expect("listed")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary left: {left:?}");

    std::fs::remove_dir(club.path("schemas/system.schema.json")).expect("removed");
    let run = club.run(&["schema", "--out", "schemas"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(club.read("schemas/map.schema.json").starts_with('{'));
}
