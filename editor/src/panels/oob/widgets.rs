//! The form widgets of the order-of-battle panel: labelled rows of text, checks and choices.

use super::*;

/// The field of `key` in a draft's texts (an empty one when the draft has none).
pub(super) fn field<'t>(
    texts: &'t mut BTreeMap<&'static str, Field>,
    key: &'static str,
) -> &'t mut Field {
    texts.entry(key).or_default()
}

/// A labelled check box; returns whether it changed.
pub(super) fn check_row(ui: &mut Ui, label: &str, value: &mut bool) -> bool {
    ui.checkbox(value, label).changed()
}

/// A labelled combo box over `choices`; returns whether the choice changed.
pub(super) fn combo_row<T: PartialEq + Clone>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    choices: &[(T, String)],
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        let l = ui.add_sized([LABEL_WIDTH, 18.0], egui::Label::new(label).truncate());
        let current = choices
            .iter()
            .find(|(v, _)| v == value)
            .map_or_else(|| "—".to_owned(), |(_, t)| t.clone());
        let r = egui::ComboBox::from_id_salt(("oob-combo", label))
            .selected_text(current)
            .width(ui.available_width().max(80.0) - 8.0)
            .truncate()
            .show_ui(ui, |ui| {
                for (v, text) in choices {
                    if ui.selectable_label(v == value, text).clicked() && v != value {
                        *value = v.clone();
                        changed = true;
                    }
                }
            });
        r.response.labelled_by(l.id);
    });
    changed
}

pub(super) fn edge_checks(ui: &mut Ui, edges: &mut Vec<MapEdge>, prefix: &str) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{prefix}friendly edges:"));
        for (edge, name) in [
            (MapEdge::North, "North"),
            (MapEdge::East, "East"),
            (MapEdge::South, "South"),
            (MapEdge::West, "West"),
        ] {
            let mut on = edges.contains(&edge);
            if ui.checkbox(&mut on, name).changed() {
                if on {
                    edges.push(edge);
                    edges.sort();
                } else {
                    edges.retain(|e| *e != edge);
                }
                changed = true;
            }
        }
    });
    changed
}

pub(super) fn opt_text<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}
