//! The status bar: the hex under the pointer (terrain, overlays, label, counters), the zoom,
//! the diagnostics' counts, the digitising progress and whether the files are saved.

use egui::{Color32, RichText, Ui};

use crate::context::ViewContext;

/// What the status bar says about digitising (the app's digitise state, read for it).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DigitiseStatus {
    /// A scan is loading: its progress, 0 to 1.
    pub loading: Option<f32>,
    /// Hexes in all and hexes still to check against the scan (while digitising).
    pub to_check: Option<(usize, usize)>,
}

/// The status bar (no state of its own).
#[derive(Debug, Default)]
pub struct StatusBar;

impl StatusBar {
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut Ui, digitise: DigitiseStatus) {
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                match ctx.hovered {
                    Some(hex) => {
                        ui.label(hex_text(ctx, hex));
                    }
                    None => {
                        ui.weak("hex —");
                    }
                }
                ui.separator();
                ui.label(format!("zoom {:.0}%", ctx.view.zoom_percent()));
                ui.separator();
                // Hex names off is remembered between runs and maps: say so, and offer them
                // back (issue 21: it persisted with no hint).
                if !ctx.view.layers.hex_names {
                    let show = crate::context::UiCommand::ToggleHexNames;
                    let text = format!("hex names off ({})", show.shortcut_text(ui.ctx()));
                    if ui
                        .button(text)
                        .on_hover_text(
                            "Hex names are hidden (remembered from an earlier map): show them",
                        )
                        .clicked()
                    {
                        ctx.send(show);
                    }
                    ui.separator();
                }
                let (errors, warnings) = ctx.diagnostic_counts();
                ui.label(format!("⛔{errors} ⚠{warnings}"));
                ui.separator();
                digitise_ui(ui, digitise);
                if ctx.history.is_dirty() {
                    let orange = Color32::from_rgb(230, 150, 40);
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                    ui.painter().circle_filled(rect.center(), 4.5, orange);
                    ui.label(RichText::new("unsaved").color(orange));
                } else if ctx.doc.map_path.is_none() {
                    // A new map is not on disk yet, even with nothing done to it.
                    ui.weak("not saved yet");
                } else {
                    ui.label("saved");
                }
            });
        });
    }
}

/// "hex 0412 · Clear (Village) · “Denain” · 2 units, 1 leader".
fn hex_text(ctx: &ViewContext<'_>, hex: bataille_schema::HexIndex) -> String {
    let doc = ctx.doc;
    let name = doc.map.grid.name(hex);
    let terrain = match doc.terrain_at(hex) {
        Some((_, Some(t))) => t.name.clone(),
        Some((code, None)) => format!("unknown terrain `{code}`"),
        None => "?".to_owned(),
    };
    let overlays: Vec<String> = doc
        .overlays_at(hex)
        .iter()
        .map(|id| {
            doc.map
                .overlay_types
                .get(id)
                .map_or_else(|| id.to_string(), |o| o.name.clone())
        })
        .collect();
    let mut text = format!("hex {name} · {terrain}");
    if !overlays.is_empty() {
        text.push_str(&format!(" ({})", overlays.join(", ")));
    }
    if let Some(label) = doc.map.labels.get(&name) {
        text.push_str(&format!(" · “{label}”"));
    }
    let (units, leaders) = ctx.counters.count_at(hex);
    if units + leaders > 0 {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        text.push_str(&format!(
            " · {}, {}",
            plural(units, "unit"),
            plural(leaders, "leader")
        ));
    }
    text
}

/// The scan's loading progress and the count of hexes to check (when digitising).
fn digitise_ui(ui: &mut Ui, status: DigitiseStatus) {
    if let Some(progress) = status.loading {
        ui.label(format!("loading the scan… {:.0} %", progress * 100.0));
        ui.separator();
    }
    if let Some((total, left)) = status.to_check {
        ui.label(format!(
            "✔ {}/{total} checked · {left} to check",
            total - left
        ))
        .on_hover_text("C marks the hex under the pointer as checked against the scan");
        ui.separator();
    }
}
