//! Map view budgets: a whole-app frame (egui run + tessellation) with a 200 × 200 map entirely
//! in view, still and while panning; and one brush stroke (tool input, commands, undo record,
//! chunk rebuild, then its undo) on a 200 × 200 map against the same stroke on a 20 × 20 map.
//!
//! `cargo bench -p bataille-editor --bench map_view` (criterion's figures, then a summary with
//! the medians and the stroke ratio; `BATAILLE_BENCH_SUMMARY_ONLY=1` for the summary alone).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use bataille_editor::tools::{StrokeKind, Tool};
use bataille_editor::{AppCommand, EditorApp, EditorConfig, UiCommand};
use bataille_schema::map::{
    Effects, Grid, HexNaming, HexsideSymbol, HexsideType, Orientation, OverlaySymbol, OverlayType,
    Pattern, Shifted, TerrainType,
};
use bataille_schema::{Colour, HexIndex, Id, Map, Side};
use criterion::Criterion;

const SCREEN: [f32; 2] = [1600.0, 1000.0];

fn terrain(name: &str, colour: &str, pattern: Option<Pattern>) -> TerrainType {
    TerrainType {
        name: name.into(),
        colour: Colour::from(colour),
        pattern,
        water: false,
        effects: Effects::default(),
    }
}

/// A square map with patches of every terrain, a river, a road, towns and labels.
fn bench_map(size: u32) -> Map {
    let mut legend = BTreeMap::new();
    legend.insert("c".into(), terrain("Clear", "#e4e8b8", None));
    legend.insert(
        "f".into(),
        terrain("Forest", "#6f9a55", Some(Pattern::Trees)),
    );
    legend.insert(
        "m".into(),
        terrain("Marsh", "#b9cfb0", Some(Pattern::Marsh)),
    );
    legend.insert(
        "w".into(),
        terrain("Water", "#8fb8d8", Some(Pattern::Water)),
    );
    legend.insert(
        "v".into(),
        terrain("Village", "#d9c7a0", Some(Pattern::Buildings)),
    );
    let grid = Grid {
        orientation: Orientation::Flat,
        shifted: Shifted::Odd,
        first_column: 1,
        first_row: 1,
        columns: size,
        rows: size,
        hex_names: HexNaming {
            column_digits: 3,
            row_digits: 3,
            separator: String::new(),
        },
    };
    let codes = ['c', 'c', 'c', 'f', 'm', 'c', 'w', 'v'];
    let rows = (0..size)
        .map(|row| {
            (0..size)
                .map(|col| {
                    let patch = (col / 5) * 31 + (row / 4) * 17;
                    codes[(patch % codes.len() as u32) as usize]
                })
                .collect()
        })
        .collect();
    let mut hexside_types = BTreeMap::new();
    hexside_types.insert(
        Id::from("river"),
        HexsideType {
            name: "River".into(),
            symbol: HexsideSymbol::River,
            colour: Colour::from("#2f6fb5"),
            water: true,
            bridge: false,
            blocks_zoc: true,
            needs_breach: false,
            cost: None,
            cost_by_kind: BTreeMap::new(),
        },
    );
    let mut overlay_types = BTreeMap::new();
    for (id, symbol) in [("town", OverlaySymbol::Town), ("road", OverlaySymbol::Road)] {
        overlay_types.insert(
            Id::from(id),
            OverlayType {
                name: id.into(),
                symbol,
                colour: None,
                bridge: false,
                effects: Effects::default(),
            },
        );
    }
    let mut map = Map {
        paths: Default::default(),
        short_lines: None,
        format_version: 1,
        name: format!("Bench {size}"),
        notes: None,
        grid: grid.clone(),
        metres_per_hex: None,
        terrain: legend,
        overlay_types,
        hexside_types,
        rows,
        overlays: BTreeMap::new(),
        hexsides: BTreeMap::new(),
        labels: BTreeMap::new(),
        friendly_edges: BTreeMap::new(),
        checked: Vec::new(),
        background: None,
        half_hexes: Vec::new(),
        allow: Vec::new(),
    };
    // The first 20 × 20 hexes are the same on every size, so that a stroke there meets the same
    // content on the small and the large map.
    let mut river = Vec::new();
    for row in 0..size {
        let col = 10 + (row / 8) % 3;
        river.push(grid.hexside_ref(HexIndex::new(col, row), Side::NE));
        river.push(grid.hexside_ref(HexIndex::new(col, row), Side::SE));
    }
    map.hexsides.insert(Id::from("river"), river);
    for col in 0..size {
        map.overlays
            .insert(grid.name(HexIndex::new(col, 6)), vec![Id::from("road")]);
    }
    for i in 0..size / 10 {
        let hex = HexIndex::new((i * 7) % size, (i * 13) % size);
        map.overlays
            .entry(grid.name(hex))
            .or_default()
            .push(Id::from("town"));
        map.labels.insert(grid.name(hex), format!("Place {i}"));
    }
    map
}

fn app_with(map: Map) -> EditorApp {
    let config = EditorConfig {
        config_dir: None,
        recovery_dir: None,
        picker: Box::new(bataille_editor::services::files::ScriptedPicker::default()),
        recovery_every_edits: 20,
        recovery_interval: Duration::from_secs(30),
        open_in_background_bytes: u64::MAX,
        variants_off_thread: false,
    };
    let mut app = EditorApp::new(config);
    let (doc, _) = bataille_editor::model::document::Document::from_map(map, None);
    app.replace_document(doc, false);
    app
}

fn input(time: f64) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(SCREEN[0], SCREEN[1]),
        )),
        time: Some(time),
        ..Default::default()
    }
}

/// One whole-app frame: egui run and tessellation. Returns the vertex count.
fn frame(ctx: &egui::Context, app: &mut EditorApp, time: f64) -> usize {
    let mut output = ctx.run_ui(input(time), |ui| app.ui_root(ui));
    let shapes = std::mem::take(&mut output.shapes);
    let primitives = ctx.tessellate(shapes, output.pixels_per_point);
    output.textures_delta.clear();
    primitives
        .iter()
        .map(|p| match &p.primitive {
            egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
            egui::epaint::Primitive::Callback(_) => 0,
        })
        .sum()
}

struct FrameFixture {
    ctx: egui::Context,
    app: EditorApp,
    time: f64,
}

impl FrameFixture {
    fn new(size: u32) -> FrameFixture {
        let ctx = egui::Context::default();
        let mut app = app_with(bench_map(size));
        let mut time = 0.0;
        // Settle: fonts, layout, fit, every chunk built.
        for _ in 0..3 {
            time += 0.016;
            frame(&ctx, &mut app, time);
        }
        FrameFixture { ctx, app, time }
    }

    fn still(&mut self) -> usize {
        self.time += 0.016;
        frame(&self.ctx, &mut self.app, self.time)
    }

    fn panning(&mut self) -> usize {
        self.time += 0.016;
        let dx = if (self.time * 10.0) as i64 % 2 == 0 {
            0.5
        } else {
            -0.5
        };
        self.app.ui.view.pan_by(egui::vec2(dx, 0.0));
        frame(&self.ctx, &mut self.app, self.time)
    }
}

/// One brush stroke through the tool (radius 1 over ten hexes of row 5), the chunk rebuild it
/// causes, then its undo and rebuild, so each iteration starts from the same map.
fn stroke(app: &mut EditorApp) {
    app.ui.tools.tool = Tool::Brush;
    app.ui.tools.brush_radius = 1;
    app.ui.tools.terrain = 'f';
    for (i, col) in (2..12).enumerate() {
        let [x, y] = app.doc.map.grid.centre(HexIndex::new(col, 5));
        let out = app
            .ui
            .tools
            .stroke_input(&app.doc, [x, y], StrokeKind::Add, i == 0, false);
        app.execute(AppCommand::Stroke(out));
    }
    let out = app.ui.tools.end_stroke();
    app.execute(AppCommand::Stroke(out));
    app.ui.view.rebuild_dirty(&app.doc, None);
    app.execute(UiCommand::Undo);
    app.ui.view.rebuild_dirty(&app.doc, None);
}

fn stroke_fixture(size: u32) -> EditorApp {
    let app = app_with(bench_map(size));
    app.ui.view.rebuild_dirty(&app.doc, None);
    app
}

fn benches(c: &mut Criterion) {
    let mut fixture = FrameFixture::new(200);
    c.bench_function("frame 200x200 whole map in view (still)", |b| {
        b.iter(|| black_box(fixture.still()))
    });
    c.bench_function("frame 200x200 whole map in view (panning)", |b| {
        b.iter(|| black_box(fixture.panning()))
    });
    for size in [20, 200] {
        let mut app = stroke_fixture(size);
        c.bench_function(&format!("brush stroke on {size}x{size}"), |b| {
            b.iter(|| stroke(&mut app))
        });
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn measure(iterations: usize, mut f: impl FnMut()) -> Duration {
    let samples = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    median(samples)
}

fn summary() {
    let mut fixture = FrameFixture::new(200);
    let vertices = fixture.still();
    let still = measure(200, || {
        black_box(fixture.still());
    });
    let panning = measure(200, || {
        black_box(fixture.panning());
    });
    let mut small = stroke_fixture(20);
    let mut large = stroke_fixture(200);
    // Interleave to share the machine's noise.
    let mut small_samples = Vec::new();
    let mut large_samples = Vec::new();
    for _ in 0..300 {
        let start = Instant::now();
        stroke(&mut small);
        small_samples.push(start.elapsed());
        let start = Instant::now();
        stroke(&mut large);
        large_samples.push(start.elapsed());
    }
    let small = median(small_samples);
    let large = median(large_samples);
    println!("\nsummary (medians)");
    println!(
        "  frame, 200x200 map in a {}x{} window, still:   {:.2} ms ({} vertices; budget 8 ms)",
        SCREEN[0],
        SCREEN[1],
        still.as_secs_f64() * 1e3,
        vertices
    );
    println!(
        "  frame, 200x200 map, panning every frame:        {:.2} ms",
        panning.as_secs_f64() * 1e3
    );
    println!(
        "  brush stroke 20x20: {:.3} ms; 200x200: {:.3} ms; ratio {:.2} (budget 1.2)",
        small.as_secs_f64() * 1e3,
        large.as_secs_f64() * 1e3,
        large.as_secs_f64() / small.as_secs_f64()
    );
}

fn main() {
    let quick = std::env::var_os("BATAILLE_BENCH_SUMMARY_ONLY").is_some();
    if !quick {
        let mut c = Criterion::default()
            .sample_size(30)
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        benches(&mut c);
        c.final_summary();
    }
    summary();
}
