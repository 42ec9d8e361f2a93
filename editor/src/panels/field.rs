//! The forms' typed text fields, in one place: a field keeps what is typed beside the value as
//! it is; a commit (Enter, focus lost) reads the text into the field's type within the schema's
//! bounds (`bataille_schema::bounds`, the numbers the validator checks); a text that does not
//! read, or reads out of bounds, is refused: the text goes back to the value and the reason shows
//! beside the field. Escape puts the value back too and commits nothing.

use std::fmt::Display;
use std::str::FromStr;

use bataille_schema::bounds::Bounds;
use egui::Ui;

/// The width of the forms' label column.
pub const LABEL_WIDTH: f32 = 108.0;

/// The colour of a refusal shown beside its field.
pub const ERROR_COLOUR: egui::Color32 = egui::Color32::from_rgb(230, 80, 70);

/// Reads a whole number within `bounds`; the error names the field (`what`) and the bounds.
pub fn number<T>(text: &str, bounds: Bounds<T>, what: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + Copy + Display,
{
    let typed = text.trim();
    match typed.parse::<T>() {
        Ok(value) if bounds.contains(value) => Ok(value),
        _ => Err(format!(
            "{what}: `{typed}` is not a whole number from {} to {}",
            bounds.min, bounds.max
        )),
    }
}

/// Reads an optional whole number within `bounds`: an empty text is `None`.
pub fn optional_number<T>(text: &str, bounds: Bounds<T>, what: &str) -> Result<Option<T>, String>
where
    T: FromStr + PartialOrd + Copy + Display,
{
    if text.trim().is_empty() {
        Ok(None)
    } else {
        number(text, bounds, what).map(Some)
    }
}

/// A typed text field of a form: the text as typed, the text of the value as it is (what the
/// field goes back to), and the last refusal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Field {
    pub text: String,
    /// The value as it is, as text: shown again on Escape or when a text is refused.
    pub shown: String,
    /// Why the last text committed was refused, shown under the field until the next commit.
    pub error: Option<String>,
}

impl Field {
    /// A field showing a value.
    pub fn new(shown: String) -> Self {
        Self {
            text: shown.clone(),
            shown,
            error: None,
        }
    }

    /// The text typed (trimmed) when it differs from the value shown.
    pub fn edited(&self) -> Option<String> {
        (self.text != self.shown).then(|| self.text.trim().to_owned())
    }

    /// Puts the value as it is back in the field.
    pub fn revert(&mut self) {
        self.text = self.shown.clone();
    }

    /// Refuses what was typed: the value goes back, the reason shows beside the field.
    pub fn refuse(&mut self, error: String) {
        self.revert();
        self.error = Some(error);
    }

    /// Reads what was typed: `None` when nothing was (the value stays as it is, even one the
    /// field would not write); the value when `parse` reads it; else the field is refused
    /// and `None`.
    pub fn read<T>(&mut self, parse: impl FnOnce(&str) -> Result<T, String>) -> Option<T> {
        let typed = self.edited()?;
        match parse(&typed) {
            Ok(value) => {
                self.error = None;
                Some(value)
            }
            Err(error) => {
                self.refuse(error);
                None
            }
        }
    }

    /// What was read is the value now: the field starts again from it.
    pub fn settle(&mut self) {
        self.shown = self.text.clone();
    }

    /// A labelled single-line row with `hint` shown while it is empty, and the last refusal
    /// under it. Returns whether it was committed (Enter or focus lost); Escape puts the value
    /// back and commits nothing.
    pub fn ui(&mut self, ui: &mut Ui, label: &str, hint: &str, focus: bool) -> bool {
        let committed = ui
            .horizontal(|ui| {
                let l = ui.add_sized([LABEL_WIDTH, 18.0], egui::Label::new(label).truncate());
                self.edit(ui, hint, (l.id, ""), focus)
            })
            .inner;
        self.error_ui(ui);
        committed
    }

    /// The text edit alone, in a row the caller lays out: labelled by the label `(id, tooltip)`
    /// (no tooltip when empty), focused when asked; returns whether it was committed. Escape
    /// puts the value back.
    pub fn edit(
        &mut self,
        ui: &mut Ui,
        hint: &str,
        (label, hover): (egui::Id, &str),
        focus: bool,
    ) -> bool {
        let mut r = ui
            .add(
                egui::TextEdit::singleline(&mut self.text)
                    .hint_text(hint)
                    .desired_width(ui.available_width().max(60.0)),
            )
            .labelled_by(label);
        if !hover.is_empty() {
            r = r.on_hover_text(hover);
        }
        if focus {
            r.request_focus();
        }
        if r.lost_focus() || r.has_focus() && escape_pressed(ui) {
            if escape_pressed(ui) {
                self.revert();
                r.surrender_focus();
                return false;
            }
            return true;
        }
        false
    }

    /// The last refusal, if any, in red.
    pub fn error_ui(&self, ui: &mut Ui) {
        if let Some(error) = &self.error {
            ui.colored_label(ERROR_COLOUR, error);
        }
    }
}

/// Whether Escape was pressed this frame, even when a shortcut took the key (egui takes the
/// focus from the field as the frame begins, before the field sees the key).
fn escape_pressed(ui: &Ui) -> bool {
    ui.input(|i| {
        i.raw.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::Key {
                    key: egui::Key::Escape,
                    pressed: true,
                    ..
                }
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::bounds::{FIRE_MODIFIER, UNIT_CP};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    #[test]
    fn numbers_read_within_the_schemas_bounds_only() {
        assert_eq!(number("12", UNIT_CP, "CP"), Ok(12));
        assert_eq!(number(" 0 ", UNIT_CP, "CP"), Ok(0));
        let error = number("13", UNIT_CP, "CP").unwrap_err();
        assert_eq!(error, "CP: `13` is not a whole number from 0 to 12");
        assert!(number("-1", UNIT_CP, "CP").is_err());
        assert!(number("three", UNIT_CP, "CP").is_err());
        assert_eq!(number("-5", FIRE_MODIFIER, "Fire"), Ok(-5));
        assert!(number("-6", FIRE_MODIFIER, "Fire").is_err());
        assert_eq!(optional_number(" ", UNIT_CP, "CP"), Ok(None));
        assert_eq!(optional_number("4", UNIT_CP, "CP"), Ok(Some(4)));
    }

    #[test]
    fn a_refused_text_goes_back_and_says_why() {
        let mut field = Field::new("3".into());
        assert_eq!(
            field.read(|t| number(t, UNIT_CP, "CP")),
            None,
            "nothing typed"
        );
        field.text = "40".into();
        assert_eq!(field.read(|t| number(t, UNIT_CP, "CP")), None);
        assert_eq!(field.text, "3", "reverted");
        assert!(
            field
                .error
                .as_deref()
                .is_some_and(|e| e.contains("0 to 12"))
        );
        field.text = "7".into();
        assert_eq!(field.read(|t| number(t, UNIT_CP, "CP")), Some(7));
        assert_eq!(field.error, None, "a good value clears the refusal");
        field.settle();
        assert_eq!((field.shown.as_str(), field.edited()), ("7", None));
    }

    /// The field through egui: typed and committed with Enter, refused out of bounds (the text
    /// goes back and the reason shows), put back by Escape.
    #[test]
    fn the_field_commits_refuses_and_escapes() {
        struct State {
            field: Field,
            value: u8,
        }
        let mut harness = Harness::new_ui_state(
            |ui, state: &mut State| {
                if state.field.ui(ui, "CP", "", false)
                    && let Some(v) = state.field.read(|t| number(t, UNIT_CP, "CP"))
                {
                    state.value = v;
                    state.field.settle();
                }
            },
            State {
                field: Field::new("3".into()),
                value: 3,
            },
        );
        let type_in = |h: &mut Harness<State>, text: &str, key: egui::Key| {
            h.get_by_label("CP").focus();
            h.run();
            h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
            h.get_by_label("CP").type_text(text);
            h.run();
            h.key_press(key);
            h.run();
        };
        type_in(&mut harness, "5", egui::Key::Enter);
        assert_eq!(harness.state().value, 5);
        type_in(&mut harness, "13", egui::Key::Enter);
        assert_eq!(harness.state().value, 5, "13 is beyond the schema's 12");
        assert_eq!(harness.state().field.text, "5");
        harness.get_by_label_contains("`13` is not a whole number from 0 to 12");
        type_in(&mut harness, "9", egui::Key::Escape);
        assert_eq!(harness.state().value, 5, "Escape commits nothing");
        assert_eq!(
            harness.state().field.text,
            "5",
            "Escape puts the value back"
        );
    }
}
