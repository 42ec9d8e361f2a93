//! The kit's charts: the terrain effects chart (every effect the legend holds, each cell
//! wrapped in its column, never cut), the set-up, the reinforcement schedule and the victory
//! conditions, flowed over as many pages as they need.
//!
//! Here: the flow of pages and its tables, the variant's page and the rules' charts; the
//! terrain effects chart in `terrain`, the set-up and reinforcement schedule in `setup`,
//! the victory conditions in `victory`.

use bataille_render::symbology::Drawing;
use bataille_render::text::{Face, text_width};
use bataille_schema::{Map, Scenario};

use super::words::Words;
use super::{LEFT, MARGIN, UNITS, line_mm, text, translate};
use crate::language::fill;

mod setup;
mod terrain;
mod victory;

use setup::setup;
use terrain::terrain_effects;
use victory::victory;

/// Line height as a share of the font size.
const LEADING: f32 = 1.4;

/// A flow of lines over pages: headings, text wrapped to the width, table rows.
pub(crate) struct Flow {
    pub pages: Vec<Drawing>,
    y: f32,
    width: f32,
    height: f32,
}

impl Flow {
    pub fn new([pw, ph]: [f32; 2]) -> Self {
        Flow {
            pages: vec![Drawing::new()],
            y: MARGIN,
            width: pw - 2.0 * MARGIN,
            height: ph - MARGIN,
        }
    }

    /// Starts a new page unless `mm` more fit on this one; true when a page was started.
    fn need(&mut self, mm: f32) -> bool {
        if self.y + mm > self.height && self.y > MARGIN {
            self.pages.push(Drawing::new());
            self.y = MARGIN;
            true
        } else {
            false
        }
    }

    fn page(&mut self) -> &mut Drawing {
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    pub fn heading(&mut self, s: &str, size: f32) {
        let lines = wrap(s, Face::Bold, size, self.width);
        // A heading keeps a sub-heading and two lines of what follows with it.
        self.need(size * (0.6 + LEADING * lines.len() as f32) + 22.0);
        self.y += size * 0.6;
        for line in lines {
            self.y += size * LEADING;
            let y = self.y;
            text(self.page(), &line, size, Face::Bold, [MARGIN, y], LEFT);
        }
        self.y += size * 0.5;
    }

    pub fn paragraph(&mut self, s: &str, size: f32, indent: f32) {
        for line in wrap(s, Face::Regular, size, self.width - indent) {
            self.need(size * LEADING);
            self.y += size * LEADING;
            let y = self.y;
            text(
                self.page(),
                &line,
                size,
                Face::Regular,
                [MARGIN + indent, y],
                LEFT,
            );
        }
    }

    pub fn gap(&mut self, mm: f32) {
        self.y += mm;
    }
}

/// A table: columns (left edge and width, mm from the margin) and a header row drawn again at
/// the top of each page the table continues on.
struct Table {
    columns: Vec<(f32, f32)>,
    header: Vec<String>,
    size: f32,
}

impl Table {
    /// The cells' lines, each cell wrapped to its column.
    fn lines(&self, cells: &[String], face: Face) -> Vec<Vec<String>> {
        cells
            .iter()
            .zip(&self.columns)
            .map(|(s, (_, w))| wrap(s, face, self.size, *w - 1.5))
            .collect()
    }

    fn height(&self, lines: &[Vec<String>], min: f32) -> f32 {
        let most = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
        (most as f32 * self.size * LEADING + 2.2).max(min)
    }

    fn draw(&self, flow: &mut Flow, lines: &[Vec<String>], face: Face, h: f32) {
        let y = flow.y;
        let size = self.size;
        for (cell, (x, _)) in lines.iter().zip(&self.columns) {
            let block = cell.len() as f32 * size * LEADING;
            let mut baseline = y + (h - block) / 2.0 + size * LEADING * 0.78;
            for line in cell {
                text(flow.page(), line, size, face, [MARGIN + x, baseline], LEFT);
                baseline += size * LEADING;
            }
        }
        flow.y += h;
        let (y, width) = (flow.y, flow.width);
        line_mm(
            flow.page(),
            [MARGIN, y],
            [MARGIN + width, y],
            [0xa0, 0xa0, 0xa0, 0xff],
            0.15,
        );
    }

    fn header(&self, flow: &mut Flow) {
        let lines = self.lines(&self.header, Face::Bold);
        let h = self.height(&lines, 6.0);
        flow.need(h + 10.0);
        self.draw(flow, &lines, Face::Bold, h);
    }

    /// A row; `swatch` (drawing units, centred at the origin) goes in the first column.
    fn row(&self, flow: &mut Flow, cells: &[String], swatch: Option<Drawing>, min: f32) {
        let lines = self.lines(cells, Face::Regular);
        let h = self.height(&lines, min);
        if flow.need(h) {
            self.header(flow);
        }
        if let Some(swatch) = swatch {
            let (x, w) = self.columns[0];
            let y = flow.y;
            for item in swatch.items {
                flow.page().items.push(translate(
                    item,
                    (MARGIN + x + w / 2.0 - 0.5) * UNITS,
                    (y + h / 2.0) * UNITS,
                ));
            }
        }
        self.draw(flow, &lines, Face::Regular, h);
    }
}

/// Words wrapped to lines no wider than `width` mm (a word wider than the width has a line to
/// itself: columns are made as wide as their widest word).
pub(crate) fn wrap(s: &str, face: Face, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, face, size) > width {
            lines.push(std::mem::take(&mut line));
            line = word.to_owned();
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The widest word of a text, mm.
fn widest_word(s: &str, face: Face, size: f32) -> f32 {
    s.split_whitespace()
        .map(|w| text_width(w, face, size))
        .fold(0.0, f32::max)
}

/// The terrain effects chart, set-up, reinforcements and victory, on pages of `paper`.
pub(crate) fn charts(
    scenario: &Scenario,
    map: &Map,
    paper: [f32; 2],
    w: &Words,
    variant: Option<&crate::variants::VariantNote>,
) -> Vec<Drawing> {
    let mut flow = Flow::new(paper);
    if let Some(note) = variant {
        variant_page(&mut flow, note, w);
    }
    terrain_effects(&mut flow, scenario, map, w);
    setup(&mut flow, scenario, map, w);
    victory(&mut flow, scenario, map, w);
    rule_charts(&mut flow, scenario, w);
    flow.pages
}

/// A variant's page: what it is a variant of, its notes, what it changes (one line a change,
/// with the published value) and what it rests on.
fn variant_page(flow: &mut Flow, note: &crate::variants::VariantNote, w: &Words) {
    flow.heading(&fill(w.variant, &[("name", &note.name)]), 6.0);
    flow.paragraph(
        &fill(w.variant_of, &[("title", &note.base_title)]),
        3.2,
        0.0,
    );
    if let Some(notes) = &note.notes {
        flow.gap(2.0);
        flow.paragraph(notes, 3.0, 0.0);
    }
    if !note.changes.is_empty() {
        flow.heading(w.variant_changes, 4.2);
        for change in &note.changes {
            flow.paragraph(&format!("• {change}"), 2.9, 3.0);
        }
    }
    if !note.sources.is_empty() {
        flow.heading(w.variant_sources, 4.2);
        for source in &note.sources {
            flow.paragraph(&format!("• {source}"), 2.9, 3.0);
        }
    }
    flow.gap(4.0);
}

/// The rules' charts (`rules.charts`: a combat results table): a row per roll of its die, a
/// column per heading, what each result means and the chart's notes.
fn rule_charts(flow: &mut Flow, scenario: &Scenario, w: &Words) {
    for chart in &scenario.rules.charts {
        let title = match &chart.rule {
            Some(rule) => format!("[{rule}] {}", chart.name),
            None => chart.name.clone(),
        };
        flow.heading(&title, 6.0);
        if let Some(what) = &chart.columns_are {
            flow.paragraph(what, 3.0, 0.0);
        }
        flow.gap(1.0);
        let size = 3.0;
        let first = (widest_word(&fill(w.die, &[("die", chart.die.name())]), Face::Bold, size)
            + 3.0)
            .max(12.0);
        let each = ((flow.width - first) / chart.columns.len().max(1) as f32).min(18.0);
        let mut columns = vec![(0.0, first)];
        for k in 0..chart.columns.len() {
            columns.push((first + k as f32 * each, each));
        }
        let mut header = vec![fill(w.die, &[("die", chart.die.name())])];
        header.extend(chart.columns.iter().cloned());
        let table = Table {
            columns,
            header,
            size,
        };
        table.header(flow);
        for row in &chart.rows {
            let roll = match row.to {
                Some(to) if to != row.roll => format!("{}-{to}", row.roll),
                _ => row.roll.to_string(),
            };
            let mut cells = vec![roll];
            cells.extend(row.results.iter().cloned());
            table.row(flow, &cells, None, 6.0);
        }
        flow.gap(2.0);
        for (result, meaning) in &chart.results {
            flow.paragraph(&format!("{result}: {meaning}"), 2.9, 3.0);
        }
        if let Some(notes) = &chart.notes {
            flow.paragraph(notes, 2.9, 3.0);
        }
        flow.gap(3.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_word_and_fits_the_width() {
        let s = "Redoute du camp de Denain (brèche obligatoire, 7.6)";
        let lines = wrap(s, Face::Regular, 2.8, 20.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), s);
        assert!(
            lines
                .iter()
                .all(|l| text_width(l, Face::Regular, 2.8) <= 20.0 || !l.contains(' '))
        );
    }
}
