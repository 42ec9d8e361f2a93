//! The key handler: this frame's key presses matched against the shortcuts of the UI commands
//! (`UiCommand`) (more modifiers first), with what a text field, an open menu or a dialog keeps.

use egui::{KeyboardShortcut, Modifiers};

use crate::context::command::UiCommand;

/// The commands whose shortcuts match this frame's key presses, consumed from the input:
/// shortcuts with more modifiers first (Ctrl+Shift+Z before Ctrl+Z, Shift+R before R).
pub fn pressed(ctx: &egui::Context, typing: bool, dialog_open: bool) -> Vec<UiCommand> {
    let mut table: Vec<(KeyboardShortcut, UiCommand)> = UiCommand::all()
        .into_iter()
        .flat_map(|c| c.shortcuts().into_iter().map(move |s| (s, c)))
        .collect();
    let weight = |m: Modifiers| u8::from(m.shift) + u8::from(m.alt) + u8::from(m.command);
    table.sort_by_key(|(s, _)| std::cmp::Reverse(weight(s.modifiers)));
    // egui takes the focus from a text field as the frame with Escape begins: whether one had
    // it is the last frame's `typing`.
    let typing_id = egui::Id::unique("bataille-typing-last-frame");
    let was_typing = ctx.data(|d| d.get_temp::<bool>(typing_id)).unwrap_or(false);
    ctx.data_mut(|d| d.insert_temp(typing_id, typing));
    let escape_is_a_fields = (typing || was_typing) && !dialog_open;
    let menu_open = egui::Popup::is_any_open(ctx);
    let mut out = Vec::new();
    for (shortcut, command) in table {
        if typing && !UiCommand::works_while_typing(&shortcut) {
            continue;
        }
        // Escape in a dock's text field is the field's: it puts the value back (`panels::field`).
        // An open menu or combo box is on top of everything: its popup closes on Escape.
        if (escape_is_a_fields || menu_open) && command == UiCommand::Escape {
            continue;
        }
        if dialog_open && !command.works_over_dialogs() {
            continue;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&shortcut)) {
            out.push(command);
        }
    }
    out
}
