//! Form widgets shared by the panels: labelled text and numbers, colours, movement costs,
//! effects, ids.

use std::collections::BTreeMap;

use bataille_schema::map::{Effects, HexsideSymbol, MoveCost, OverlaySymbol, Pattern};
use bataille_schema::{Colour, Id};
use egui::Ui;

/// A count with its noun: `1 unit`, `2 units` (`noun` is the singular; English plurals in -s).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A labelled single-line text field.
pub fn labelled_text(ui: &mut Ui, label: &str, text: &mut String) -> egui::Response {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.text_edit_singleline(text).labelled_by(l.id)
    })
    .inner
}

/// A labelled number field.
pub fn labelled_number<N: egui::emath::Numeric>(
    ui: &mut Ui,
    label: &str,
    value: &mut N,
    range: std::ops::RangeInclusive<N>,
) -> egui::Response {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::DragValue::new(value).range(range))
            .labelled_by(l.id)
    })
    .inner
}

/// A colour button for a `#rrggbb` colour.
pub fn colour_button(ui: &mut Ui, label: &str, colour: &mut Colour) {
    ui.horizontal(|ui| {
        ui.label(label);
        let mut rgb = colour.rgb().unwrap_or([128, 128, 128]);
        if ui
            .color_edit_button_srgb(&mut rgb)
            .on_hover_text(label)
            .changed()
        {
            *colour = Colour::from_rgb(rgb);
        }
        ui.monospace(colour.as_str());
    });
}

pub fn cost_ui(ui: &mut Ui, label: &str, id_salt: &str, cost: &mut Option<MoveCost>) {
    ui.horizontal(|ui| {
        let text = match cost {
            None => "default".to_owned(),
            Some(MoveCost::Mp(n)) => format!("{n} MP"),
            Some(MoveCost::AllMp) => "all MP".to_owned(),
            Some(MoveCost::HalfMp) => "half MP".to_owned(),
            Some(MoveCost::Impassable) => "impassable".to_owned(),
        };
        egui::ComboBox::new(id_salt, label)
            .selected_text(text)
            .show_ui(ui, |ui| {
                ui.selectable_value(cost, None, "default");
                if ui
                    .selectable_label(matches!(cost, Some(MoveCost::Mp(_))), "MP")
                    .clicked()
                    && !matches!(cost, Some(MoveCost::Mp(_)))
                {
                    *cost = Some(MoveCost::Mp(1));
                }
                ui.selectable_value(cost, Some(MoveCost::AllMp), "all MP");
                ui.selectable_value(cost, Some(MoveCost::HalfMp), "half MP");
                ui.selectable_value(cost, Some(MoveCost::Impassable), "impassable");
            });
        if let Some(MoveCost::Mp(n)) = cost {
            let l = ui.label("MP");
            ui.add(egui::DragValue::new(n).range(0..=20))
                .labelled_by(l.id);
        }
    });
}

pub fn cost_by_kind_ui(ui: &mut Ui, id_salt: &str, costs: &mut BTreeMap<Id, MoveCost>) {
    ui.label("Cost by unit kind:");
    let mut remove = None;
    let mut edits = Vec::new();
    for (kind, cost) in costs.iter() {
        ui.horizontal(|ui| {
            let mut c = Some(*cost);
            cost_ui(ui, kind.as_str(), &format!("{id_salt}-{kind}"), &mut c);
            if c != Some(*cost) {
                edits.push((kind.clone(), c));
            }
            if ui
                .button("✖")
                .on_hover_text(format!("Remove the cost for {kind}"))
                .clicked()
            {
                remove = Some(kind.clone());
            }
        });
    }
    for (kind, c) in edits {
        match c {
            Some(c) => {
                costs.insert(kind, c);
            }
            None => {
                costs.remove(&kind);
            }
        }
    }
    if let Some(kind) = remove {
        costs.remove(&kind);
    }
    ui.horizontal(|ui| {
        let id = ui.make_persistent_id((id_salt, "new-kind"));
        let mut new_kind: String = ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
        let l = ui.label("Kind");
        ui.add(egui::TextEdit::singleline(&mut new_kind).desired_width(90.0))
            .labelled_by(l.id);
        let valid = is_id(&new_kind);
        if ui
            .add_enabled(valid, egui::Button::new("Add kind cost"))
            .clicked()
        {
            costs.insert(Id::from(new_kind.as_str()), MoveCost::Mp(1));
            new_kind.clear();
        }
        ui.data_mut(|d| d.insert_temp(id, new_kind));
    });
}

pub use bataille_schema::ids::is_id;

pub fn effects_ui(ui: &mut Ui, id_salt: &str, effects: &mut Effects) {
    cost_ui(ui, "Cost", &format!("{id_salt}-cost"), &mut effects.cost);
    cost_by_kind_ui(ui, id_salt, &mut effects.cost_by_kind);
    labelled_number(ui, "Protection", &mut effects.protection, 0..=5);
    labelled_number(ui, "Road bonus MP", &mut effects.road_bonus_mp, 0..=5);
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut effects.blocks_sight, "Blocks sight");
        ui.checkbox(&mut effects.blocks_zoc, "Blocks ZOC");
        ui.checkbox(&mut effects.built_up, "Built-up");
        ui.checkbox(&mut effects.elevated, "Elevated");
        ui.checkbox(&mut effects.redoubt, "Redoubt");
    });
}

pub const PATTERNS: [Option<Pattern>; 7] = [
    None,
    Some(Pattern::Trees),
    Some(Pattern::Marsh),
    Some(Pattern::Water),
    Some(Pattern::Buildings),
    Some(Pattern::Dots),
    Some(Pattern::Hatch),
];

pub const OVERLAY_SYMBOLS: [OverlaySymbol; 6] = [
    OverlaySymbol::Redoubt,
    OverlaySymbol::Town,
    OverlaySymbol::Bridge,
    OverlaySymbol::Road,
    OverlaySymbol::Fortification,
    OverlaySymbol::Marker,
];

pub const HEXSIDE_SYMBOLS: [HexsideSymbol; 5] = [
    HexsideSymbol::River,
    HexsideSymbol::Stream,
    HexsideSymbol::Road,
    HexsideSymbol::Bridge,
    HexsideSymbol::Fortification,
];

/// A modal dialog whose top edge stays put while its content grows or shrinks (an error line
/// appearing, a list filling): egui's default modal is centred, so a change of height moved
/// every button under the pointer and a second click missed (issue 21).
pub fn steady_modal(id: &str) -> egui::Modal {
    let id = egui::Id::unique(id);
    egui::Modal::new(id)
        .area(egui::Modal::default_area(id).anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 64.0)))
}
