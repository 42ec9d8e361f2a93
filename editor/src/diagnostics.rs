//! The diagnostics panel and its seam to the validator: the editor holds no rule logic; it
//! calls a `Validator` function (a stand-in until `bataille-validator` lands) after each edit
//! and lists what it returns, each row going to its hex.

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
}

/// The function that checks a document. Swap in the validator library's entry point here.
pub type Validator = Box<dyn FnMut(&Document) -> Vec<Diagnostic>>;

/// The validator used until the validator library is connected: it finds nothing.
pub fn not_connected() -> Validator {
    Box::new(|_| Vec::new())
}

/// The panel's state.
pub struct DiagnosticsPanel {
    validator: Validator,
    connected: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// Index of the diagnostic last gone to (F8).
    cursor: Option<usize>,
}

impl Default for DiagnosticsPanel {
    fn default() -> Self {
        Self {
            validator: not_connected(),
            connected: false,
            diagnostics: Vec::new(),
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

    /// Re-runs the validator on the document.
    pub fn revalidate(&mut self, doc: &Document) {
        let mut diagnostics = (self.validator)(doc);
        diagnostics.sort_by(|a, b| {
            (a.severity, &a.hex, &a.code, &a.message)
                .cmp(&(b.severity, &b.hex, &b.code, &b.message))
        });
        self.diagnostics = diagnostics;
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

    /// The next (or previous) diagnostic with a hex, for F8 / Shift+F8.
    pub fn step(&mut self, forward: bool) -> Option<HexName> {
        let with_hex: Vec<usize> = (0..self.diagnostics.len())
            .filter(|&i| self.diagnostics[i].hex.is_some())
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
        self.diagnostics[with_hex[next]].hex.clone()
    }

    /// Shows the list; returns the hex of a clicked row.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<HexName> {
        let (errors, warnings) = self.counts();
        let mut go_to = None;
        ui.horizontal(|ui| {
            ui.strong("Diagnostics");
            ui.label(format!("⛔ {errors}  ⚠ {warnings}"));
            if !self.connected {
                ui.weak("— the validator is not connected yet; no rules are checked");
            }
        });
        egui::ScrollArea::vertical()
            .max_height(100.0)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for (i, d) in self.diagnostics.iter().enumerate() {
                    let icon = match d.severity {
                        Severity::Error => "⛔",
                        Severity::Warning => "⚠",
                    };
                    let hex = d.hex.as_ref().map_or(String::new(), |h| format!(" [{h}]"));
                    let text = format!("{icon} {}{hex}: {}", d.code, d.message);
                    if ui.selectable_label(self.cursor == Some(i), text).clicked() {
                        self.cursor = Some(i);
                        go_to = d.hex.clone();
                    }
                }
            });
        go_to
    }
}
