//! Table plans of the bundled battles, parsed back with usvg: every unit's bases at the system's
//! frontage and depth for the figure scale (within 0.5 mm), turned to the unit's facing, at its
//! hex; the scale bar as long as it says; the PDF pages the size asked for (pdfinfo).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bataille_schema::geometry::facing_bearing;
use bataille_schema::system::{System, expand_unit, load_system};
use bataille_schema::{LoadedScenario, load_scenario};
use bataille_table::{Plan, PlanRequest, TableSize, parse_svg, plan, svg_to_pdf};
use svg2pdf::usvg::{Node, Transform};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scenario(name: &str) -> LoadedScenario {
    load_scenario(&root().join("scenarios").join(name)).expect("bundled scenario loads")
}

fn system(id: &str) -> System {
    load_system(&root().join("systems").join(format!("{id}.ron"))).expect("bundled system loads")
}

struct Drawn {
    id: String,
    /// Frontage and depth in millimetres of paper.
    size: [f64; 2],
    /// Centre in millimetres of paper.
    centre: [f64; 2],
    /// Rotation, degrees clockwise.
    rotation: f64,
}

fn walk(group: &svg2pdf::usvg::Group, px_per_mm: f64, out: &mut Vec<Drawn>) {
    for node in group.children() {
        match node {
            Node::Group(g) => walk(g, px_per_mm, out),
            Node::Path(p) if !p.id().is_empty() => {
                let b = p.data().bounds();
                let t: Transform = p.abs_transform();
                let scale = f64::from(t.sx).hypot(f64::from(t.ky));
                let cx = f64::from(b.left() + b.right()) / 2.0;
                let cy = f64::from(b.top() + b.bottom()) / 2.0;
                let x = f64::from(t.sx) * cx + f64::from(t.kx) * cy + f64::from(t.tx);
                let y = f64::from(t.ky) * cx + f64::from(t.sy) * cy + f64::from(t.ty);
                out.push(Drawn {
                    id: p.id().to_owned(),
                    size: [
                        f64::from(b.width()) * scale / px_per_mm,
                        f64::from(b.height()) * scale / px_per_mm,
                    ],
                    centre: [x / px_per_mm, y / px_per_mm],
                    rotation: f64::from(t.ky).atan2(f64::from(t.sx)).to_degrees(),
                });
            }
            _ => {}
        }
    }
}

fn drawn(plan: &Plan) -> Vec<Drawn> {
    let tree = parse_svg(&plan.svg).expect("the plan is SVG usvg reads");
    let px_per_mm = f64::from(tree.size().width()) / plan.size_mm[0];
    let mut out = Vec::new();
    walk(tree.root(), px_per_mm, &mut out);
    out
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// Every unit of the scenario placed at set-up, checked in the drawing.
fn check_every_unit(
    loaded: &LoadedScenario,
    system: &System,
    figures: &str,
    table: Option<TableSize>,
) -> Plan {
    let scenario = &loaded.scenario;
    let map = &loaded.map.map;
    let plan = plan(
        scenario,
        map,
        system,
        &PlanRequest {
            figures: figures.into(),
            table,
            turn_degrees: 0.0,
        },
    )
    .expect("plan");
    assert!(
        plan.svg.contains(&format!(
            r#"width="{:.2}mm" height="{:.2}mm""#,
            plan.size_mm[0], plan.size_mm[1]
        )),
        "the SVG's width and height are in mm"
    );
    let drawn = drawn(&plan);
    let scale = &system.figure_scales[figures];
    let used = scenario
        .miniatures
        .iter()
        .find(|m| m.system == system.id)
        .unwrap();
    // Table millimetres per grid unit, from the map's and the system's scales alone.
    let mm_per_grid = map.metres_per_hex.unwrap() / 3f64.sqrt() / scale.metres_per_mm;
    let hex_radius = mm_per_grid;
    let mut units_checked = 0;
    let mut counters_in_hex = std::collections::HashMap::<String, usize>::new();
    for army in &scenario.armies {
        for unit in &army.units {
            if let Some(hex) = unit.placement.hex() {
                *counters_in_hex.entry(hex.to_string()).or_default() += 1;
            }
        }
    }
    for army in &scenario.armies {
        for unit in &army.units {
            let Some(hex) = unit.placement.hex() else {
                continue;
            };
            let expanded = expand_unit(army, unit, used, Some(system));
            let Some(troop) = expanded
                .text("troop_type")
                .and_then(|t| system.troop_types.get(t))
            else {
                continue;
            };
            let base = &scale.bases[&troop.base];
            let prefix = format!("base-{}-", unit.id);
            let bases: Vec<&Drawn> = drawn
                .iter()
                .filter(|d| {
                    d.id.strip_prefix(&prefix)
                        .is_some_and(|n| n.parse::<u32>().is_ok())
                })
                .collect();
            let expected = expanded
                .number("bases")
                .or_else(|| expanded.number("stands"))
                .unwrap_or(1);
            assert_eq!(
                bases.len() as i32,
                expected,
                "{}: one rectangle a base",
                unit.id
            );
            let bearing = unit
                .facing
                .map_or(0.0, |f| f64::from(facing_bearing(map.grid.orientation, f)));
            for b in &bases {
                assert!(
                    (b.size[0] - base.frontage_mm).abs() <= 0.5
                        && (b.size[1] - base.depth_mm).abs() <= 0.5,
                    "{}: base {:.2} × {:.2} mm, the system says {} × {} at {figures}",
                    b.id,
                    b.size[0],
                    b.size[1],
                    base.frontage_mm,
                    base.depth_mm
                );
                assert!(
                    angle_diff(b.rotation, bearing) < 0.5,
                    "{}: turned {:.1}°, facing {bearing}°",
                    b.id,
                    b.rotation
                );
            }
            // Its hex's centre on the paper, from the grid and the scales.
            let index = map.grid.lookup(hex).unwrap();
            let [gx, gy] = map.grid.centre(index);
            let hx = f64::from(gx) * mm_per_grid - plan.origin_mm[0];
            let hy = f64::from(gy) * mm_per_grid - plan.origin_mm[1];
            let n = bases.len() as f64;
            let cx = bases.iter().map(|b| b.centre[0]).sum::<f64>() / n;
            let cy = bases.iter().map(|b| b.centre[1]).sum::<f64>() / n;
            let distance = (cx - hx).hypot(cy - hy);
            let placed = plan
                .units
                .iter()
                .find(|u| u.id == unit.id.as_str())
                .unwrap();
            if counters_in_hex[hex.as_str()] == 1 && !leader_on(scenario, hex.as_str()) {
                // Alone in its hex: its block is centred on the hex. (Rows of a block may be
                // uneven, so the bases' mean lies within a base of the block's centre.)
                let block = (placed.centre[0] - hx).hypot(placed.centre[1] - hy);
                assert!(
                    block <= 0.5,
                    "{}: block {block:.2} mm from hex {hex}'s centre",
                    unit.id
                );
                assert!(
                    distance <= base.depth_mm + 0.5,
                    "{}: bases {distance:.1} mm from {hex}",
                    unit.id
                );
            } else {
                assert!(
                    distance <= placed.stack_depth / 2.0 + hex_radius,
                    "{}: {distance:.1} mm from hex {hex}'s centre",
                    unit.id
                );
            }
            units_checked += 1;
        }
    }
    assert!(units_checked > 20, "checked {units_checked} units");
    plan
}

fn leader_on(scenario: &bataille_schema::Scenario, hex: &str) -> bool {
    scenario.armies.iter().any(|a| {
        a.commanders
            .iter()
            .any(|c| c.placement.hex().is_some_and(|h| h.as_str() == hex))
            || a.corps.iter().any(|k| {
                k.leader
                    .as_ref()
                    .is_some_and(|l| l.placement.hex().is_some_and(|h| h.as_str() == hex))
            })
    })
}

#[test]
fn louis_xiv_bases_are_true_size_at_their_hexes() {
    let fontenoy = scenario("fontenoy-1745.ron");
    let lx = system("louis-xiv");
    // Louis XIV at 15 mm: 5 bases × 20 mm for 200 m, so 1 mm = 2 m: a Fontenoy hex is 100 mm.
    let plan = check_every_unit(&fontenoy, &lx, "15mm", None);
    assert!((plan.mm_per_grid * 3f64.sqrt() - 100.0).abs() < 1e-6);
    check_every_unit(&fontenoy, &lx, "25mm", None);
    check_every_unit(&scenario("denain-1712.ron"), &lx, "15mm", None);
}

#[test]
fn age_of_honor_stands_are_true_size_at_their_hexes() {
    let aoh = system("age-of-honor");
    check_every_unit(&scenario("fontenoy-1745.ron"), &aoh, "15mm", None);
    check_every_unit(&scenario("fontenoy-1745.ron"), &aoh, "25mm", None);
    check_every_unit(&scenario("denain-1712.ron"), &aoh, "25mm", None);
}

#[test]
fn the_scale_bar_measures_what_it_says() {
    for (id, figures) in [
        ("louis-xiv", "15mm"),
        ("age-of-honor", "15mm"),
        ("age-of-honor", "25mm"),
    ] {
        let system = system(id);
        let loaded = scenario("fontenoy-1745.ron");
        let plan = plan(
            &loaded.scenario,
            &loaded.map.map,
            &system,
            &PlanRequest {
                figures: figures.into(),
                table: None,
                turn_degrees: 0.0,
            },
        )
        .unwrap();
        let bar = drawn(&plan)
            .into_iter()
            .find(|d| d.id.starts_with("scale-bar-"))
            .expect("a scale bar");
        let metres: f64 = bar.id["scale-bar-".len()..]
            .trim_end_matches('m')
            .parse()
            .unwrap();
        let expected_mm = metres / system.figure_scales[figures].metres_per_mm;
        assert!(
            (bar.size[0] - expected_mm).abs() <= 0.5,
            "{id} {figures}: a bar of {metres} m drawn {:.2} mm, should be {expected_mm:.2}",
            bar.size[0]
        );
    }
}

#[test]
fn a_table_too_small_shows_the_best_window_and_names_what_falls_outside() {
    let loaded = scenario("fontenoy-1745.ron");
    let lx = system("louis-xiv");
    let full = plan(
        &loaded.scenario,
        &loaded.map.map,
        &lx,
        &PlanRequest {
            figures: "15mm".into(),
            table: None,
            turn_degrees: 0.0,
        },
    )
    .unwrap();
    assert!(
        full.outside.is_empty(),
        "the needed table holds everything: {:?}",
        full.outside
    );
    let table: TableSize = "180x120cm".parse().unwrap();
    let plan = check_every_unit(&loaded, &lx, "15mm", Some(table));
    assert_eq!(plan.size_mm, [1800.0, 1200.0]);
    assert!(
        !plan.outside.is_empty(),
        "Fontenoy at 1:2000 is larger than 180 × 120 cm"
    );
    assert!(plan.svg.contains("outside the table:"));
    // The window holds more units whole than the one centred on the armies.
    let inside = plan.units.len() - plan.outside.len();
    assert!(
        inside > plan.units.len() / 2,
        "{inside} of {} inside",
        plan.units.len()
    );
    assert!("72x48in".parse::<TableSize>().unwrap().imperial);
    assert!("6x4yd".parse::<TableSize>().is_err());
    assert!("0x4cm".parse::<TableSize>().is_err());
}

fn pdfinfo(path: &Path) -> Option<String> {
    let mut child = match Command::new("pdfinfo")
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(_) => return None,
    };
    let start = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("pdfinfo took over 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().ok()?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// `Page size: 5102.36 x 3401.57 pts` → points.
fn page_size(info: &str) -> [f64; 2] {
    let line = info
        .lines()
        .find(|l| l.starts_with("Page size:"))
        .expect("a page size");
    let numbers: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    [numbers[0], numbers[1]]
}

#[test]
fn the_pdf_pages_are_the_size_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = scenario("fontenoy-1745.ron");
    let lx = system("louis-xiv");
    let table: TableSize = "180x120cm".parse().unwrap();
    let plan = plan(
        &loaded.scenario,
        &loaded.map.map,
        &lx,
        &PlanRequest {
            figures: "15mm".into(),
            table: Some(table),
            turn_degrees: 0.0,
        },
    )
    .unwrap();
    let path = dir.path().join("plan.pdf");
    std::fs::write(&path, svg_to_pdf(&plan.svg).unwrap()).unwrap();
    let roster = bataille_table::roster::roster_pages(&loaded.scenario, &lx).unwrap();
    assert!(roster.len() >= 2, "one page per army at least");
    let roster_path = dir.path().join("roster.pdf");
    std::fs::write(&roster_path, bataille_table::pdf_pages(&roster).unwrap()).unwrap();
    let Some(info) = pdfinfo(&path) else {
        eprintln!("SKIPPED: pdfinfo (poppler-utils) is not installed; ./run installs it");
        return;
    };
    let mm_to_pt = 72.0 / 25.4;
    let [w, h] = page_size(&info);
    assert!(
        (w - 1800.0 * mm_to_pt).abs() < 1.0 && (h - 1200.0 * mm_to_pt).abs() < 1.0,
        "{info}"
    );
    let info = pdfinfo(&roster_path).unwrap();
    let [w, h] = page_size(&info);
    assert!(
        (w - 210.0 * mm_to_pt).abs() < 1.0 && (h - 297.0 * mm_to_pt).abs() < 1.0,
        "{info}"
    );
    assert!(
        info.contains(&format!("Pages:           {}", roster.len())),
        "{info}"
    );
}

#[test]
fn the_roster_lists_every_unit_with_a_box_per_base() {
    let loaded = scenario("denain-1712.ron");
    let lx = system("louis-xiv");
    let pages = bataille_table::roster::roster_pages(&loaded.scenario, &lx).unwrap();
    let all = pages.join("");
    for army in &loaded.scenario.armies {
        for unit in army.units.iter().filter(|u| u.kind.as_str() != "baggage") {
            assert!(
                all.contains(&bataille_table_escape(&unit.name)),
                "{} in the roster",
                unit.name
            );
        }
    }
    // Gardes françaises, 3 CP = 6 battalions of 5 bases: 30 boxes in its row; count them all.
    let boxes = all.matches(r#"class="loss-box""#).count();
    let used = &loaded
        .scenario
        .miniatures
        .iter()
        .find(|m| m.system == lx.id)
        .unwrap();
    let expected: i32 = loaded
        .scenario
        .armies
        .iter()
        .flat_map(|a| a.units.iter().map(|u| expand_unit(a, u, used, Some(&lx))))
        .filter_map(|e| e.number("bases"))
        .sum();
    assert_eq!(boxes as i32, expected);
}

fn bataille_table_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A table turned a quarter turn over the map holds what the map turned a quarter turn would
/// show: a 120 × 180 cm table turned 90° holds the same Fontenoy units as the 180 × 120 cm
/// one, each base the same shape, each front turned 90° the other way; a turn of 30° keeps
/// every base's size and the distances between them.
#[test]
fn a_turned_table_turns_the_map_under_it() {
    let loaded = scenario("fontenoy-1745.ron");
    let lx = system("louis-xiv");
    let request = |table: &str, turn: f64| PlanRequest {
        figures: "15mm".into(),
        table: Some(table.parse().unwrap()),
        turn_degrees: turn,
    };
    let flat = plan(
        &loaded.scenario,
        &loaded.map.map,
        &lx,
        &request("180x120cm", 0.0),
    )
    .unwrap();
    let turned = plan(
        &loaded.scenario,
        &loaded.map.map,
        &lx,
        &request("120x180cm", 90.0),
    )
    .unwrap();
    assert_eq!(flat.outside.len(), turned.outside.len());
    assert!(turned.svg.contains("turned 90 degrees clockwise"));
    for (a, b) in flat.units.iter().zip(&turned.units) {
        assert_eq!(a.id, b.id);
        assert!(angle_diff(a.bearing - 90.0, b.bearing) < 1e-6, "{}", a.id);
    }
    let thirty = plan(
        &loaded.scenario,
        &loaded.map.map,
        &lx,
        &request("180x120cm", 30.0),
    )
    .unwrap();
    let dist = |p: &Plan, i: usize, j: usize| {
        let (a, b) = (p.units[i].centre, p.units[j].centre);
        (a[0] - b[0]).hypot(a[1] - b[1])
    };
    for i in [0, 5, 17] {
        let j = i + 11;
        assert!((dist(&flat, i, j) - dist(&thirty, i, j)).abs() < 1e-6);
        assert!(angle_diff(flat.units[i].bearing - 30.0, thirty.units[i].bearing) < 1e-6);
    }
}
