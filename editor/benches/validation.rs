//! Live validation budgets: the time from an edit (a counter moved to another hex, through the
//! app's command path) to fresh diagnostics, on Denain (budget 5 ms) and on the 5,000-unit stress
//! scenario (budget 50 ms), on the UI thread and through the worker thread; and the whole-app
//! frame time on the stress scenario while a check is pending on the worker (the frame must not
//! wait for it), with every counter of the 200 × 200 map in view.
//!
//! `cargo bench -p bataille-editor --bench validation` (criterion's figures, then a summary of
//! medians; `BATAILLE_BENCH_SUMMARY_ONLY=1` for the summary alone).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use bataille_editor::model::document::{Document, ScenarioFile};
use bataille_editor::model::scenario_edit::CounterAt;
use bataille_editor::services::validation::Mode;
use bataille_editor::{EditorApp, EditorConfig};
use bataille_schema::stress::{StressSize, generate};
use bataille_schema::{HexIndex, Map, Scenario};
use criterion::Criterion;

const SCREEN: [f32; 2] = [1600.0, 1000.0];

fn app_with(map: Map, scenario: Scenario, mode: Mode) -> EditorApp {
    let config = EditorConfig {
        config_dir: None,
        recovery_dir: None,
        picker: Box::new(bataille_editor::services::files::ScriptedPicker::default()),
        recovery_every_edits: u64::MAX,
        recovery_interval: Duration::from_secs(3600),
        open_in_background_bytes: u64::MAX,
        variants_off_thread: false,
    };
    let mut app = EditorApp::new(config);
    let (mut doc, _) = Document::from_map(map, None);
    doc.scenario = Some(ScenarioFile {
        scenario,
        path: "bench.ron".into(),
    });
    app.replace_document(doc, false);
    app.services.diagnostics.live.mode = mode;
    app.services.diagnostics.revalidate(&app.doc);
    let _ = app.services.diagnostics.live.wait(Duration::from_secs(60));
    app
}

fn denain() -> (Map, Scenario) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/denain-1712.ron");
    let loaded = bataille_schema::load_scenario(&path).expect("Denain loads");
    (loaded.map.map, loaded.scenario)
}

fn stress() -> (Map, Scenario) {
    generate(
        StressSize {
            columns: 200,
            rows: 200,
            units: 5000,
            corps: 100,
        },
        "m.ron",
    )
}

/// A placed unit and two hexes to move it between.
struct Mover {
    unit: CounterAt,
    hexes: [HexIndex; 2],
    next: usize,
}

impl Mover {
    fn new(app: &EditorApp) -> Mover {
        let s = &app.doc.scenario.as_ref().expect("scenario").scenario;
        let grid = &app.doc.map.grid;
        for (a, army) in s.armies.iter().enumerate() {
            for (u, unit) in army.units.iter().enumerate() {
                if let Some(hex) = unit.placement.hex().and_then(|h| grid.lookup(h))
                    && let Some((_, other)) = grid.neighbours(hex).next()
                {
                    return Mover {
                        unit: CounterAt::Unit(a, u),
                        hexes: [other, hex],
                        next: 0,
                    };
                }
            }
        }
        panic!("no placed unit");
    }

    /// One edit through the app's command path (which re-validates).
    fn edit(&mut self, app: &mut EditorApp) {
        let hex = self.hexes[self.next % 2];
        self.next += 1;
        app.move_counter(self.unit, hex);
        // The check the edit asked for (the frame runs it; here, right away).
        app.validate_now();
    }
}

/// Edit, then fresh diagnostics (inline: they are fresh when the edit returns).
fn edit_to_fresh(app: &mut EditorApp, mover: &mut Mover) -> usize {
    mover.edit(app);
    match app.services.diagnostics.live.mode {
        Mode::Inline => app.services.diagnostics.diagnostics.len(),
        _ => app
            .services
            .diagnostics
            .live
            .wait(Duration::from_secs(60))
            .map_or(0, |rows| rows.len()),
    }
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

fn frame(ctx: &egui::Context, app: &mut EditorApp, time: f64) {
    let mut output = ctx.run_ui(input(time), |ui| app.ui_root(ui));
    let shapes = std::mem::take(&mut output.shapes);
    black_box(ctx.tessellate(shapes, output.pixels_per_point));
    output.textures_delta.clear();
}

/// The CPU time this thread has used (the kernel's `sum_exec_runtime`, in nanoseconds, from
/// `/proc/thread-self/schedstat`, updated at scheduler ticks): what frames cost whatever else
/// the shared machine runs.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// The stress scenario on the worker, the whole map in view, settled.
struct FrameFixture {
    ctx: egui::Context,
    app: EditorApp,
    mover: Mover,
    time: f64,
    /// The UI thread's CPU time of each frame measured since the last `take_cpu`.
    cpu: Vec<Duration>,
}

impl FrameFixture {
    fn new(mode: Mode) -> FrameFixture {
        let (map, scenario) = stress();
        let mut app = app_with(map, scenario, mode);
        let mover = Mover::new(&app);
        let ctx = egui::Context::default();
        let mut time = 0.0;
        for _ in 0..3 {
            time += 0.016;
            frame(&ctx, &mut app, time);
        }
        FrameFixture {
            ctx,
            app,
            mover,
            time,
            cpu: Vec::new(),
        }
    }

    /// The frame in which an edit is made (as when a drag ends): the edit, its validation
    /// when inline (sent to the worker otherwise), then the whole app's frame. Returns its
    /// time and whether the check was still pending after it.
    fn edit_then_frame(&mut self) -> (Duration, bool) {
        // Start from fresh rows.
        let _ = self
            .app
            .services
            .diagnostics
            .live
            .wait(Duration::from_secs(60));
        self.time += 0.016;
        let start = Instant::now();
        let cpu = thread_cpu();
        self.mover.edit(&mut self.app);
        frame(&self.ctx, &mut self.app, self.time);
        let took = start.elapsed();
        self.cpu.push(thread_cpu().saturating_sub(cpu));
        (took, self.app.services.diagnostics.pending())
    }

    fn still(&mut self) -> Duration {
        self.time += 0.016;
        let start = Instant::now();
        let cpu = thread_cpu();
        frame(&self.ctx, &mut self.app, self.time);
        self.cpu.push(thread_cpu().saturating_sub(cpu));
        start.elapsed()
    }

    /// The mean CPU time of the frames since the last call (the kernel counts CPU time in
    /// scheduler ticks, so one frame's reading is coarse, but their sum is not).
    fn take_cpu(&mut self) -> Duration {
        let frames = std::mem::take(&mut self.cpu);
        frames.iter().sum::<Duration>() / frames.len().max(1) as u32
    }
}

fn benches(c: &mut Criterion) {
    let (map, scenario) = denain();
    let mut app = app_with(map, scenario, Mode::Inline);
    let mut mover = Mover::new(&app);
    c.bench_function("edit to fresh diagnostics: Denain, UI thread", |b| {
        b.iter(|| black_box(edit_to_fresh(&mut app, &mut mover)))
    });
    let (map, scenario) = stress();
    let mut app = app_with(map.clone(), scenario.clone(), Mode::Inline);
    let mut mover = Mover::new(&app);
    c.bench_function(
        "edit to fresh diagnostics: stress 5000 units, UI thread",
        |b| b.iter(|| black_box(edit_to_fresh(&mut app, &mut mover))),
    );
    let mut app = app_with(map, scenario, Mode::Background);
    let mut mover = Mover::new(&app);
    c.bench_function(
        "edit to fresh diagnostics: stress 5000 units, worker",
        |b| b.iter(|| black_box(edit_to_fresh(&mut app, &mut mover))),
    );
    for (mode, name) in [(Mode::Inline, "UI thread"), (Mode::Background, "worker")] {
        let mut fixture = FrameFixture::new(mode);
        // Timed from the edit to the end of its frame, not the wait for the previous check.
        c.bench_function(
            &format!("frame with an edit, stress, check on the {name}"),
            |b| b.iter_custom(|iters| (0..iters).map(|_| fixture.edit_then_frame().0).sum()),
        );
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn summary() {
    let (map, scenario) = denain();
    let mut app = app_with(map, scenario, Mode::Inline);
    let mut mover = Mover::new(&app);
    let samples: Vec<Duration> = (0..300)
        .map(|_| {
            let start = Instant::now();
            black_box(edit_to_fresh(&mut app, &mut mover));
            start.elapsed()
        })
        .collect();
    let denain = median(samples);
    let (map, scenario) = stress();
    let mut stress_inline = app_with(map.clone(), scenario.clone(), Mode::Inline);
    let mut mover = Mover::new(&stress_inline);
    let samples: Vec<Duration> = (0..30)
        .map(|_| {
            let start = Instant::now();
            black_box(edit_to_fresh(&mut stress_inline, &mut mover));
            start.elapsed()
        })
        .collect();
    let stress_ui = median(samples);
    let mut stress_worker = app_with(map, scenario, Mode::Background);
    let mut mover = Mover::new(&stress_worker);
    let samples: Vec<Duration> = (0..30)
        .map(|_| {
            let start = Instant::now();
            black_box(edit_to_fresh(&mut stress_worker, &mut mover));
            start.elapsed()
        })
        .collect();
    let stress_bg = median(samples);
    let mut inline = FrameFixture::new(Mode::Inline);
    let frames: Vec<Duration> = (0..30).map(|_| inline.edit_then_frame().0).collect();
    let frame_inline = median(frames);
    let frame_inline_cpu = inline.take_cpu();
    drop(inline);
    let mut fixture = FrameFixture::new(Mode::Background);
    let mut pending = 0;
    let frames: Vec<Duration> = (0..30)
        .map(|_| {
            let (took, still_pending) = fixture.edit_then_frame();
            pending += usize::from(still_pending);
            took
        })
        .collect();
    let frame_pending = median(frames);
    let frame_pending_cpu = fixture.take_cpu();
    let _ = fixture
        .app
        .services
        .diagnostics
        .live
        .wait(Duration::from_secs(60));
    let still: Vec<Duration> = (0..30).map(|_| fixture.still()).collect();
    let still = median(still);
    let still_cpu = fixture.take_cpu();
    // Caches rebuilt after a scenario edit.
    let app = &mut fixture.app;
    let scenario = app.doc.scenario.as_ref().map(|f| f.scenario.clone());
    let grid = app.doc.map.grid.clone();
    let mut revision = app.doc.scenario_revision() + 100;
    let counters: Vec<Duration> = (0..20)
        .map(|_| {
            revision += 1;
            let start = Instant::now();
            app.services
                .counters
                .refresh(revision, scenario.as_ref(), &grid);
            start.elapsed()
        })
        .collect();
    let zones: Vec<Duration> = (0..20)
        .map(|_| {
            revision += 1;
            let start = Instant::now();
            app.panels
                .scenario_layer
                .zones
                .refresh(revision, scenario.as_ref(), &grid);
            start.elapsed()
        })
        .collect();
    println!("\nsummary (medians)");
    println!(
        "  caches after a scenario edit, stress: counters {:.2} ms, zones {:.2} ms",
        ms(median(counters)),
        ms(median(zones))
    );
    println!(
        "  edit to fresh diagnostics, Denain, UI thread:          {:.2} ms (budget 5 ms)",
        ms(denain)
    );
    println!(
        "  edit to fresh diagnostics, stress 5000, UI thread:     {:.1} ms (budget 50 ms)",
        ms(stress_ui)
    );
    println!(
        "  edit to fresh diagnostics, stress 5000, worker:        {:.1} ms",
        ms(stress_bg)
    );
    println!(
        "  frame with an edit, stress, check on the UI thread:    {:.1} ms ({:.1} ms CPU)",
        ms(frame_inline),
        ms(frame_inline_cpu)
    );
    println!(
        "  frame with an edit, stress, check on the worker:       {:.1} ms ({:.1} ms CPU; {pending}/30 frames ended with the check still running)",
        ms(frame_pending),
        ms(frame_pending_cpu)
    );
    println!(
        "  frame, stress, whole 200x200 map and 5000 counters:    {:.1} ms ({:.1} ms CPU)",
        ms(still),
        ms(still_cpu)
    );
}

fn main() {
    // For a profiler: `BATAILLE_BENCH_PROFILE=still` (or `edit`) runs only that frame, 300 times.
    if let Ok(which) = std::env::var("BATAILLE_BENCH_PROFILE") {
        let mut fixture = FrameFixture::new(Mode::Background);
        let frames: Vec<Duration> = (0..300)
            .map(|_| match which.as_str() {
                "edit" => fixture.edit_then_frame().0,
                _ => fixture.still(),
            })
            .collect();
        println!(
            "{which}: median {:.2} ms, {:.2} ms CPU",
            ms(median(frames)),
            ms(fixture.take_cpu())
        );
        return;
    }
    let quick = std::env::var_os("BATAILLE_BENCH_SUMMARY_ONLY").is_some();
    if !quick {
        let mut c = Criterion::default()
            .sample_size(20)
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        benches(&mut c);
        c.final_summary();
    }
    summary();
}
