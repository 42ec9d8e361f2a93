//! An opened variant's base beside its changes (issue 25): a changed field of a counter shows
//! its base's value and a button that puts it back (one undoable edit through the command
//! handler); a scenario setting shows its base's value beside the field. Also the ways
//! between a base and its variants: the Scenario menu's entries and the "Open variant…" list.

use bataille_schema::Scenario;
use egui::Ui;

use crate::context::{AppCommand, UiCommand, ViewContext};
use crate::model::scenario_edit::CounterAt;
use crate::model::variant_base::{CounterBase, ZoneBase};

/// The inspector's lines for a counter of an opened variant: what the variant changes, each
/// with the base's value and "Reset to base"; nothing when no variant is open.
pub fn counter_base_ui(ctx: &ViewContext<'_>, ui: &mut Ui, s: &Scenario, at: CounterAt) {
    let Some(origin) = &ctx.doc.variant else {
        return;
    };
    match origin.counter_base(s, at) {
        None => {}
        Some(CounterBase::Added) => {
            ui.label("Added by this variant: the base has no such counter.");
        }
        Some(CounterBase::Changed(fields)) if fields.is_empty() => {
            ui.weak("As in the base scenario.");
        }
        Some(CounterBase::Changed(fields)) => {
            ui.strong("Changed from the base");
            for value in fields {
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("{}: {}", value.field, value.now));
                    ui.weak(format!("base: {}", value.base));
                    if ui
                        .small_button(format!("Reset {} to base", value.field))
                        .clicked()
                    {
                        ctx.send(AppCommand::Edit {
                            label: format!("Reset {} to the base's", value.field),
                            changes: value.reset,
                        });
                    }
                });
            }
        }
    }
}

/// The zone form's line for a deployment zone of an opened variant: replaced in this variant
/// (with the base's zone and "Reset zone to base", one undoable edit), added by it, or as in
/// the base; nothing when no variant is open.
pub fn zone_base_ui(ctx: &ViewContext<'_>, ui: &mut Ui, s: &Scenario, z: usize) {
    let Some(origin) = &ctx.doc.variant else {
        return;
    };
    match origin.zone_base(s, z) {
        None => {}
        Some(ZoneBase::Added) => {
            ui.label("Added by this variant: the base has no such zone.");
        }
        Some(ZoneBase::Same) => {
            ui.weak("As in the base scenario.");
        }
        Some(ZoneBase::Replaced { base, reset }) => {
            ui.strong("Replaced in this variant");
            ui.horizontal_wrapped(|ui| {
                ui.weak(format!("base: {base}"));
                if ui.small_button("Reset zone to base").clicked() {
                    ctx.send(AppCommand::Edit {
                        label: "Reset the zone to the base's".to_owned(),
                        changes: reset,
                    });
                }
            });
        }
    }
}

/// A scenario setting's base value beside its field, when a variant is open and it differs:
/// `base: 10` and a "Reset … to base" button that puts the base's text in the field (applied
/// with the dialog, as one undoable edit). Returns whether the field was reset.
pub fn setting_base_ui(
    ui: &mut Ui,
    base: Option<&Scenario>,
    field: &str,
    text: &mut String,
    of_base: impl Fn(&Scenario) -> String,
) -> bool {
    let Some(base) = base else {
        return false;
    };
    let base_text = of_base(base);
    if *text == base_text {
        return false;
    }
    ui.weak(format!("base: {base_text}"));
    if ui.small_button(format!("Reset {field} to base")).clicked() {
        *text = base_text;
        return true;
    }
    false
}

/// The Scenario menu's variant entries: each variant of the open scenario (of the variant's
/// base), the base from a variant, and the ways to make one. Opening goes through the
/// unsaved-changes guard (`AppCommand::OpenPath`).
pub fn variant_menu(ctx: &ViewContext<'_>, ui: &mut Ui) {
    let Some(file) = &ctx.doc.scenario else {
        return;
    };
    ui.separator();
    let others: Vec<_> = ctx
        .doc
        .variants_beside
        .iter()
        .filter(|v| v.path != file.path)
        .collect();
    ui.menu_button("Open variant", |ui| {
        if others.is_empty() {
            ui.weak("No variant of this scenario beside it");
        }
        for v in &others {
            let name = v
                .path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            if ui.button(format!("{} ({name})", v.name)).clicked() {
                ctx.send(AppCommand::OpenPath(v.path.clone()));
            }
        }
        if let Some(note) = not_read_note(&ctx.doc.variants_not_read) {
            ui.weak(note);
        }
    });
    if ctx.doc.variant.is_some() && ui.button(UiCommand::OpenBaseScenario.label()).clicked() {
        ctx.send(UiCommand::OpenBaseScenario);
    }
    for command in [UiCommand::SaveAsVariant, UiCommand::NewVariant] {
        if ui
            .button(command.label())
            .on_hover_text(command.tooltip())
            .clicked()
        {
            ctx.send(command);
        }
    }
}

/// The files beside the scenario that may be variants but were not read (the folder's files
/// passed the byte budget of one look), named: at most five, then how many more.
pub fn not_read_note(files: &[std::path::PathBuf]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let names: Vec<String> = files
        .iter()
        .take(5)
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let more = files.len().saturating_sub(5);
    Some(format!(
        "Not read (the folder's files passed 64 MiB): {}{}",
        names.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ))
}

/// The "Open variant…" dialog: one button a variant. Returns whether it stays open.
pub fn variants_dialog(
    cx: &ViewContext<'_>,
    ctx: &egui::Context,
    files: &[crate::model::variant::VariantFile],
) -> bool {
    let mut keep = true;
    crate::panels::widgets::steady_modal("variants").show(ctx, |ui| {
        ui.heading("Open variant");
        if files.is_empty() {
            ui.label(
                "No variant of this scenario beside it (its folder, the repository's scenarios/).",
            );
        }
        for v in files {
            let name = v
                .path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            if ui.button(format!("{} ({name})", v.name)).clicked() {
                cx.send(AppCommand::OpenPath(v.path.clone()));
                keep = false;
            }
        }
        if let Some(note) = not_read_note(&cx.doc.variants_not_read) {
            ui.weak(note);
        }
        if ui.button("Cancel").clicked() {
            keep = false;
        }
    });
    keep
}
