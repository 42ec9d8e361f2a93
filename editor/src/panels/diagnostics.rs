//! The diagnostics panel: the editor holds no rule logic; after each edit it asks
//! `bataille-validator` (through [`crate::services::validation`], on a worker thread when checks
//! are slow) and lists the validator's own `Diagnostic`s, each row going to its hex and
//! selecting its unit.

pub use bataille_validator::{Code, Diagnostic, Severity};

use crate::model::document::Document;

/// The panel's state.
#[derive(Default)]
pub struct DiagnosticsPanel {
    /// The validator library, inline or on its worker thread.
    pub live: crate::services::validation::LiveValidation,
    pub diagnostics: Vec<Diagnostic>,
    /// Bumped whenever the rows change.
    pub revision: u64,
    /// Index of the diagnostic last gone to (F8).
    cursor: Option<usize>,
    /// Names by id, and the scenario revision they were read from.
    names: Option<(u64, std::collections::HashMap<String, String>)>,
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
        self.cursor = None;
    }

    pub fn counts(&self) -> (usize, usize) {
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        (errors, self.diagnostics.len() - errors)
    }

    /// The next (or previous) diagnostic with a hex or a subject, for F8 / Shift+F8.
    pub fn step(&mut self, forward: bool) -> Option<Diagnostic> {
        let with_hex: Vec<usize> = (0..self.diagnostics.len())
            .filter(|&i| self.diagnostics[i].hex.is_some() || self.diagnostics[i].subject.is_some())
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
        self.diagnostics.get(with_hex[next]).cloned()
    }

    /// Shows the list (counters, corps, zones by name when the scenario gives one, with the
    /// scenario's revision for the cache); returns the clicked row.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        scenario: Option<(&bataille_schema::Scenario, u64)>,
    ) -> Option<Diagnostic> {
        match scenario {
            Some((s, revision)) if self.names.as_ref().is_none_or(|(r, _)| *r != revision) => {
                self.names = Some((revision, crate::model::oob_ops::names_by_id(s)));
            }
            None => self.names = None,
            _ => {}
        }
        let (errors, warnings) = self.counts();
        let mut go_to = None;
        ui.horizontal(|ui| {
            ui.strong("Diagnostics");
            ui.label(format!("⛔ {errors}  ⚠ {warnings}"));
            if self.pending() {
                ui.spinner();
                ui.weak("checking…");
            }
            ui.weak("— click a row to go to its hex and unit; F8 / Shift+F8 next / previous");
        });
        let row_height = ui.text_style_height(&egui::TextStyle::Button) + 2.0;
        egui::ScrollArea::vertical()
            .max_height(110.0)
            .auto_shrink([false, true])
            .show_rows(ui, row_height, self.diagnostics.len(), |ui, range| {
                for i in range {
                    let Some(d) = self.diagnostics.get(i) else {
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
                    if let Some(help) = &d.help {
                        row = row.on_hover_text(format!("{}\n{help}", d.message));
                    }
                    if row.clicked() {
                        self.cursor = Some(i);
                        go_to = Some(d.clone());
                    }
                }
            });
        go_to
    }
}
