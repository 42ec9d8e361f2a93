//! The diagnostics panel and its seam to the validator: the editor holds no rule logic; after
//! each edit it asks `bataille-validator` (through [`crate::validation`], on a worker thread
//! when checks are slow) or a `Validator` function set in its place, and lists what comes back,
//! each row going to its hex and selecting its unit.

use bataille_schema::HexName;

use crate::document::Document;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in the document, as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub hex: Option<HexName>,
    /// The id of the unit, leader, commander, corps or zone concerned.
    pub subject: Option<String>,
    /// What would fix it.
    pub help: Option<String>,
}

/// A function that checks a document, used instead of the validator library when set.
pub type Validator = Box<dyn FnMut(&Document) -> Vec<Diagnostic>>;

/// The validator used until the validator library is connected: it finds nothing.
pub fn not_connected() -> Validator {
    Box::new(|_| Vec::new())
}

/// The panel's state.
pub struct DiagnosticsPanel {
    validator: Validator,
    connected: bool,
    /// The validator library, inline or on its worker thread.
    pub live: crate::validation::LiveValidation,
    pub diagnostics: Vec<Diagnostic>,
    /// Bumped whenever the rows change.
    pub revision: u64,
    /// Index of the diagnostic last gone to (F8).
    cursor: Option<usize>,
}

impl Default for DiagnosticsPanel {
    fn default() -> Self {
        Self {
            validator: not_connected(),
            connected: false,
            live: Default::default(),
            diagnostics: Vec::new(),
            revision: 0,
            cursor: None,
        }
    }
}

impl DiagnosticsPanel {
    /// Connects a validator.
    pub fn set_validator(&mut self, validator: Validator) {
        self.validator = validator;
        self.connected = true;
    }

    /// Re-runs the validator on the document (the rows may arrive later: see `poll`).
    pub fn revalidate(&mut self, doc: &Document) {
        if self.connected {
            let mut diagnostics = (self.validator)(doc);
            crate::validation::sort_rows(&mut diagnostics);
            self.set_rows(diagnostics);
        } else if let Some(rows) = self.live.request(doc) {
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
        !self.connected && self.live.pending()
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

    /// Shows the list; returns the clicked row.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Diagnostic> {
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
                    let text = format!("{icon} {}{hex}: {}", d.code, d.message);
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
