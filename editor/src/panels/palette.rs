//! The command palette (Ctrl+Shift+P) and the keyboard-shortcut sheet (F1), both generated
//! from the UI command table (`UiCommand`): a command added there shows up here with its label, tooltip and
//! keys.

use egui::{Key, Ui};

use crate::context::ViewContext;
use crate::context::command::{MAP_KEYS, POINTER_GESTURES, UiCommand};

/// What the palette's filter holds.
#[derive(Debug, Default)]
pub struct PaletteState {
    pub query: String,
    /// The highlighted row among the matches.
    pub selected: usize,
}

/// The commands whose label or tooltip holds every word of the query: those whose label
/// starts with it first, then those whose label holds every word, then the tooltips' (issue 21:
/// "order" offered "Inspector dock", whose hover text names the order of battle, first).
pub fn matches(query: &str) -> Vec<UiCommand> {
    let query = query.trim().to_lowercase();
    let words: Vec<&str> = query.split_whitespace().collect();
    let mut ranked: Vec<(u8, UiCommand)> = UiCommand::all()
        .into_iter()
        .filter_map(|c| {
            let label = c.label().to_lowercase();
            let text = format!("{label} {}", c.tooltip().to_lowercase());
            let rank = if label.starts_with(&query) {
                0
            } else if words.iter().all(|w| label.contains(w)) {
                1
            } else if words.iter().all(|w| text.contains(w)) {
                2
            } else {
                return None;
            };
            Some((rank, c))
        })
        .collect();
    // Stable: commands of one rank stay in the table's order.
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.into_iter().map(|(_, c)| c).collect()
}

/// The palette's body: a filter and the matching commands; the command chosen (Enter or a
/// click) is sent. Returns whether the palette stays open.
pub fn palette_ui(cx: &ViewContext<'_>, ui: &mut Ui, state: &mut PaletteState) -> bool {
    ui.set_min_width(460.0);
    ui.heading("Commands");
    let label = ui.label("Find a command");
    let edit = ui
        .add(egui::TextEdit::singleline(&mut state.query).hint_text("type to filter"))
        .labelled_by(label.id);
    edit.request_focus();
    let found = matches(&state.query);
    if edit.changed() {
        state.selected = 0;
    }
    let (down, up, enter) = ui.input(|i| {
        (
            i.key_pressed(Key::ArrowDown),
            i.key_pressed(Key::ArrowUp),
            i.key_pressed(Key::Enter),
        )
    });
    if down {
        state.selected = (state.selected + 1).min(found.len().saturating_sub(1));
    }
    if up {
        state.selected = state.selected.saturating_sub(1);
    }
    let mut chosen = None;
    egui::ScrollArea::vertical()
        .max_height(360.0)
        .show(ui, |ui| {
            for (i, command) in found.iter().enumerate() {
                let keys = command.shortcut_text(ui.ctx());
                let row = egui::Button::selectable(i == state.selected, command.label())
                    .shortcut_text(keys);
                let response = ui.add(row).on_hover_text(command.tooltip());
                if i == state.selected && (down || up) {
                    response.scroll_to_me(None);
                }
                if response.clicked() {
                    chosen = Some(*command);
                }
            }
        });
    if enter && chosen.is_none() {
        chosen = found.get(state.selected).cloned();
    }
    let close = ui.button("Close").clicked();
    match chosen {
        Some(command) => {
            cx.send(command);
            false
        }
        None => !close,
    }
}

/// The shortcut sheet's body. Returns whether it should close.
pub fn shortcuts_ui(ui: &mut Ui) -> bool {
    ui.set_min_width(520.0);
    ui.heading("Keyboard shortcuts");
    egui::ScrollArea::vertical()
        .max_height(480.0)
        .show(ui, |ui| {
            egui::Grid::new("shortcut-sheet")
                .striped(true)
                .num_columns(2)
                .show(ui, |ui| {
                    for command in UiCommand::all() {
                        let keys: Vec<String> = command
                            .shortcuts()
                            .iter()
                            .map(|s| crate::context::command::shortcut_label(ui.ctx(), s))
                            .collect();
                        if keys.is_empty() {
                            continue;
                        }
                        ui.label(keys.join(", "));
                        ui.label(command.label()).on_hover_text(command.tooltip());
                        ui.end_row();
                    }
                    for (gesture, what) in MAP_KEYS.iter().chain(POINTER_GESTURES) {
                        ui.label(*gesture);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
        });
    ui.button("Close").clicked()
}
