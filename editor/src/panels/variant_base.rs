//! An opened variant's base beside its changes (issue 25): a changed field of a counter shows
//! its base's value and a button that puts it back (one undoable edit through the command
//! handler); a scenario setting shows its base's value beside the field.

use bataille_schema::Scenario;
use egui::Ui;

use crate::context::{AppCommand, ViewContext};
use crate::model::scenario_edit::CounterAt;
use crate::model::variant::CounterBase;

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
