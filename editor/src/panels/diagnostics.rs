//! The diagnostics: the editor holds no rule logic; after each edit it asks
//! `bataille-validator` (through [`crate::services::validation`], on a worker thread when checks
//! are slow) and keeps the validator's own `Diagnostic`s ([`DiagnosticsPanel`], which the
//! context lends every panel); [`DiagnosticsList`] is the panel listing them, each row going to
//! its hex and selecting its unit (`AppCommand::GoToDiagnostic`).

pub use bataille_validator::{Code, Diagnostic, Severity};

use crate::context::{AppCommand, ViewContext};
use crate::model::document::Document;

/// The diagnostics of the document and the validator that makes them.
#[derive(Default)]
pub struct DiagnosticsPanel {
    /// The validator library, inline or on its worker thread.
    pub live: crate::services::validation::LiveValidation,
    pub diagnostics: Vec<Diagnostic>,
    /// Bumped whenever the rows change.
    pub revision: u64,
}

impl DiagnosticsPanel {
    /// Re-runs the validator on the document (the rows may arrive later: see `poll`).
    pub fn revalidate(&mut self, doc: &Document) {
        if let Some(rows) = self.live.request(doc, None) {
            self.set_rows(rows);
        }
    }

    /// Re-runs the validator, with the map's and the scenario's revisions so that the worker's
    /// snapshots are taken again only of what changed.
    pub fn revalidate_at(&mut self, doc: &Document, revisions: (u64, u64)) {
        if let Some(rows) = self.live.request(doc, Some(revisions)) {
            self.set_rows(rows);
        }
    }

    /// Takes the rows of a check that ran on the worker; asks for a repaint while one runs.
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some(rows) = self.live.poll() {
            self.set_rows(rows);
            ctx.request_repaint();
        } else if self.live.pending() {
            ctx.request_repaint_after(std::time::Duration::from_millis(15));
        }
    }

    /// Whether the rows shown are older than the document.
    pub fn pending(&self) -> bool {
        self.live.pending()
    }

    fn set_rows(&mut self, rows: Vec<Diagnostic>) {
        self.diagnostics = rows;
        self.revision += 1;
    }

    pub fn counts(&self) -> (usize, usize) {
        // A summary of diagnostics not listed counts as the number it stands for.
        let count = |error: bool| {
            self.diagnostics
                .iter()
                .filter(|d| (d.severity == Severity::Error) == error)
                .map(bataille_validator::Diagnostic::count)
                .sum()
        };
        (count(true), count(false))
    }
}

/// The diagnostics list (bottom dock): its own state is the row gone to and the names cache.
#[derive(Default)]
pub struct DiagnosticsList {
    /// Index of the diagnostic last gone to (F8).
    cursor: Option<usize>,
    /// The diagnostics' revision the cursor belongs to.
    rows_revision: u64,
    /// Names by id, and the scenario revision they were read from.
    names: Option<(u64, std::collections::HashMap<String, String>)>,
}

impl DiagnosticsList {
    /// The next (or previous) diagnostic with a hex or a subject, for F8 / Shift+F8.
    pub fn step(
        &mut self,
        rows: &[Diagnostic],
        revision: u64,
        forward: bool,
    ) -> Option<Diagnostic> {
        self.follow(revision);
        let with_hex: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i].hex.is_some() || rows[i].subject.is_some())
            .collect();
        if with_hex.is_empty() {
            return None;
        }
        let pos = self
            .cursor
            .and_then(|c| with_hex.iter().position(|&i| i == c));
        let next = match (pos, forward) {
            (None, true) => 0,
            (None, false) => with_hex.len() - 1,
            (Some(p), true) => (p + 1) % with_hex.len(),
            (Some(p), false) => (p + with_hex.len() - 1) % with_hex.len(),
        };
        self.cursor = Some(with_hex[next]);
        rows.get(with_hex[next]).cloned()
    }

    /// Forgets the row gone to when the rows changed.
    fn follow(&mut self, revision: u64) {
        if self.rows_revision != revision {
            self.rows_revision = revision;
            self.cursor = None;
        }
    }

    /// Shows the list (counters, corps, zones by name when the scenario gives one); a clicked
    /// row sends `AppCommand::GoToDiagnostic`.
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut egui::Ui) {
        self.follow(ctx.diagnostics_revision);
        let scenario = ctx
            .doc
            .scenario
            .as_ref()
            .map(|f| (&f.scenario, ctx.scenario_revision));
        match scenario {
            Some((s, revision)) if self.names.as_ref().is_none_or(|(r, _)| *r != revision) => {
                self.names = Some((revision, crate::model::oob_ops::names_by_id(s)));
            }
            None => self.names = None,
            _ => {}
        }
        let (errors, warnings) = ctx.diagnostic_counts();
        let rows = ctx.diagnostics;
        ui.horizontal(|ui| {
            ui.strong("Diagnostics");
            ui.label(format!("⛔ {errors}  ⚠ {warnings}"));
            if ctx.checking {
                ui.spinner();
                ui.weak("checking…");
            }
            ui.weak("— click a row to go to its hex and unit; F8 / Shift+F8 next / previous");
        });
        let row_height = ui.text_style_height(&egui::TextStyle::Button) + 2.0;
        egui::ScrollArea::vertical()
            .max_height(110.0)
            .auto_shrink([false, true])
            .show_rows(ui, row_height, rows.len(), |ui, range| {
                for i in range {
                    let Some(d) = rows.get(i) else {
                        continue;
                    };
                    let icon = match d.severity {
                        Severity::Error => "⛔",
                        Severity::Warning => "⚠",
                    };
                    let hex = d.hex.as_ref().map_or(String::new(), |h| format!(" [{h}]"));
                    let message = match &self.names {
                        Some((_, names)) => crate::model::oob_ops::with_names(&d.message, names),
                        None => d.message.clone(),
                    };
                    let text = format!("{icon} {}{hex}: {message}", d.code);
                    let colour = match d.severity {
                        Severity::Error => egui::Color32::from_rgb(230, 80, 70),
                        Severity::Warning => egui::Color32::from_rgb(220, 160, 40),
                    };
                    let text = egui::RichText::new(text).color(colour);
                    let button = egui::Button::selectable(self.cursor == Some(i), text)
                        .truncate()
                        .min_size(egui::vec2(0.0, row_height));
                    let mut row = ui.add(button);
                    // The whole message and its help, with names for ids as in the row.
                    if let Some(help) = &d.help {
                        let help = match &self.names {
                            Some((_, names)) => crate::model::oob_ops::with_names(help, names),
                            None => help.to_string(),
                        };
                        row = row.on_hover_text(format!("{message}\n{help}"));
                    }
                    if row.clicked() {
                        self.cursor = Some(i);
                        ctx.send(AppCommand::GoToDiagnostic(Box::new(d.clone())));
                    }
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file's report lists at most 100 diagnostics of a code and a summary of the others
    /// (issue 19): the counts the editor shows include those the summary stands for.
    #[test]
    fn counts_include_what_a_summary_stands_for() {
        let mut panel = DiagnosticsPanel::default();
        let one = Diagnostic::new(
            Code::E0301,
            bataille_schema::DocumentKind::Scenario,
            "/a",
            "x",
        );
        let summary = bataille_validator::sink::summary(
            bataille_schema::DocumentKind::Scenario,
            Code::W0107,
            1,
            501,
            100,
        );
        panel.set_rows(vec![one, summary]);
        assert_eq!(panel.counts(), (1, 500));
    }
}
