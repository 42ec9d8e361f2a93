//! A scan to digitise in the tests: a map of terrain patches and a stream rendered by
//! bataille-render (flat, or photographed at an angle), a blank map over it, and the steps of
//! importing it and clicking on it through the real app.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bataille_digitize::calibrate::apply;
use bataille_editor::map::scan::screen_point;
use bataille_render::{Layout, RenderOptions, render_map};
use bataille_schema::map::Background;
use bataille_schema::{HexIndex, HexsideRef, Id, Map, Side};
use egui::Pos2;
use egui_kittest::kittest::Queryable;

use super::{H, blank_map, type_text_into, write_map};

pub const CODES: [char; 4] = ['c', 'f', 'm', 'w'];

/// The map the scan shows: patches of clear, forest, marsh and water, and a stream along
/// the hexsides east of column 7.
pub fn truth_map() -> Map {
    let mut map = blank_map(12, 9);
    map.rows = (0..9u32)
        .map(|row| {
            (0..12u32)
                .map(|col| CODES[((col / 3 + row / 3) % 4) as usize])
                .collect()
        })
        .collect();
    map.hexsides.insert(Id::from("stream"), stream_sides(&map));
    map
}

pub fn stream_sides(map: &Map) -> Vec<HexsideRef> {
    (0..9)
        .flat_map(|row| {
            let hex = HexIndex::new(6, row);
            [
                map.grid.hexside_ref(hex, Side::NE),
                map.grid.hexside_ref(hex, Side::SE),
            ]
        })
        .collect()
}

pub fn code_at(map: &Map, hex: HexIndex) -> char {
    map.rows[hex.row as usize]
        .chars()
        .nth(hex.col as usize)
        .unwrap_or('?')
}

/// How the truth map is rendered for the scan: 40 px a hex.
pub fn scan_options() -> RenderOptions {
    RenderOptions {
        px_per_hex: 40.0,
        margin_px: Some(30.0),
        ..RenderOptions::default()
    }
}

/// Renders the truth map to `scans/scan.png` under `dir`; returns the path and where the grid
/// lies on the image.
pub fn write_scan(dir: &Path) -> (PathBuf, [f64; 9]) {
    let options = scan_options();
    let map = truth_map();
    let pixmap = render_map(&map, &options).expect("render");
    let layout = Layout::new(&map.grid, &options).expect("layout");
    let path = scans_dir(dir).join("scan.png");
    bataille_render::save_png(&pixmap, &path).expect("png");
    (path, layout.grid_to_image())
}

/// [`write_scan`] of the truth map printed with its even columns one hex shorter
/// (`short_lines: Some(Even)`: the renderer leaves those cells out), the scan cut at the
/// print's edge.
pub fn write_short_columns_scan(dir: &Path) -> (PathBuf, [f64; 9]) {
    // Scanned with paper round the print (the short columns' end cells are notches in its
    // edge).
    let options = scan_options();
    let mut map = truth_map();
    map.short_lines = Some(bataille_schema::map::Shifted::Even);
    let pixmap = render_map(&map, &options).expect("render");
    let layout = Layout::new(&map.grid, &options).expect("layout");
    let path = scans_dir(dir).join("scan.png");
    bataille_render::save_png(&pixmap, &path).expect("png");
    (path, layout.grid_to_image())
}

/// `scans/` under `dir`, made.
fn scans_dir(dir: &Path) -> PathBuf {
    let scans = dir.join("scans");
    std::fs::create_dir_all(&scans).expect("scans dir");
    scans
}

/// The truth map photographed at an angle: the far (top) edge `keystone` narrower than the
/// near one (`bataille_digitize::synth`), written to `scans/scan.png` under `dir`; returns the
/// path and the true (projective) grid → image matrix.
pub fn write_keystoned_scan(dir: &Path, keystone: f64) -> (PathBuf, [f64; 9]) {
    use bataille_digitize::synth::{Mix, make_scan};
    let options = scan_options();
    let map = truth_map();
    let pixmap = render_map(&map, &options).expect("render");
    let layout = Layout::new(&map.grid, &options).expect("layout");
    let png = bataille_render::encode_png(&pixmap).expect("png");
    let rgb = image::load_from_memory(&png).expect("decoded").to_rgb8();
    let mix = Mix {
        keystone,
        ..Mix::clean()
    };
    let (w, h) = rgb.dimensions();
    let scan = make_scan(
        rgb.as_raw(),
        w,
        h,
        &layout.grid_to_image(),
        &[],
        0.0,
        &mix,
        1,
    )
    .expect("scan");
    let path = scans_dir(dir).join("scan.png");
    std::fs::write(&path, &scan.bytes).expect("png");
    (path, scan.grid_to_image)
}

/// A temp dir with `maps/map.ron` (blank terrain, the truth's grid and legend) and the scan.
pub fn setup(background: Option<Background>) -> (tempfile::TempDir, PathBuf, PathBuf, [f64; 9]) {
    setup_with(background, write_scan)
}

/// [`setup`] with the scan `write` makes.
pub fn setup_with(
    background: Option<Background>,
    write: impl FnOnce(&Path) -> (PathBuf, [f64; 9]),
) -> (tempfile::TempDir, PathBuf, PathBuf, [f64; 9]) {
    let dir = tempfile::tempdir().expect("dir");
    let (scan, truth) = write(dir.path());
    let mut map = blank_map(12, 9);
    map.background = background;
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(&maps).expect("maps dir");
    let path = maps.join("map.ron");
    write_map(&path, &map);
    (dir, path, scan, truth)
}

/// Runs frames until the UI settles (dialogs fading in and out take a few frames).
pub fn settle(h: &mut H) {
    for _ in 0..10 {
        if h.run_ok().is_some() {
            return;
        }
    }
    h.run();
}

/// Runs frames until no digitising job is running.
pub fn wait_for_jobs(h: &mut H) {
    let start = Instant::now();
    loop {
        h.step();
        let d = &h.state().services.digitise;
        if d.import_job.is_none() && !d.suggest.busy() && !d.print_refine.busy() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a job did not finish"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    settle(h);
}

pub fn click_at(h: &mut H, pos: Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

pub fn import(h: &mut H, file: &Path) {
    // The Digitise menu (the right dock has a Digitise page too once digitising).
    h.get_all_by_label("Digitise")
        .next()
        .expect("the Digitise menu")
        .click();
    h.run();
    h.get_by_label("Import scan…").click();
    h.run();
    // The editor's file dialog: the scan's folder, its row in the listing, Open (a file that
    // is not there, typed whole).
    if file.is_file() {
        let folder = file.parent().expect("a folder");
        type_text_into(h, "File path", &format!("{}/", folder.display()));
        let name = file.file_name().expect("a name").to_string_lossy();
        h.get_by_label(&format!("🗋 {name}")).click();
        h.run();
    } else {
        type_text_into(h, "File path", &file.display().to_string());
    }
    h.get_by_label("Open").click();
    settle(h);
    wait_for_jobs(h);
}

/// The screen point showing the scan pixel where the truth puts a hex's centre.
pub fn screen_of_scan_hex(h: &H, truth: &[f64; 9], hex: HexIndex, error_px: f64) -> Pos2 {
    let app = h.state();
    let [gx, gy] = app.doc.map.grid.centre(hex);
    let mut px = apply(truth, [f64::from(gx), f64::from(gy)]);
    px[0] += error_px;
    let bg = app.doc.map.background.as_ref().expect("a background");
    screen_point(&app.ui.view, app.ui.map_rect, &bg.grid_to_image, px)
}

pub fn max_matrix_error(map: &Map, a: &[f64; 9], b: &[f64; 9]) -> f64 {
    map.grid
        .indices()
        .map(|hex| {
            let [x, y] = map.grid.centre(hex);
            let (p, q) = (
                apply(a, [f64::from(x), f64::from(y)]),
                apply(b, [f64::from(x), f64::from(y)]),
            );
            ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt()
        })
        .fold(0.0, f64::max)
}
