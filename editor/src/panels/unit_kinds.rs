//! Editing the scenario's unit kinds (in the settings dialog): id, name, symbol, whether it
//! fights, front and flank hexsides, immobile, the armies that may field it (Fontenoy 10:
//! artillery French only; all ticked is any army); adding a kind (its id made from its name)
//! and removing one no unit uses. An id the editor made follows the name until the user types
//! one (issue 21); the dialog renames the kind where the scenario names it on Apply.

use std::collections::{BTreeMap, HashSet};

use bataille_schema::Id;
use bataille_schema::scenario::{Symbol, UnitKind};
use egui::Ui;

const SYMBOLS: [Symbol; 7] = [
    Symbol::Infantry,
    Symbol::Cavalry,
    Symbol::Dragoons,
    Symbol::Light,
    Symbol::Artillery,
    Symbol::Baggage,
    Symbol::Other,
];

/// A kind's id as the dialog edits it: the text in its field, and whether the user typed it
/// (then it no longer follows the name).
#[derive(Debug, Clone, PartialEq)]
pub struct KindId {
    pub text: String,
    pub typed: bool,
}

impl KindId {
    pub fn of(id: &Id) -> KindId {
        KindId {
            text: id.to_string(),
            typed: false,
        }
    }
}

/// The unit kinds' section. `used` are the kinds some unit has (not removable); `ids` the id
/// typed or followed for each kind (by its key in `kinds`).
pub fn unit_kinds_ui(
    ui: &mut Ui,
    kinds: &mut BTreeMap<Id, UnitKind>,
    ids: &mut BTreeMap<Id, KindId>,
    used: &HashSet<Id>,
    armies: &[(Id, String)],
) {
    ui.strong("Unit kinds");
    let mut remove = None;
    for (id, kind) in kinds.iter_mut() {
        let kind_id = ids.entry(id.clone()).or_insert_with(|| KindId::of(id));
        ui.push_id(("kind", id.as_str()), |ui| {
            ui.horizontal_wrapped(|ui| {
                let before = kind.name.clone();
                let label = ui.label("name");
                let name = ui
                    .add(egui::TextEdit::singleline(&mut kind.name).desired_width(120.0))
                    .labelled_by(label.id);
                // An id the editor made follows the name, until one is typed.
                if name.changed()
                    && !kind_id.typed
                    && crate::model::scenario_edit::id_follows_name(
                        &Id::from(kind_id.text.as_str()),
                        &before,
                        &[],
                    )
                {
                    kind_id.text = crate::model::scenario_edit::sanitise_id(&kind.name);
                }
                let id_label = ui.label("id");
                if ui
                    .add(egui::TextEdit::singleline(&mut kind_id.text).desired_width(90.0))
                    .labelled_by(id_label.id)
                    .on_hover_text(
                        "The id files and other kinds' rules use; renaming it renames it \
                         wherever the scenario names it",
                    )
                    .changed()
                {
                    kind_id.typed = true;
                }
                let symbol_label = ui.label("symbol");
                egui::ComboBox::from_id_salt("symbol")
                    .selected_text(format!("{:?}", kind.symbol))
                    .show_ui(ui, |ui| {
                        for symbol in SYMBOLS {
                            ui.selectable_value(&mut kind.symbol, symbol, format!("{symbol:?}"));
                        }
                    })
                    .response
                    .labelled_by(symbol_label.id);
                ui.checkbox(&mut kind.combat, "fights");
                ui.checkbox(&mut kind.immobile, "immobile");
                let front = ui.label("front");
                ui.add(egui::DragValue::new(&mut kind.front_hexsides).range(0..=6))
                    .labelled_by(front.id);
                let flank = ui.label("flank");
                ui.add(egui::DragValue::new(&mut kind.flank_hexsides).range(0..=6))
                    .labelled_by(flank.id);
                let in_use = used.contains(id);
                if ui
                    .add_enabled(!in_use, egui::Button::new("Remove kind").small())
                    .on_disabled_hover_text("Units have this kind")
                    .clicked()
                {
                    remove = Some(id.clone());
                }
            });
            if !armies.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label("fielded by");
                    let mut ticked: Vec<bool> = armies
                        .iter()
                        .map(|(a, _)| kind.armies.is_empty() || kind.armies.contains(a))
                        .collect();
                    let mut changed = false;
                    for ((_, name), tick) in armies.iter().zip(&mut ticked) {
                        changed |= ui.checkbox(tick, name.as_str()).changed();
                    }
                    if changed {
                        kind.armies = if ticked.iter().all(|t| *t) {
                            Vec::new()
                        } else {
                            armies
                                .iter()
                                .zip(&ticked)
                                .filter(|(_, t)| **t)
                                .map(|((a, _), _)| a.clone())
                                .collect()
                        };
                    }
                });
            }
        });
    }
    if let Some(id) = remove {
        kinds.remove(&id);
        ids.remove(&id);
    }
    if ui.button("Add unit kind").clicked() {
        let taken: HashSet<String> = kinds
            .keys()
            .map(|k| k.to_string())
            .chain(ids.values().map(|i| i.text.clone()))
            .collect();
        let name = format!("Kind {}", kinds.len() + 1);
        let id = crate::model::scenario_edit::unique_id(&taken, &name);
        kinds.insert(
            id,
            UnitKind {
                range_hexes: None,
                name,
                symbol: Symbol::Infantry,
                combat: true,
                counts_for_stacking: None,
                front_hexsides: 2,
                flank_hexsides: 2,
                moves_as: None,
                immobile: false,
                armies: Vec::new(),
            },
        );
    }
}
