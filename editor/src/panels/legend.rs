//! The legend editor: add, edit and delete terrain types, overlay types and hexside types with
//! their drawing and their rule effects. Edits are made on a draft and sent as one
//! `AppCommand::Edit`; deleting an entry in use asks what to replace it with. The form follows the
//! document: after an undo or redo it shows the entry as it now is.
//! Longer than 600 lines: the three legend tabs (terrain, overlays, hexsides) follow one pattern
//! (list, form, delete-with-replacement) and read best side by side.

use std::collections::BTreeMap;

use bataille_schema::map::{
    Effects, HexsideSymbol, HexsideType, OverlaySymbol, OverlayType, TerrainType,
};
use bataille_schema::{Colour, Id};
use egui::Ui;

use crate::context::{AppCommand, CommandSender, ViewContext};
use crate::model::document::Document;
use crate::model::legend::{delete_entry, put_entry};

/// Which legend is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendTab {
    Terrain,
    Overlays,
    Hexsides,
}

/// An entry being deleted while in use, and what replaces it.
#[derive(Debug, Clone)]
struct DeletePrompt {
    tab: LegendTab,
    key: String,
    uses: usize,
    replacement: Option<String>,
    /// Scrolled into view yet: the window keeps its height, the question comes below the form.
    revealed: bool,
}

/// The legend editor window's state.
pub struct LegendEditor {
    pub open: bool,
    pub tab: LegendTab,
    /// The key of the entry being edited; `None` for a new entry.
    selected: Option<String>,
    draft_key: String,
    terrain: TerrainType,
    overlay: OverlayType,
    hexside: HexsideType,
    delete: Option<DeletePrompt>,
    pub error: Option<String>,
    /// Pick mode (the eyedropper): the next click on the map takes the scan's colour there for
    /// this tab's colour. Escape leaves it.
    pub picking: Option<LegendTab>,
    /// The last colour taken from the scan, shown beside the colour.
    picked: Option<String>,
    /// The entry as it was in the document when the form loaded it (compared after each change
    /// of the document: undo, redo).
    base: Option<Entry>,
    /// The document's revision last compared.
    seen_revision: u64,
}

/// An entry of one of the three legends.
#[derive(Debug, Clone, PartialEq)]
enum Entry {
    Terrain(TerrainType),
    Overlay(OverlayType),
    Hexside(HexsideType),
}

fn blank_terrain() -> TerrainType {
    TerrainType {
        name: "New terrain".into(),
        colour: Colour::from("#c8c8a0"),
        pattern: None,
        water: false,
        effects: Effects::default(),
    }
}

fn blank_overlay() -> OverlayType {
    OverlayType {
        name: "New overlay".into(),
        symbol: OverlaySymbol::Marker,
        colour: None,
        bridge: false,
        effects: Effects::default(),
    }
}

fn blank_hexside() -> HexsideType {
    HexsideType {
        name: "New hexside feature".into(),
        symbol: HexsideSymbol::Stream,
        colour: Colour::from("#3c78c8"),
        water: false,
        bridge: false,
        blocks_zoc: false,
        needs_breach: false,
        cost: None,
        cost_by_kind: BTreeMap::new(),
    }
}

impl Default for LegendEditor {
    fn default() -> Self {
        Self {
            open: false,
            tab: LegendTab::Terrain,
            selected: None,
            draft_key: String::new(),
            terrain: blank_terrain(),
            overlay: blank_overlay(),
            hexside: blank_hexside(),
            delete: None,
            error: None,
            picking: None,
            picked: None,
            base: None,
            seen_revision: 0,
        }
    }
}

pub use crate::panels::widgets::*;

impl LegendEditor {
    fn keys(&self, doc: &Document) -> Vec<(String, String)> {
        match self.tab {
            LegendTab::Terrain => doc
                .map
                .terrain
                .iter()
                .map(|(k, t)| (k.clone(), t.name.clone()))
                .collect(),
            LegendTab::Overlays => doc
                .map
                .overlay_types
                .iter()
                .map(|(k, t)| (k.to_string(), t.name.clone()))
                .collect(),
            LegendTab::Hexsides => doc
                .map
                .hexside_types
                .iter()
                .map(|(k, t)| (k.to_string(), t.name.clone()))
                .collect(),
        }
    }

    /// The entry `key` of the tab's legend, as the document has it.
    fn entry(&self, doc: &Document, key: &str) -> Option<Entry> {
        match self.tab {
            LegendTab::Terrain => doc.map.terrain.get(key).cloned().map(Entry::Terrain),
            LegendTab::Overlays => doc.map.overlay_types.get(key).cloned().map(Entry::Overlay),
            LegendTab::Hexsides => doc.map.hexside_types.get(key).cloned().map(Entry::Hexside),
        }
    }

    /// After a change of the document (an undo, a redo, an edit elsewhere): when the entry the
    /// form edits is no longer what the form loaded, the form shows it as it now is (or the
    /// first entry, if it is gone).
    fn follow(&mut self, doc: &Document, revision: u64) {
        if self.seen_revision == revision {
            return;
        }
        self.seen_revision = revision;
        let Some(key) = self.selected.clone() else {
            return;
        };
        let now = self.entry(doc, &key);
        if now == self.base {
            return;
        }
        if now.is_some() {
            self.load(doc, Some(key));
        } else {
            let first = self.keys(doc).into_iter().next().map(|(k, _)| k);
            self.select(doc, first);
        }
    }

    fn select(&mut self, doc: &Document, key: Option<String>) {
        self.error = None;
        self.picking = None;
        self.picked = None;
        self.load(doc, key);
    }

    /// The form shows the entry `key` as the document has it (a blank one for `None`).
    fn load(&mut self, doc: &Document, key: Option<String>) {
        self.base = key.as_deref().and_then(|k| self.entry(doc, k));
        self.draft_key = key.clone().unwrap_or_default();
        match self.tab {
            LegendTab::Terrain => {
                self.terrain = key
                    .as_ref()
                    .and_then(|k| doc.map.terrain.get(k).cloned())
                    .unwrap_or_else(blank_terrain);
            }
            LegendTab::Overlays => {
                self.overlay = key
                    .as_ref()
                    .and_then(|k| doc.map.overlay_types.get(k.as_str()).cloned())
                    .unwrap_or_else(blank_overlay);
            }
            LegendTab::Hexsides => {
                self.hexside = key
                    .as_ref()
                    .and_then(|k| doc.map.hexside_types.get(k.as_str()).cloned())
                    .unwrap_or_else(blank_hexside);
            }
        }
        self.selected = key;
    }

    /// Opens the editor on a tab.
    pub fn open_on(&mut self, doc: &Document, tab: LegendTab) {
        self.open = true;
        self.tab = tab;
        let first = self.keys(doc).into_iter().next().map(|(k, _)| k);
        self.select(doc, first);
    }

    /// Shows the window (sending its edits) over the map's corner, clear of the menus and the
    /// terrain palette it edits. `scan_loaded`: a scan is under the map, so colours can be
    /// picked from it.
    pub fn show(
        &mut self,
        cx: &ViewContext<'_>,
        ctx: &egui::Context,
        scan_loaded: bool,
        map_rect: egui::Rect,
    ) {
        if !self.open {
            return;
        }
        let doc = cx.doc;
        self.follow(doc, cx.revision);
        let mut open = self.open;
        let mut edit = None;
        egui::Window::new("Legend")
            .open(&mut open)
            .default_width(420.0)
            .default_pos(map_rect.left_top() + egui::vec2(12.0, 12.0))
            .vscroll(true)
            .show(ctx, |ui| {
                edit = self.ui(ui, doc, scan_loaded);
            });
        self.open = open;
        if !self.open || !scan_loaded {
            self.picking = None;
        }
        if let Some(edit) = edit {
            cx.send(edit);
        }
    }

    fn ui(&mut self, ui: &mut Ui, doc: &Document, scan_loaded: bool) -> Option<AppCommand> {
        let mut edit = None;
        ui.horizontal(|ui| {
            for (tab, name) in [
                (LegendTab::Terrain, "Terrain"),
                (LegendTab::Overlays, "Overlays"),
                (LegendTab::Hexsides, "Hexside features"),
            ] {
                if ui.selectable_label(self.tab == tab, name).clicked() && self.tab != tab {
                    self.open_on(doc, tab);
                }
            }
        });
        ui.separator();
        ui.horizontal(|ui| {
            for (key, name) in self.keys(doc) {
                if ui
                    .selectable_label(
                        self.selected.as_deref() == Some(key.as_str()),
                        format!("{key}: {name}"),
                    )
                    .clicked()
                {
                    self.select(doc, Some(key));
                }
            }
            if ui
                .button("➕ New")
                .on_hover_text("Add an entry to this legend")
                .clicked()
            {
                self.select(doc, None);
            }
        });
        ui.separator();
        let key_label = match self.tab {
            LegendTab::Terrain => "Code (one character)",
            _ => "Id",
        };
        labelled_text(ui, key_label, &mut self.draft_key);
        match self.tab {
            LegendTab::Terrain => {
                let t = &mut self.terrain;
                labelled_text(ui, "Name", &mut t.name);
                colour_button(ui, "Colour", &mut t.colour);
                pick_ui(
                    ui,
                    scan_loaded,
                    self.tab,
                    &mut self.picking,
                    self.picked.as_deref(),
                );
                egui::ComboBox::from_label("Pattern")
                    .selected_text(t.pattern.map_or("none".to_owned(), |p| format!("{p:?}")))
                    .show_ui(ui, |ui| {
                        for p in PATTERNS {
                            ui.selectable_value(
                                &mut t.pattern,
                                p,
                                p.map_or("none".to_owned(), |p| format!("{p:?}")),
                            );
                        }
                    });
                ui.checkbox(&mut t.water, "Water (a bridge may stand on it)");
                ui.label("Effects:");
                effects_ui(ui, "terrain", &mut t.effects);
            }
            LegendTab::Overlays => {
                let o = &mut self.overlay;
                labelled_text(ui, "Name", &mut o.name);
                egui::ComboBox::from_label("Symbol")
                    .selected_text(format!("{:?}", o.symbol))
                    .show_ui(ui, |ui| {
                        for s in OVERLAY_SYMBOLS {
                            ui.selectable_value(&mut o.symbol, s, format!("{s:?}"));
                        }
                    });
                let mut has_colour = o.colour.is_some();
                if ui.checkbox(&mut has_colour, "Own colour").changed() {
                    o.colour = has_colour.then(|| Colour::from("#963232"));
                }
                if let Some(c) = &mut o.colour {
                    colour_button(ui, "Colour", c);
                }
                pick_ui(
                    ui,
                    scan_loaded,
                    self.tab,
                    &mut self.picking,
                    self.picked.as_deref(),
                );
                ui.checkbox(&mut o.bridge, "Bridge (must stand where water is)");
                ui.label("Effects:");
                effects_ui(ui, "overlay", &mut o.effects);
            }
            LegendTab::Hexsides => {
                let h = &mut self.hexside;
                labelled_text(ui, "Name", &mut h.name);
                egui::ComboBox::from_label("Symbol")
                    .selected_text(format!("{:?}", h.symbol))
                    .show_ui(ui, |ui| {
                        for s in HEXSIDE_SYMBOLS {
                            ui.selectable_value(&mut h.symbol, s, format!("{s:?}"));
                        }
                    });
                colour_button(ui, "Colour", &mut h.colour);
                pick_ui(
                    ui,
                    scan_loaded,
                    self.tab,
                    &mut self.picking,
                    self.picked.as_deref(),
                );
                ui.horizontal_wrapped(|ui| {
                    ui.checkbox(&mut h.water, "Water");
                    ui.checkbox(&mut h.bridge, "Bridge");
                    ui.checkbox(&mut h.blocks_zoc, "Blocks ZOC");
                    ui.checkbox(&mut h.needs_breach, "Needs breach");
                });
                cost_ui(ui, "Crossing cost", "hexside-cost", &mut h.cost);
                cost_by_kind_ui(ui, "hexside", &mut h.cost_by_kind);
            }
        }
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        ui.horizontal(|ui| {
            let apply = if self.selected.is_some() {
                "Apply changes"
            } else {
                "Add to legend"
            };
            if ui.button(apply).clicked() {
                match self.apply(doc) {
                    Ok(e) => edit = Some(e),
                    Err(message) => self.error = Some(message),
                }
            }
            if let Some(key) = self.selected.clone()
                && ui.button("Delete").clicked()
            {
                let uses = self.uses(doc, &key);
                if uses == 0 {
                    edit = Some(self.delete_edit(doc, &key, None));
                } else {
                    self.delete = Some(DeletePrompt {
                        tab: self.tab,
                        key,
                        uses,
                        replacement: None,
                        revealed: false,
                    });
                }
            }
        });
        if let Some(e) = self.delete_prompt_ui(ui, doc) {
            edit = Some(e);
        }
        if edit.is_some() {
            self.error = None;
        }
        edit
    }

    /// The colour picked from the scan goes to the colour of the tab that asked for it; an
    /// existing entry is edited at once (one undo step, sent), a new one keeps it in its draft.
    pub fn take_colour(&mut self, doc: &Document, rgb: [u8; 3], commands: &CommandSender) {
        if let Some(edit) = self.colour_edit(doc, rgb) {
            commands.send(edit);
        }
    }

    fn colour_edit(&mut self, doc: &Document, rgb: [u8; 3]) -> Option<AppCommand> {
        let tab = self.picking.take()?;
        if tab != self.tab {
            return None;
        }
        let colour = Colour::from_rgb(rgb);
        self.picked = Some(format!("Picked {} from the scan", colour.as_str()));
        match tab {
            LegendTab::Terrain => self.terrain.colour = colour,
            LegendTab::Overlays => self.overlay.colour = Some(colour),
            LegendTab::Hexsides => self.hexside.colour = colour,
        }
        self.selected.as_ref()?;
        match self.apply(doc) {
            Ok(edit) => Some(edit),
            Err(message) => {
                self.error = Some(message);
                None
            }
        }
    }

    fn uses(&self, doc: &Document, key: &str) -> usize {
        match self.tab {
            LegendTab::Terrain => key.chars().next().map_or(0, |c| doc.terrain_uses(c)),
            LegendTab::Overlays => doc.overlay_uses(&Id::from(key)),
            LegendTab::Hexsides => doc.hexside_uses(&Id::from(key)),
        }
    }

    fn delete_prompt_ui(&mut self, ui: &mut Ui, doc: &Document) -> Option<AppCommand> {
        if self.delete.as_ref()?.tab != self.tab {
            self.delete = None;
            return None;
        }
        let keys = self.keys(doc);
        let prompt = self.delete.as_mut()?;
        let mut result = None;
        let mut close = false;
        let others: Vec<(String, String)> =
            keys.into_iter().filter(|(k, _)| *k != prompt.key).collect();
        let what = match prompt.tab {
            LegendTab::Terrain => "hexes",
            LegendTab::Overlays => "hexes",
            LegendTab::Hexsides => "hexsides",
        };
        ui.separator();
        ui.label(format!(
            "`{}` is used on {} {what}. Replace it with:",
            prompt.key, prompt.uses
        ));
        let needs_replacement = prompt.tab == LegendTab::Terrain;
        let none_text = if needs_replacement {
            "(choose)"
        } else {
            "nothing (remove it)"
        };
        egui::ComboBox::from_label("Replacement")
            .selected_text(
                prompt
                    .replacement
                    .clone()
                    .unwrap_or_else(|| none_text.to_owned()),
            )
            .show_ui(ui, |ui| {
                if !needs_replacement {
                    ui.selectable_value(&mut prompt.replacement, None, none_text);
                }
                for (k, name) in &others {
                    ui.selectable_value(
                        &mut prompt.replacement,
                        Some(k.clone()),
                        format!("{k} ({name})"),
                    );
                }
            });
        let ready = !needs_replacement || prompt.replacement.is_some();
        let key = prompt.key.clone();
        let replacement = prompt.replacement.clone();
        let buttons = ui.horizontal(|ui| {
            if ui
                .add_enabled(ready, egui::Button::new("Replace and delete"))
                .clicked()
            {
                close = true;
                result = Some(());
            }
            if ui.button("Cancel delete").clicked() {
                close = true;
            }
        });
        if !std::mem::replace(&mut prompt.revealed, true) {
            buttons.response.scroll_to_me(Some(egui::Align::BOTTOM));
        }
        if close {
            self.delete = None;
        }
        result.map(|()| self.delete_edit(doc, &key, replacement.as_deref()))
    }

    /// The changes that delete an entry, replacing its uses.
    fn delete_edit(&mut self, doc: &Document, key: &str, replacement: Option<&str>) -> AppCommand {
        let changes = match self.tab {
            LegendTab::Terrain => delete_entry::<TerrainType>(doc, key, replacement),
            LegendTab::Overlays => delete_entry::<OverlayType>(doc, key, replacement),
            LegendTab::Hexsides => delete_entry::<HexsideType>(doc, key, replacement),
        };
        self.selected = None;
        AppCommand::Edit {
            label: format!("Delete legend entry {key}"),
            changes,
        }
    }

    /// The changes that add or edit the draft entry.
    fn apply(&mut self, doc: &Document) -> Result<AppCommand, String> {
        let mut key = self.draft_key.trim().to_owned();
        // An overlay or hexside feature typed with a name and no id takes its id from the name
        // ("Haie vive" → `haie-vive`), as units do (issue 21: it was refused).
        let name = match self.tab {
            LegendTab::Terrain => "",
            LegendTab::Overlays => self.overlay.name.trim(),
            LegendTab::Hexsides => self.hexside.name.trim(),
        };
        if key.is_empty() && !name.is_empty() {
            let taken: std::collections::HashSet<String> = match self.tab {
                LegendTab::Terrain => Default::default(),
                LegendTab::Overlays => doc
                    .map
                    .overlay_types
                    .keys()
                    .map(|k| k.0.to_string())
                    .collect(),
                LegendTab::Hexsides => doc
                    .map
                    .hexside_types
                    .keys()
                    .map(|k| k.0.to_string())
                    .collect(),
            };
            key = crate::model::scenario_edit::unique_id(&taken, name)
                .0
                .to_string();
            self.draft_key = key.clone();
        }
        let renamed = self.selected.as_ref().is_some_and(|old| *old != key);
        let exists = match self.tab {
            LegendTab::Terrain => doc.map.terrain.contains_key(&key),
            LegendTab::Overlays => doc.map.overlay_types.contains_key(key.as_str()),
            LegendTab::Hexsides => doc.map.hexside_types.contains_key(key.as_str()),
        };
        if (self.selected.is_none() || renamed) && exists {
            return Err(format!("`{key}` is already in the legend; choose another"));
        }
        if !matches!(self.tab, LegendTab::Terrain) && !is_id(&key) {
            return Err(
                "an id is lower-case letters, digits, `-`, `_` or `.`, starting with a letter or digit"
                    .into(),
            );
        }
        let renamed_from = self.selected.as_deref().filter(|_| renamed);
        let changes = match self.tab {
            LegendTab::Terrain => {
                let mut chars = key.chars();
                let (Some(code), None) = (chars.next(), chars.next()) else {
                    return Err("a terrain code is exactly one character".into());
                };
                if code.is_whitespace() || code == '"' || code == '\\' {
                    return Err("a terrain code must be a visible character".into());
                }
                let name = self.terrain.name.trim();
                if name.is_empty() || name.len() > 80 {
                    return Err("the name must have 1 to 80 characters".into());
                }
                put_entry(doc, &key, self.terrain.clone(), renamed_from)
            }
            LegendTab::Overlays => put_entry(doc, &key, self.overlay.clone(), renamed_from),
            LegendTab::Hexsides => put_entry(doc, &key, self.hexside.clone(), renamed_from),
        };
        let label = if self.selected.is_some() {
            format!("Edit legend entry {key}")
        } else {
            format!("Add legend entry {key}")
        };
        self.selected = Some(key);
        Ok(AppCommand::Edit { label, changes })
    }
}

/// The eyedropper beside a colour (when a scan is loaded), and what it last took.
fn pick_ui(
    ui: &mut Ui,
    scan_loaded: bool,
    tab: LegendTab,
    picking: &mut Option<LegendTab>,
    picked: Option<&str>,
) {
    if !scan_loaded {
        return;
    }
    ui.horizontal(|ui| {
        let on = *picking == Some(tab);
        if ui
            .selectable_label(on, "Pick from scan")
            .on_hover_text(
                "Eyedropper: the next click on the map takes the scan's colour there \
                 (the median of a small patch); Esc cancels",
            )
            .clicked()
        {
            *picking = if on { None } else { Some(tab) };
        }
        if on {
            ui.weak("Click the scan on the map… (Esc cancels)");
        } else if let Some(picked) = picked {
            ui.weak(picked);
        }
    });
}

/// The eyedropper's click on the scan (`layers::terrain::Scan`) sets this editor's colour.
impl crate::layers::terrain::Eyedropper for LegendEditor {
    fn picking(&self) -> bool {
        self.picking.is_some()
    }
    fn take_colour(&mut self, doc: &Document, rgb: [u8; 3], commands: &CommandSender) {
        LegendEditor::take_colour(self, doc, rgb, commands);
    }
    fn missed(&mut self, message: String) {
        self.error = Some(message);
    }
}
