//! Issue 19's second round of hostile inputs through the editor's file open (the same door as
//! the commands): a link to a device, a file over the size limit, control characters written
//! as RON escapes, a `map:` leading outside the repository, a system contradicting itself,
//! and a map whose scan's colour profile inflates to 1.5 GiB. Each opens or is refused with
//! its reason and place, nothing outside the repository is quoted, and nothing hangs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

mod common;

use std::path::Path;

use bataille_editor::Dialog;
use common::scan::wait_for_jobs;
use common::*;
use egui_kittest::kittest::Queryable;

const SECRET: &str = "SECRET-MARKER-e41a";

/// Runs the app until a file opened in the background (one over
/// `EditorConfig::open_in_background_bytes`, or any under load) has been read.
fn wait_opened(h: &mut H) {
    let start = std::time::Instant::now();
    // Step, not run: while the file is read in the background the spinner asks for a frame
    // every frame, and `run` fails once it passes max_steps (it did under load).
    h.step();
    while h.state().services.opening.is_some() {
        h.step();
        assert!(start.elapsed().as_secs() < 60, "never opened");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // The settling frames after the open: a toast may still animate, which is not a failure.
    let _ = h.run_ok();
}

fn message(h: &H) -> String {
    match &h.state().ui.dialog {
        Some(Dialog::Error { message, .. }) => message.clone(),
        other => panic!("an error dialog, not {other:?}"),
    }
}

/// Denain's files in a repository (`.git`), a secret beside the repository.
fn club() -> tempfile::TempDir {
    let dir = denain_files();
    std::fs::create_dir_all(dir.path().join(".git")).expect("a repository");
    dir
}

fn edit(path: &Path, old: &str, new: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(old), "{old}");
    std::fs::write(path, text.replacen(old, new, 1)).expect("write");
}

#[test]
fn a_device_or_an_oversized_file_is_refused_at_open_without_reading_it() {
    let dir = club();
    let zero = dir.path().join("maps/zero.ron");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("link");
    let mut h = harness(app_with_file(dir.path(), &zero));
    wait_opened(&mut h);
    let said = message(&h);
    assert!(
        said.contains("not a regular file") || said.contains("device"),
        "{said}"
    );
    assert!(h.state().doc.map_path.is_none(), "nothing opened");

    let big = dir.path().join("maps/big.ron");
    let mut text = std::fs::read_to_string(dir.path().join("maps/denain-1712.ron")).expect("map");
    text.push_str(&" ".repeat(65 << 20));
    std::fs::write(&big, text).expect("write");
    let mut h = harness(app_with_file(dir.path(), &big));
    wait_opened(&mut h);
    let said = message(&h);
    assert!(said.contains("E0106") || said.contains("MiB"), "{said}");
    assert!(h.state().doc.map_path.is_none(), "nothing opened");
}

#[test]
fn an_escaped_control_character_is_refused_at_open_with_its_place() {
    let dir = club();
    let scenario = dir.path().join("scenarios/denain-1712.ron");
    edit(
        &scenario,
        "name: \"Gardes françaises\"",
        "name: \"Gardes\\u{1b}[2J\\u{9b}31m\"",
    );
    let mut h = harness(app_with_file(dir.path(), &scenario));
    wait_opened(&mut h);
    let said = message(&h);
    assert!(said.contains("E0123"), "{said}");
    assert!(said.contains(&format!("{}:", scenario.display())), "{said}");
    assert!(
        !said.contains('\u{1b}') && !said.contains('\u{9b}'),
        "{said:?}"
    );
    assert!(h.state().doc.scenario.is_none());
}

#[test]
fn a_map_outside_the_repository_is_never_read_or_quoted() {
    let dir = club();
    let outside = dir
        .path()
        .parent()
        .expect("parent")
        .join(format!("secret-{}.ron", std::process::id()));
    std::fs::write(&outside, format!("Map({SECRET})")).expect("secret");
    let scenario = dir.path().join("scenarios/denain-1712.ron");
    let name = outside.file_name().unwrap().to_string_lossy().into_owned();
    edit(
        &scenario,
        "map: \"../maps/denain-1712.ron\"",
        &format!("map: \"../../{name}\""),
    );
    let mut h = harness(app_with_file(dir.path(), &scenario));
    wait_opened(&mut h);
    let said = message(&h);
    std::fs::remove_file(&outside).ok();
    assert!(said.contains("E0208"), "{said}");
    assert!(!said.contains(SECRET), "{said}");
    assert!(
        h.state()
            .services
            .io_errors
            .iter()
            .all(|e| !e.contains(SECRET)),
        "{:?}",
        h.state().services.io_errors
    );
}

#[test]
fn a_system_contradicting_itself_is_reported_where_written() {
    let dir = club();
    let system = dir.path().join("systems/age-of-honor.ron");
    edit(
        &system,
        "values: Range(min: 1, max: 24)",
        "values: Range(min: 24, max: 1)",
    );
    let opened = bataille_validator::door::open(
        &dir.path().join("scenarios/denain-1712.ron"),
        &bataille_validator::Options {
            json_schema: true,
            ..bataille_validator::Options::editor()
        },
    );
    let codes: Vec<&str> = opened
        .report
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert!(
        codes.contains(&"E1011") && codes.contains(&"E1001"),
        "{codes:?}"
    );
    // The editor opens the scenario (to fix it) and says what is wrong with the system.
    let scenario = dir.path().join("scenarios/denain-1712.ron");
    let mut h = harness(app_with_file(dir.path(), &scenario));
    wait_opened(&mut h);
    assert!(h.state().doc.scenario.is_some(), "opened to be fixed");
}

/// A map whose scan carries an iCCP chunk inflating to 1.5 GiB opens, its scan loads without
/// inflating the profile (this process would need 1.5 GB more), and the user is told the
/// profile was skipped.
#[test]
fn a_colour_profile_bomb_in_the_maps_scan_is_skipped_and_said() {
    use flate2::{Compress, Compression, FlushCompress};
    let dir = club();
    let mut deflater = Compress::new(Compression::best(), false);
    let mut block = Vec::with_capacity(8 << 10);
    deflater
        .compress_vec(&vec![0u8; 1 << 20], &mut block, FlushCompress::Sync)
        .expect("deflate");
    let mut end = Vec::with_capacity(64);
    deflater
        .compress_vec(&[], &mut end, FlushCompress::Finish)
        .expect("deflate");
    let mut profile = b"bomb\0\0\x78\xda".to_vec();
    for _ in 0..1536 {
        profile.extend_from_slice(&block);
    }
    profile.extend_from_slice(&end);
    profile.extend_from_slice(
        &(((1536u64 << 20) % 65521) as u32)
            .wrapping_shl(16)
            .wrapping_add(1)
            .to_be_bytes(),
    );
    let mut plain = Vec::new();
    image::RgbImage::from_pixel(64, 48, image::Rgb([200, 180, 140]))
        .write_to(
            &mut std::io::Cursor::new(&mut plain),
            image::ImageFormat::Png,
        )
        .expect("png");
    let mut png = plain[..33].to_vec();
    png.extend_from_slice(&(profile.len() as u32).to_be_bytes());
    let mut body = b"iCCP".to_vec();
    body.extend_from_slice(&profile);
    let mut crc = flate2::Crc::new();
    crc.update(&body);
    png.extend_from_slice(&body);
    png.extend_from_slice(&crc.sum().to_be_bytes());
    png.extend_from_slice(&plain[33..]);
    std::fs::write(dir.path().join("maps/scan.png"), &png).expect("write");
    let map = dir.path().join("maps/denain-1712.ron");
    edit(
        &map,
        "    grid:",
        "    background: (image: \"scan.png\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:",
    );
    let mut h = harness(app_with_file(dir.path(), &map));
    wait_opened(&mut h);
    wait_for_jobs(&mut h);
    h.run();
    assert!(h.state().services.digitise.scan.is_some(), "the scan loads");
    let toasts: Vec<String> = h.state().ui.toasts.iter().map(|t| t.text.clone()).collect();
    assert!(
        toasts
            .iter()
            .any(|t| t.contains("scan.png") && t.contains("skipped")),
        "{toasts:?}"
    );
}

/// Hostile round 5: a map of 999 rows, each of the wrong length, is opened and repaired; the
/// dialog saying so listed all 999 repair notes, and its OK button was far below the window.
/// The dialog now shows 20 notes and how many more, and OK is on the screen and closes it.
#[test]
fn a_dialog_of_a_thousand_repair_notes_keeps_its_ok_button_on_the_screen() {
    let dir = club();
    let map = dir.path().join("maps/denain-1712.ron");
    let text = std::fs::read_to_string(&map).expect("map");
    let start = text.find("    rows: [\n").expect("rows");
    let end = start + text[start..].find("\n    ],").expect("rows end");
    let rows = (0..999).map(|_| "        \".\",\n").collect::<String>();
    let mut text = format!("{}    rows: [\n{rows}{}", &text[..start], &text[end + 1..]);
    let grid = regex_rows(&text);
    text = text.replacen(&grid, "rows: 999,", 1);
    std::fs::write(&map, text).expect("write");
    let mut h = harness(app_with_file(dir.path(), &map));
    wait_opened(&mut h);
    let said = message(&h);
    assert!(said.lines().count() <= 21, "{} lines", said.lines().count());
    assert!(said.ends_with("more lines"), "{said}");
    let ok = h.get_by_label("OK").rect();
    assert!(ok.bottom() < 800.0, "OK at {ok:?}, below the 800 px window");
    h.get_by_label("OK").click();
    let _ = h.run_ok();
    assert!(h.state().ui.dialog.is_none(), "{:?}", h.state().ui.dialog);
}

/// The grid's `rows: N,` of a map's text.
fn regex_rows(text: &str) -> String {
    let at = text.find("rows: ").expect("the grid's rows");
    let end = at + text[at..].find(',').expect("comma");
    text[at..=end].to_owned()
}
