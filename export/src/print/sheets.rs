//! The kit's counter sheets: fronts, then the backs mirrored so that they fall on the fronts,
//! on a grid symmetric about the page's middle.

use bataille_render::symbology::Drawing;
use bataille_render::text::{Face, text_width};
use bataille_schema::{Map, Scenario};

use super::words::Words;
use super::{
    LEFT, MARGIN, Page, PageKind, Paper, PrintOptions, UNITS, charts, mm_group, text, translate,
};
use crate::counters::{Counter, counters, marker_counters, replacement_counters};
use crate::language::fill;

/// Where the counters go on a sheet: columns and rows, the pitch, the first counter's top-left.
pub struct SheetGrid {
    pub columns: usize,
    pub rows: usize,
    pub pitch: f32,
    pub left: f32,
    pub top: f32,
    pub size: f32,
}

/// The counter sheet's grid for a paper and a counter size; symmetric about the page's
/// vertical middle, so the mirrored backs fall on the same places.
pub fn sheet_grid(paper: Paper, counter_mm: f32) -> SheetGrid {
    let [pw, ph] = paper.size_mm();
    let gap = 1.5;
    let pitch = counter_mm + gap;
    let top = MARGIN + 14.0;
    let columns = (((pw - 2.0 * MARGIN + gap) / pitch).floor() as usize).max(1);
    let rows = (((ph - top - MARGIN + gap) / pitch).floor() as usize).max(1);
    let width = columns as f32 * pitch - gap;
    SheetGrid {
        columns,
        rows,
        pitch,
        left: (pw - width) / 2.0,
        top,
        size: counter_mm,
    }
}

/// What the backs of the game's counters show, from its counter layout (`rules.counters`).
pub(super) fn backs_note(scenario: &Scenario, w: &Words) -> String {
    use bataille_schema::scenario::CounterBack;
    let layout = &scenario.rules.counters;
    let describe = |back: CounterBack| match back {
        CounterBack::Reduced(n) => fill(w.back_reduced, &[("n", &n.to_string())]),
        CounterBack::Blank => w.back_blank.to_owned(),
        CounterBack::Same => w.back_same.to_owned(),
        CounterBack::Fired => w.back_fired.to_owned(),
    };
    let mut parts = vec![describe(layout.back)];
    if let CounterBack::Reduced(n) = layout.back {
        let any_blank =
            scenario.armies.iter().flat_map(|a| &a.units).any(|u| {
                !layout.back_by_kind.contains_key(&u.kind) && u.cp.is_some_and(|cp| cp <= n)
            });
        if any_blank {
            parts.push(fill(w.back_reduced_blank, &[("n", &n.to_string())]));
        }
    }
    for (kind, back) in &layout.back_by_kind {
        let name = scenario
            .rules
            .unit_kinds
            .get(kind)
            .map_or(kind.as_str(), |k| k.name.as_str());
        parts.push(fill(
            w.back_of_kind,
            &[("kind", name), ("back", &describe(*back))],
        ));
    }
    if let Some(n) = layout.replacement_from_cp {
        parts.push(fill(w.back_replacement, &[("n", &n.to_string())]));
    }
    parts.push(w.back_leaders.to_owned());
    for marker in &layout.markers {
        match &marker.marker {
            bataille_schema::scenario::MarkerType::Disorder => {
                parts.push(w.back_disorder.to_owned());
            }
            bataille_schema::scenario::MarkerType::Text {
                front,
                back: Some(back),
            } => parts.push(format!("{front} → {back}")),
            _ => {}
        }
    }
    parts.join(", ")
}

pub(super) fn counter_sheets(
    scenario: &Scenario,
    map: &Map,
    options: &PrintOptions,
    [pw, ph]: [f32; 2],
    w: &Words,
) -> Vec<Page> {
    let grid = sheet_grid(options.paper, options.counter_mm);
    let mut all: Vec<Counter> = counters(scenario, map);
    all.extend(replacement_counters(scenario, map));
    all.extend(marker_counters(scenario));
    for counter in &mut all {
        counter.facing = None;
    }
    let per_sheet = grid.columns * grid.rows;
    let mut pages = Vec::new();
    let sheets = all.len().div_ceil(per_sheet).max(1);
    let width = pw - 2.0 * MARGIN;
    // One line each above the counters: smaller type rather than a line off the page.
    let fitted = |s: &str, size: f32, face: Face| {
        let wide = text_width(s, face, size);
        if wide > width {
            size * width / wide
        } else {
            size
        }
    };
    for (sheet, chunk) in all.chunks(per_sheet).enumerate() {
        for back in [false, true] {
            let mut d = Drawing::new();
            let n = (sheet + 1).to_string();
            let of = sheets.to_string();
            let values = [("title", scenario.title.as_str()), ("n", &n), ("of", &of)];
            let title = fill(if back { w.sheet_backs } else { w.sheet_fronts }, &values);
            let size = fitted(&title, 3.2, Face::Bold);
            text(
                &mut d,
                &title,
                size,
                Face::Bold,
                [MARGIN, MARGIN + 4.0],
                LEFT,
            );
            // A game whose units are printed on one side (`rules.counters.back: Blank`) says so.
            let layout = &scenario.rules.counters;
            let one_sided = layout.back == bataille_schema::scenario::CounterBack::Blank
                && layout.back_by_kind.is_empty();
            let note = if back {
                w.backs_note.to_owned()
            } else {
                fill(
                    if one_sided {
                        w.fronts_note_one_sided
                    } else {
                        w.fronts_note
                    },
                    &[
                        ("size", &format!("{:.1}", options.counter_mm)),
                        ("backs", &backs_note(scenario, w)),
                    ],
                )
            };
            // Two lines at most under the title.
            let lines = charts::wrap(&note, Face::Regular, 2.5, width);
            let size = if lines.len() > 2 {
                2.5 * 2.0 / lines.len() as f32
            } else {
                2.5
            };
            for (i, line) in charts::wrap(&note, Face::Regular, size, width)
                .iter()
                .take(2)
                .enumerate()
            {
                let y = MARGIN + 8.5 + i as f32 * 3.2;
                text(&mut d, line, size, Face::Regular, [MARGIN, y], LEFT);
            }
            for (i, counter) in chunk.iter().enumerate() {
                let (col, row) = (i % grid.columns, i / grid.columns);
                let col = if back { grid.columns - 1 - col } else { col };
                let x = grid.left + col as f32 * grid.pitch + grid.size / 2.0;
                let y = grid.top + row as f32 * grid.pitch + grid.size / 2.0;
                let drawing = counter.drawing(grid.size * UNITS, back);
                for item in drawing.items {
                    d.items.push(translate(item, x * UNITS, y * UNITS));
                }
            }
            pages.push(Page {
                kind: if back {
                    PageKind::CounterBacks(sheet)
                } else {
                    PageKind::CounterFronts(sheet)
                },
                body: mm_group(&d),
                size: [pw, ph],
            });
        }
    }
    pages
}
