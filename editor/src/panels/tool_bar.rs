//! The tool bar: the map tools, Undo, Redo and Save, each sending its `UiCommand`.

use egui::Ui;

use crate::context::{UiCommand, ViewContext};
use crate::tools::Tool;

/// The tool bar (no state of its own).
#[derive(Debug, Default)]
pub struct ToolBar;

impl ToolBar {
    pub fn ui(&mut self, ctx: &ViewContext<'_>, ui: &mut Ui) {
        egui::Panel::top("tool-bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                for tool in Tool::ALL {
                    let text = format!("{} {}", tool.icon(), tool.name());
                    if ui
                        .selectable_label(ctx.tools.tool == tool, text)
                        .on_hover_text(tool.tooltip())
                        .clicked()
                    {
                        ctx.send(UiCommand::Tool(tool));
                    }
                }
                ui.separator();
                if ui
                    .add_enabled(ctx.history.can_undo(), egui::Button::new("⟲ Undo"))
                    .on_hover_text("Undo (Ctrl+Z)")
                    .clicked()
                {
                    ctx.send(UiCommand::Undo);
                }
                if ui
                    .add_enabled(ctx.history.can_redo(), egui::Button::new("⟳ Redo"))
                    .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
                    .clicked()
                {
                    ctx.send(UiCommand::Redo);
                }
                if ui
                    .button("💾 Save")
                    .on_hover_text("Save (Ctrl+S)")
                    .clicked()
                {
                    ctx.send(UiCommand::Save);
                }
            });
        });
    }
}
