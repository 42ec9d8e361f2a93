//! One symbology (issue 14): the editor's map view draws what `bataille render` draws. The view's
//! cached meshes (every layer: terrain, patterns, grid lines, hexsides, roads, overlays) are
//! rasterised here in software and compared with the renderer's PNG of the same map, block by
//! block, for each terrain code of both bundled maps; a map whose legend the editor would draw
//! differently (a control below) must fail the same comparison.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::BTreeMap;
use std::path::Path;

use bataille_editor::map::view::MapView;
use bataille_editor::model::document::Document;
use bataille_render::{Layout, RenderOptions, render_map_at};
use bataille_schema::{Colour, Map};
use egui::epaint::Mesh;

const BLOCK: u32 = 4;
/// A block differs when a channel of its mean colour differs by more than this.
const BLOCK_TOLERANCE: i32 = 24;
/// The share of a terrain's blocks that may differ (anti-aliased edges, flattened curves): the
/// bundled maps measure 0–2.7 % (roads and rivers' edges on clear ground); Denain's forest drawn
/// without its trees differs in 7.3 %.
const ALLOWED: f64 = 0.035;

fn options() -> RenderOptions {
    RenderOptions {
        hex_names: false,
        labels: false,
        counters: false,
        leaders: false,
        ..RenderOptions::default()
    }
}

fn load(name: &str) -> Map {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("maps")
        .join(name);
    bataille_schema::io::load_map(&path)
        .expect("bundled map loads")
        .map
}

/// The editor's meshes for the whole map (every chunk), layer by layer.
fn editor_meshes(map: &Map) -> Vec<std::sync::Arc<Mesh>> {
    let (doc, _) = Document::from_map(map.clone(), None);
    let view = MapView::default();
    view.rebuild_dirty(&doc, None);
    view.grid_meshes().into_iter().map(|(_, m)| m).collect()
}

/// Paints grid-space meshes on paper, premultiplied, one sample per pixel centre.
fn rasterise(meshes: &[std::sync::Arc<Mesh>], layout: &Layout, paper: [u8; 3]) -> Vec<[f32; 3]> {
    let (w, h) = (layout.width as usize, layout.height as usize);
    let mut image = vec![paper.map(|c| f32::from(c) / 255.0); w * h];
    for mesh in meshes {
        for tri in mesh.indices.chunks(3) {
            let v = [0, 1, 2].map(|k| &mesh.vertices[tri[k] as usize]);
            let p = v.map(|v| layout.to_image([v.pos.x, v.pos.y]));
            let colour = v[0].color;
            let (a, rgb) = (
                f32::from(colour.a()) / 255.0,
                [colour.r(), colour.g(), colour.b()].map(|c| f32::from(c) / 255.0),
            );
            let area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1])
                - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
            if area.abs() < 1e-9 {
                continue;
            }
            let min_x = p
                .iter()
                .map(|q| q[0])
                .fold(f32::INFINITY, f32::min)
                .floor()
                .max(0.0) as usize;
            let max_x = (p
                .iter()
                .map(|q| q[0])
                .fold(f32::NEG_INFINITY, f32::max)
                .ceil() as usize)
                .min(w);
            let min_y = p
                .iter()
                .map(|q| q[1])
                .fold(f32::INFINITY, f32::min)
                .floor()
                .max(0.0) as usize;
            let max_y = (p
                .iter()
                .map(|q| q[1])
                .fold(f32::NEG_INFINITY, f32::max)
                .ceil() as usize)
                .min(h);
            for y in min_y..max_y {
                for x in min_x..max_x {
                    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                    let edge = |a: [f32; 2], b: [f32; 2]| {
                        ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])) * area.signum()
                    };
                    if edge(p[0], p[1]) >= 0.0 && edge(p[1], p[2]) >= 0.0 && edge(p[2], p[0]) >= 0.0
                    {
                        let dst = &mut image[y * w + x];
                        for c in 0..3 {
                            // Premultiplied source over.
                            dst[c] = rgb[c] + dst[c] * (1.0 - a);
                        }
                    }
                }
            }
        }
    }
    image
}

/// For each terrain code, the share of its blocks whose colours differ.
fn differing_blocks(render_map: &Map, editor_map: &Map) -> BTreeMap<char, (usize, usize)> {
    let options = options();
    let layout = Layout::new(&render_map.grid, &options).expect("layout");
    let png = render_map_at(render_map, &layout, &options).expect("render");
    let mine = rasterise(&editor_meshes(editor_map), &layout, options.paper);
    let (w, h) = (layout.width, layout.height);
    let mut out: BTreeMap<char, (usize, usize)> = BTreeMap::new();
    for by in 0..h / BLOCK {
        for bx in 0..w / BLOCK {
            // The block's hex, from its centre.
            let cx =
                ((bx * BLOCK) as f32 + BLOCK as f32 / 2.0 - layout.offset_px[0]) / layout.radius_px;
            let cy =
                ((by * BLOCK) as f32 + BLOCK as f32 / 2.0 - layout.offset_px[1]) / layout.radius_px;
            let Some(hex) = render_map.grid.hex_at([cx, cy]) else {
                continue;
            };
            let code = render_map
                .rows
                .get(hex.row as usize)
                .and_then(|r| r.chars().nth(hex.col as usize))
                .unwrap_or('?');
            let (mut a, mut b) = ([0f32; 3], [0f32; 3]);
            for y in by * BLOCK..(by + 1) * BLOCK {
                for x in bx * BLOCK..(bx + 1) * BLOCK {
                    let pixel = png.pixel(x, y).expect("in the image").demultiply();
                    let theirs = [pixel.red(), pixel.green(), pixel.blue()];
                    let ours = mine[(y * w + x) as usize];
                    for c in 0..3 {
                        a[c] += f32::from(theirs[c]);
                        b[c] += ours[c] * 255.0;
                    }
                }
            }
            let n = (BLOCK * BLOCK) as f32;
            let differs = (0..3).any(|c| ((a[c] - b[c]) / n).abs() as i32 > BLOCK_TOLERANCE);
            let entry = out.entry(code).or_default();
            entry.0 += usize::from(differs);
            entry.1 += 1;
        }
    }
    out
}

fn check(name: &str) {
    let map = load(name);
    let blocks = differing_blocks(&map, &map);
    let codes: Vec<char> = map
        .terrain
        .keys()
        .filter_map(|k| k.chars().next())
        .collect();
    for code in &codes {
        if let Some((differ, all)) = blocks.get(code) {
            let share = *differ as f64 / *all as f64;
            assert!(
                share <= ALLOWED,
                "{name}: terrain {code:?}: {differ} of {all} blocks differ from bataille render ({:.1} %)",
                share * 100.0
            );
        }
    }
    // Every terrain used on the map was compared.
    for row in &map.rows {
        for c in row.chars() {
            assert!(
                blocks.contains_key(&c),
                "{name}: terrain {c:?} not compared"
            );
        }
    }
}

#[test]
fn the_editor_draws_denain_as_bataille_render_does() {
    check("denain-1712.ron");
}

#[test]
fn the_editor_draws_fontenoy_as_bataille_render_does() {
    check("fontenoy-1745.ron");
}

/// Napoleon at Waterloo's short columns (`short_lines`, issue 24): the cells that are not hexes
/// are left out by the editor as by `bataille render`, not painted as an unknown terrain.
#[test]
fn the_editor_draws_napoleon_at_waterloo_as_bataille_render_does() {
    use bataille_editor::map::view::{FILL, OUTLINE, mesh::chunk_drawings};
    use bataille_schema::HexIndex;
    check("napoleon-at-waterloo.ron");
    let map = load("napoleon-at-waterloo.ron");
    let (columns, rows) = (map.grid.columns, map.grid.rows);
    let absent = (0..columns)
        .flat_map(|c| (0..rows).map(move |r| HexIndex::new(c, r)))
        .filter(|&hex| map.is_absent(hex))
        .count();
    assert!(
        absent > 0,
        "Waterloo's short columns leave cells that are not hexes"
    );
    let drawn = |map: &Map| {
        let (doc, _) = Document::from_map(map.clone(), None);
        let paths = bataille_render::symbology::part::RoadPaths::of(&doc.map);
        let d = chunk_drawings(&doc, &BTreeMap::new(), &paths, 0, (0, columns), (0, rows));
        (d[FILL].items.len(), d[OUTLINE].items.len())
    };
    let mut whole = map.clone();
    whole.short_lines = None;
    let (fills, outlines) = drawn(&map);
    let (all_fills, all_outlines) = drawn(&whole);
    assert!(
        fills < all_fills,
        "a cell that is not a hex gets no terrain"
    );
    assert!(outlines < all_outlines, "nor a grid outline");
}

/// The control: an editor drawing a terrain in another colour, or without its pattern, is
/// caught by the same comparison.
#[test]
fn a_terrain_drawn_differently_is_caught() {
    let map = load("denain-1712.ron");
    // The most used terrain with a pattern, and the most used without.
    let mut uses: BTreeMap<char, usize> = BTreeMap::new();
    for row in &map.rows {
        for c in row.chars() {
            *uses.entry(c).or_default() += 1;
        }
    }
    let patterned = map
        .terrain
        .iter()
        .filter(|(_, t)| t.pattern.is_some())
        .filter_map(|(k, _)| k.chars().next())
        .max_by_key(|c| uses.get(c).copied().unwrap_or(0))
        .expect("Denain has a patterned terrain");
    let plain = map
        .terrain
        .iter()
        .filter(|(_, t)| t.pattern.is_none())
        .filter_map(|(k, _)| k.chars().next())
        .max_by_key(|c| uses.get(c).copied().unwrap_or(0))
        .expect("Denain has a plain terrain");
    let mut no_pattern = map.clone();
    if let Some(t) = no_pattern.terrain.get_mut(&patterned.to_string()) {
        t.pattern = None;
    }
    let (differ, all) = differing_blocks(&map, &no_pattern)[&patterned];
    assert!(
        differ as f64 / all as f64 > ALLOWED,
        "a missing pattern on {patterned:?} went unnoticed: {differ} of {all}"
    );
    let mut recoloured = map.clone();
    if let Some(t) = recoloured.terrain.get_mut(&plain.to_string()) {
        let [r, g, b] = t.colour.rgb().expect("a colour");
        t.colour = Colour::from(format!("#{:02x}{:02x}{:02x}", r / 2, g, b).as_str());
    }
    let (differ, all) = differing_blocks(&map, &recoloured)[&plain];
    assert!(
        differ as f64 / all as f64 > ALLOWED,
        "another colour for {plain:?} went unnoticed: {differ} of {all}"
    );
}

/// Denain 10.3: the editor's counters are the symbology's, fire modifier included — each
/// battery of Denain prints `+2 · 3` on the map as on `bataille render`'s picture and the kit.
#[test]
fn the_editor_prints_a_batterys_fire_modifier() {
    use bataille_editor::map::counters::{CounterCache, unit_symbol};
    use bataille_schema::scenario::Symbol;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scenarios")
        .join("denain-1712.ron");
    let loaded = bataille_schema::io::load_scenario(&path).expect("Denain loads");
    let mut cache = CounterCache::default();
    cache.refresh(1, Some(&loaded.scenario), &loaded.map.map.grid);
    let batteries: Vec<_> = cache
        .by_hex
        .values()
        .flat_map(|stack| &stack.units)
        .filter(|look| look.look.symbol == Symbol::Artillery)
        .collect();
    assert_eq!(
        batteries.len(),
        3,
        "Denain's three batteries are on the map"
    );
    for look in batteries {
        let texts: Vec<String> = unit_symbol(look)
            .texts
            .iter()
            .map(|t| t.text.clone())
            .collect();
        assert_eq!(texts, ["+2 · 3"]);
    }
}

/// Issue 24: the counter layout is data, and the editor prints what the game's layout names.
/// Napoleon at Waterloo prints combat strength and movement allowance (`7-4`), where the Vae
/// Victis default would print `7-–-4`; the order of battle's rows say the same.
#[test]
fn the_editor_prints_the_values_the_games_counter_layout_names() {
    use bataille_editor::map::counters::{CounterCache, unit_symbol, values_text};
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scenarios")
        .join("napoleon-at-waterloo.ron");
    let loaded = bataille_schema::io::load_scenario(&path).expect("Waterloo loads");
    let s = &loaded.scenario;
    let mut cache = CounterCache::default();
    cache.refresh(1, Some(s), &loaded.map.map.grid);
    let looks: Vec<_> = cache
        .by_hex
        .values()
        .flat_map(|stack| &stack.units)
        .collect();
    assert!(looks.len() > 40, "Waterloo's placed units are on the map");
    for look in looks {
        let values = look.look.values;
        let expected = format!("{}-{}", values.cp.expect("a CP"), values.mp.expect("an MP"));
        let texts: Vec<String> = unit_symbol(look)
            .texts
            .iter()
            .map(|t| t.text.clone())
            .collect();
        assert_eq!(texts, std::slice::from_ref(&expected));
        assert_eq!(values_text(look.look.values, &s.rules.counters), expected);
    }
}

/// The texts of a frame's shapes: (text, family, size, width, centre x).
fn frame_texts(
    shapes: &[egui::epaint::ClippedShape],
) -> Vec<(String, egui::FontFamily, f32, f32, f32)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, egui::FontFamily, f32, f32, f32)>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(text) => {
                let job = &text.galley.job;
                for section in &job.sections {
                    out.push((
                        job.text[section.byte_range.start.0..section.byte_range.end.0].to_owned(),
                        section.format.font_id.family.clone(),
                        section.format.font_id.size,
                        text.galley.size().x,
                        text.pos.x + text.galley.size().x / 2.0,
                    ));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

/// One font for the map (issue 14's one symbology): the editor writes hex names, place names
/// and counter values in DejaVu Sans — the font files `bataille render` draws its glyphs from —
/// at the symbology's sizes (a galley as wide as render's text), centred where render puts them.
#[test]
fn the_editor_writes_the_map_in_the_symbologys_font() {
    use bataille_editor::map::text::family;
    use bataille_editor::{EditorApp, EditorConfig};
    use bataille_render::text::{Face, font_data, text_width};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = EditorApp::with_file(
        EditorConfig::isolated(dir.path()),
        &root.join("scenarios").join("denain-1712.ron"),
    );
    let ctx = egui::Context::default();
    let input = |time: f64| egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1600.0, 1000.0),
        )),
        time: Some(time),
        ..Default::default()
    };
    let frame = |app: &mut EditorApp, time: f64| {
        let mut output = ctx.run_ui(input(time), |ui| app.ui_root(ui));
        output.textures_delta.clear();
        output.shapes
    };
    frame(&mut app, 0.0);
    // At 48 points a hex radius, around Denain's French centre (its battery at 1610, the
    // label of Denain), names, place names and counter values are all drawn.
    let grid = app.doc.map.grid.clone();
    let hex = grid.parse("1610").expect("hex 1610");
    let [x, y] = grid.centre(hex);
    app.ui.view.zoom = 48.0;
    let mut shapes = Vec::new();
    for k in 1..4 {
        app.ui.view.centre = egui::pos2(x, y);
        shapes = frame(&mut app, 0.1 * f64::from(k));
    }
    let texts = frame_texts(&shapes);
    let names: std::collections::BTreeSet<String> =
        grid.indices().map(|h| grid.name(h).to_string()).collect();
    let labels: std::collections::BTreeSet<&String> = app.doc.map.labels.values().collect();
    let (mut seen_names, mut seen_labels, mut seen_values) = (0, 0, 0);
    for (text, font, size, width, centre_x) in &texts {
        let face = if names.contains(text) {
            seen_names += 1;
            // Centred on its hex, as render's Anchor::CENTRE puts it.
            let hex = grid.parse(text).expect("a hex name");
            let [hx, hy] = grid.centre(hex);
            let expected = app.ui.view.to_screen(app.ui.map_rect, egui::pos2(hx, hy)).x;
            assert!(
                (centre_x - expected).abs() < 1.0,
                "{text}: {centre_x} vs {expected}"
            );
            Face::Regular
        } else if labels.contains(text) {
            seen_labels += 1;
            Face::Bold
        } else if text == "+2 · 3"
            || (text.split('-').count() == 3
                && text.split('-').all(|v| v == "–" || v.parse::<u8>().is_ok()))
        {
            seen_values += 1;
            Face::Bold
        } else {
            continue;
        };
        assert_eq!(
            *font,
            family(face),
            "{text:?} is not in the symbology's font"
        );
        let theirs = text_width(text, face, *size);
        assert!(
            (width - theirs).abs() <= 0.04 * theirs + 1.0,
            "{text:?} at {size}: {width} wide in the editor, {theirs} in bataille render"
        );
    }
    assert!(seen_names > 20, "hex names drawn: {seen_names}");
    assert!(
        seen_labels >= 1,
        "place names drawn: {seen_labels} of {texts:?}"
    );
    assert!(seen_values >= 1, "counter values drawn: {seen_values}");
    // The families are DejaVu Sans's own files, the ones render draws from.
    ctx.fonts(|fonts| {
        let definitions = fonts.definitions();
        for face in [Face::Regular, Face::Bold] {
            let first = &definitions.families[&family(face)][0];
            let bytes: &[u8] = definitions.font_data[first].font.as_ref().as_ref();
            assert!(bytes == font_data(face), "{first} is not DejaVu Sans");
        }
    });
}

/// Issue 23: one counter look. The editor's map, the PNG renderer and every export (the kit and
/// the module list their counters through `bataille_export::counters`) show each unit of the
/// bundled battles with the same colour, symbol, values, back and facing: render's
/// `Looks::unit`, worked out in one place.
#[test]
fn the_editor_the_renderer_and_the_exports_show_one_look_per_counter() {
    use bataille_editor::map::counters::CounterCache;
    use bataille_export::counters::{CounterKind, counters};
    use bataille_render::symbology::Looks;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in [
        "denain-1712.ron",
        "fontenoy-1745.ron",
        "napoleon-at-waterloo.ron",
    ] {
        let loaded = bataille_schema::io::load_scenario(&root.join("scenarios").join(name))
            .expect("the battle loads");
        let (s, map) = (&loaded.scenario, &loaded.map.map);
        let looks = Looks::new(s, map.grid.orientation);
        // The renderer's stacks, hex by hex, bottom first; the editor's the same.
        let rendered = looks.stacks(&map.grid);
        let mut cache = CounterCache::default();
        cache.refresh(1, Some(s), &map.grid);
        let edited: Vec<_> = cache
            .by_hex
            .iter()
            .map(|(hex, stack)| (*hex, stack.units.iter().map(|u| u.look).collect::<Vec<_>>()))
            .collect();
        let drawn: Vec<_> = rendered
            .iter()
            .map(|(hex, units)| {
                (
                    *hex,
                    units.iter().map(|(_, look)| *look).collect::<Vec<_>>(),
                )
            })
            .filter(|(_, units)| !units.is_empty())
            .collect();
        let edited: Vec<_> = edited.into_iter().filter(|(_, u)| !u.is_empty()).collect();
        assert!(drawn.len() > 10, "{name}: its units stand on the map");
        assert_eq!(edited, drawn, "{name}: the editor's map and the renderer");
        // Every unit the exports print, placed or not, as render looks it up by its id.
        let mut units = 0;
        for counter in counters(s, map) {
            if let CounterKind::Unit { unit, look } = counter.kind {
                units += 1;
                assert_eq!(
                    Some(look),
                    looks.unit_by_id(unit.id.as_str()),
                    "{name}: {}",
                    unit.id
                );
                assert_eq!(counter.facing, look.facing, "{name}: {}", unit.id);
            }
        }
        let total: usize = s.armies.iter().map(|a| a.units.len()).sum();
        assert_eq!(units, total, "{name}: the exports carry every unit");
        // The look is the data's: a corps' colour, the kind's symbol, the unit's values.
        for army in &s.armies {
            for unit in &army.units {
                let look = looks.unit(army, unit);
                let corps = unit
                    .corps
                    .as_ref()
                    .and_then(|id| army.corps.iter().find(|c| &c.id == id));
                if let Some(corps) = corps {
                    assert_eq!(Some(look.colour), corps.colour.rgb(), "{}", unit.id);
                }
                assert_eq!(look.values.cp, unit.cp);
                assert_eq!(look.facing.is_some(), unit.facing.is_some());
                if let Some(kind) = s.rules.unit_kinds.get(&unit.kind) {
                    assert_eq!(look.symbol, kind.symbol);
                }
            }
        }
    }
}
