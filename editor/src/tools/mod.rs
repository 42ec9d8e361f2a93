//! The map tools (select, brush, fill, eyedropper, hexside, overlay, label): their shortcuts and
//! options, and how pointer input on the map becomes edit commands. Tools read the document
//! and return commands; they never change it themselves.

pub mod hexside;
pub mod zone;

use bataille_schema::{HexIndex, HexName, HexsideRef, Id};
use egui::Key;

use crate::model::document::{Document, flood_region, nearest_side};
use crate::model::history::{CellChange, Change};

/// A map tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    Select,
    Brush,
    Fill,
    Eyedropper,
    Hexside,
    Overlay,
    Label,
    /// Deployment zones, entry hexes, objectives (the `zones` module).
    Zone,
    /// Counter placement (the `placement` module).
    Units,
}

impl Tool {
    pub const ALL: [Tool; 9] = [
        Tool::Select,
        Tool::Brush,
        Tool::Fill,
        Tool::Eyedropper,
        Tool::Hexside,
        Tool::Overlay,
        Tool::Label,
        Tool::Zone,
        Tool::Units,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Brush => "Brush",
            Tool::Fill => "Fill",
            Tool::Eyedropper => "Eyedropper",
            Tool::Hexside => "Hexside",
            Tool::Overlay => "Overlay",
            Tool::Label => "Label",
            Tool::Zone => "Zone",
            Tool::Units => "Units",
        }
    }

    /// The key that selects it.
    pub fn key(self) -> Key {
        match self {
            Tool::Select => Key::S,
            Tool::Brush => Key::B,
            Tool::Fill => Key::F,
            Tool::Eyedropper => Key::I,
            Tool::Hexside => Key::H,
            Tool::Overlay => Key::O,
            Tool::Label => Key::L,
            Tool::Zone => Key::Z,
            Tool::Units => Key::U,
        }
    }

    pub fn icon(self) -> &'static str {
        match self {
            Tool::Select => "⛶",
            Tool::Brush => "✏",
            Tool::Fill => "🎨",
            Tool::Eyedropper => "💧",
            Tool::Hexside => "〰",
            Tool::Overlay => "🏰",
            Tool::Label => "🔤",
            Tool::Zone => "🚩",
            Tool::Units => "♟",
        }
    }

    /// The tool-bar tooltip, with the key.
    pub fn tooltip(self) -> String {
        let what = match self {
            Tool::Select => "Select a hex to inspect it; Esc clears the selection",
            Tool::Brush => "Paint terrain; [ and ] change the brush size",
            Tool::Fill => "Fill the connected area of one terrain",
            Tool::Eyedropper => "Pick the terrain under the cursor (or Alt-click with any tool)",
            Tool::Hexside => "Drag along hex edges to add the chosen feature; right-drag removes",
            Tool::Overlay => "Click or drag to add the chosen overlay; right-click removes",
            Tool::Label => "Click a hex to set its label; right-click removes it",
            Tool::Zone => {
                "Drag to add hexes to a deployment zone (or entry hexes, objectives); \
                 right-drag removes"
            }
            Tool::Units => {
                "Drag counters onto hexes and between them; click a hex to place the selected \
                 counter; right-click takes one off"
            }
        };
        format!("{} ({}) — {what}", self.name(), self.key().name())
    }
}

/// What a drag on the map does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrokeKind {
    /// Painting with the tool (primary button).
    Add,
    /// Removing with the tool (secondary button).
    Remove,
    /// Panning (middle button, or Space + drag).
    Pan,
}

/// The tools' options and the stroke in progress.
#[derive(Debug, Clone)]
pub struct ToolState {
    pub tool: Tool,
    /// Brush radius in hexes (0 paints one hex).
    pub brush_radius: u32,
    /// The terrain code painted.
    pub terrain: char,
    /// The hexside feature drawn.
    pub hexside: Option<Id>,
    /// The overlay placed.
    pub overlay: Option<Id>,
    /// The text the label tool sets.
    pub label_text: String,
    /// The selected hex.
    pub selection: Option<HexIndex>,
    /// The drag in progress.
    pub stroke: Option<StrokeKind>,
    /// The last hexside visited by the drag in progress.
    pub last_side: Option<HexsideRef>,
    /// The hexsides of the stroke so far, and whether the stroke added each.
    pub stroke_sides: Vec<(hexside::SideKey, bool)>,
    /// The last hex visited by the drag in progress.
    pub last_hex: Option<HexIndex>,
}

impl Default for ToolState {
    fn default() -> Self {
        Self {
            tool: Tool::Brush,
            brush_radius: 0,
            terrain: 'c',
            hexside: None,
            overlay: None,
            label_text: String::new(),
            selection: None,
            stroke: None,
            last_side: None,
            stroke_sides: Vec::new(),
            last_hex: None,
        }
    }
}

/// The largest brush radius.
pub const MAX_BRUSH_RADIUS: u32 = 5;

/// What the map input asks the app to do.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOutput {
    /// Start an undo group with this label.
    pub begin: Option<&'static str>,
    pub changes: Vec<Change>,
    /// Close the undo group.
    pub end: bool,
    /// Terrain picked by the eyedropper.
    pub picked: Option<char>,
}

/// How far from a hexside's midpoint (in hex radii) the pointer may be for the hexside tool to
/// take it.
pub const HEXSIDE_REACH: f32 = 0.45;

impl ToolState {
    /// Makes sure the chosen terrain, hexside and overlay exist in the legend.
    pub fn sync_with_legend(&mut self, doc: &Document) {
        let mut buf = [0u8; 4];
        if !doc
            .map
            .terrain
            .contains_key(&*self.terrain.encode_utf8(&mut buf))
        {
            self.terrain = doc.default_code();
        }
        if self
            .hexside
            .as_ref()
            .is_none_or(|h| !doc.map.hexside_types.contains_key(h))
        {
            self.hexside = doc.map.hexside_types.keys().next().cloned();
        }
        if self
            .overlay
            .as_ref()
            .is_none_or(|o| !doc.map.overlay_types.contains_key(o))
        {
            self.overlay = doc.map.overlay_types.keys().next().cloned();
        }
    }

    /// The hexes the brush covers around a hex.
    pub fn brush_footprint(&self, doc: &Document, centre: HexIndex) -> Vec<HexIndex> {
        doc.map.grid.range(centre, self.brush_radius).collect()
    }

    /// Terrain changes painting the brush at a hex.
    fn paint_at(&self, doc: &Document, centre: HexIndex) -> Option<Change> {
        let cells: Vec<CellChange> = self
            .brush_footprint(doc, centre)
            .into_iter()
            .filter_map(|hex| {
                let before = doc.code(hex)?;
                (before != self.terrain).then_some(CellChange {
                    hex,
                    before,
                    after: self.terrain,
                })
            })
            .collect();
        (!cells.is_empty()).then_some(Change::Terrain(cells))
    }

    /// One frame of map input with a button down (or just released).
    ///
    /// `pointer` is the pointer in grid space; `pressed` is true on the frame the stroke
    /// started; `alt` forces the eyedropper.
    pub fn stroke_input(
        &mut self,
        doc: &Document,
        pointer: [f32; 2],
        kind: StrokeKind,
        pressed: bool,
        alt: bool,
    ) -> ToolOutput {
        let mut out = ToolOutput::default();
        let grid = &doc.map.grid;
        let hex = grid.hex_at(pointer);
        if kind == StrokeKind::Pan {
            return out;
        }
        if alt || self.tool == Tool::Eyedropper {
            if let Some(hex) = hex {
                out.picked = doc.code(hex);
            }
            return out;
        }
        match self.tool {
            Tool::Eyedropper | Tool::Zone | Tool::Units => {}
            Tool::Select => {
                if pressed {
                    self.selection = hex;
                }
            }
            Tool::Brush => {
                if pressed {
                    out.begin = Some("Paint terrain");
                }
                if let Some(hex) = hex
                    && kind == StrokeKind::Add
                {
                    // Fill the gap when the pointer jumped several hexes in one frame.
                    let path: Vec<HexIndex> = match self.last_hex {
                        Some(last) if last != hex && !pressed => {
                            let a = grid.hex(last);
                            let b = grid.hex(hex);
                            a.line_to(b).filter_map(|h| grid.index(h)).skip(1).collect()
                        }
                        Some(last) if last == hex && !pressed => Vec::new(),
                        _ => vec![hex],
                    };
                    for h in path {
                        if let Some(change) = self.paint_at(doc, h) {
                            out.changes.push(change);
                        }
                    }
                    self.last_hex = Some(hex);
                }
            }
            Tool::Fill => {
                if pressed
                    && kind == StrokeKind::Add
                    && let Some(hex) = hex
                {
                    let cells: Vec<CellChange> = flood_region(doc, hex)
                        .into_iter()
                        .filter_map(|h| {
                            let before = doc.code(h)?;
                            (before != self.terrain).then_some(CellChange {
                                hex: h,
                                before,
                                after: self.terrain,
                            })
                        })
                        .collect();
                    if !cells.is_empty() {
                        out.begin = Some("Fill");
                        out.changes.push(Change::Terrain(cells));
                    }
                }
            }
            Tool::Hexside => {
                let Some(feature) = self.hexside.clone() else {
                    return out;
                };
                if pressed {
                    out.begin = Some(if kind == StrokeKind::Add {
                        "Draw hexside feature"
                    } else {
                        "Remove hexside feature"
                    });
                    self.last_side = None;
                    self.stroke_sides.clear();
                }
                let Some(hex) = hex else {
                    return out;
                };
                let Some((side, distance)) = nearest_side(grid, hex, pointer) else {
                    return out;
                };
                if distance > HEXSIDE_REACH {
                    return out;
                }
                let side_key = hexside::key(grid, hex, side);
                if hexside::is_edge(grid, side_key) {
                    // Features on the map's edge break E0606: never drawn there.
                    return out;
                }
                let last = self.stroke_sides.last().map(|(k, _)| *k);
                if last == Some(side_key) {
                    return out;
                }
                // The chain from the last side to this one: no gap when the pointer jumped.
                let path = match last {
                    Some(last) => hexside::chain(grid, last, side_key, 12),
                    None => vec![side_key],
                };
                for step in path {
                    // A corner cut: the side before turned out to be a stray; take it back.
                    if let [.., (before, _), (middle, added)] = self.stroke_sides[..]
                        && hexside::is_stray(grid, before, middle, step)
                    {
                        self.stroke_sides.pop();
                        if added && kind == StrokeKind::Add {
                            out.changes.push(Change::Hexside {
                                feature: feature.clone(),
                                side: grid.hexside_ref(middle.0, middle.1),
                                present: false,
                            });
                        }
                    }
                    let side_ref = grid.hexside_ref(step.0, step.1);
                    let mut added = false;
                    match kind {
                        StrokeKind::Add => {
                            if !doc.has_hexside(&feature, &side_ref)
                                || out.changes.iter().any(|c| {
                                    matches!(c, Change::Hexside { side, present: false, .. } if *side == side_ref)
                                })
                            {
                                out.changes.push(Change::Hexside {
                                    feature: feature.clone(),
                                    side: side_ref.clone(),
                                    present: true,
                                });
                                added = true;
                            }
                        }
                        StrokeKind::Remove => {
                            let present: Vec<Id> = if doc.has_hexside(&feature, &side_ref) {
                                vec![feature.clone()]
                            } else {
                                doc.hexside_features(&side_ref)
                                    .into_iter()
                                    .cloned()
                                    .collect()
                            };
                            for feature in present {
                                out.changes.push(Change::Hexside {
                                    feature,
                                    side: side_ref.clone(),
                                    present: false,
                                });
                            }
                        }
                        StrokeKind::Pan => {}
                    }
                    self.stroke_sides.push((step, added));
                    self.last_side = Some(side_ref);
                }
            }
            Tool::Overlay => {
                let Some(overlay) = self.overlay.clone() else {
                    return out;
                };
                if pressed {
                    out.begin = Some(if kind == StrokeKind::Add {
                        "Place overlay"
                    } else {
                        "Remove overlay"
                    });
                    self.last_hex = None;
                }
                let Some(hex) = hex else {
                    return out;
                };
                if self.last_hex == Some(hex) {
                    return out;
                }
                self.last_hex = Some(hex);
                let name: HexName = grid.name(hex);
                match kind {
                    StrokeKind::Add => {
                        if !doc.has_overlay(&name, &overlay) {
                            out.changes.push(Change::Overlay {
                                hex: name,
                                overlay,
                                present: true,
                            });
                        }
                    }
                    StrokeKind::Remove => {
                        let present: Vec<Id> = if doc.has_overlay(&name, &overlay) {
                            vec![overlay]
                        } else {
                            doc.overlays_at(hex).to_vec()
                        };
                        for overlay in present {
                            out.changes.push(Change::Overlay {
                                hex: name.clone(),
                                overlay,
                                present: false,
                            });
                        }
                    }
                    StrokeKind::Pan => {}
                }
            }
            Tool::Label => {
                if !pressed {
                    return out;
                }
                let Some(hex) = hex else {
                    return out;
                };
                let name = grid.name(hex);
                let before = doc.map.labels.get(&name).cloned();
                let text = self.label_text.trim();
                let after = match kind {
                    StrokeKind::Add if !text.is_empty() => Some(text.to_owned()),
                    _ => None,
                };
                if before != after {
                    out.changes.push(Change::Label {
                        hex: name,
                        before,
                        after,
                    });
                }
            }
        }
        out
    }

    /// The stroke ended (button released).
    pub fn end_stroke(&mut self) -> ToolOutput {
        self.stroke = None;
        self.last_side = None;
        self.last_hex = None;
        ToolOutput {
            end: true,
            ..Default::default()
        }
    }
}
