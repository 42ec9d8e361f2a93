//! The map tools, one file each behind the [`MapTool`] trait (as Tiled's `AbstractTool`): its
//! name, key, icon and tooltip, what a stroke on the map makes of the document (changes, never
//! written by the tool), and its feedback under the pointer. Adding a tool adds a file and a
//! line in [`Tool::imp`]. The options a tool has are in the tool dock (`panels::tool_dock`).

pub mod brush;
pub mod eyedropper;
pub mod fill;
pub mod hexside;
pub mod hexside_tool;
pub mod label;
pub mod overlay;
pub mod select;
pub mod units;
pub mod zone;

use bataille_schema::{HexIndex, HexsideRef, Id};
use egui::Key;

use crate::model::document::Document;
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

    /// The tool's implementation (its file).
    pub fn imp(self) -> &'static dyn MapTool {
        match self {
            Tool::Select => &select::SelectTool,
            Tool::Brush => &brush::BrushTool,
            Tool::Fill => &fill::FillTool,
            Tool::Eyedropper => &eyedropper::EyedropperTool,
            Tool::Hexside => &hexside_tool::HexsideTool,
            Tool::Overlay => &overlay::OverlayTool,
            Tool::Label => &label::LabelTool,
            Tool::Zone => &zone::ZoneMapTool,
            Tool::Units => &units::UnitsTool,
        }
    }

    pub fn name(self) -> &'static str {
        self.imp().name()
    }

    /// The key that selects it.
    pub fn key(self) -> Key {
        self.imp().key()
    }

    pub fn icon(self) -> &'static str {
        self.imp().icon()
    }

    /// The tool-bar tooltip, with the key.
    pub fn tooltip(self) -> String {
        format!(
            "{} ({}) — {}",
            self.name(),
            self.key().name(),
            self.imp().tooltip()
        )
    }
}

/// One frame of a stroke on the map, for a tool.
#[derive(Debug, Clone, Copy)]
pub struct Stroke {
    /// The pointer in grid space.
    pub pointer: [f32; 2],
    /// The hex under it.
    pub hex: Option<HexIndex>,
    pub kind: StrokeKind,
    /// The stroke began this frame.
    pub pressed: bool,
}

/// What a tool's feedback is painted with: the hex under the pointer (and the pointer), the
/// document, its state, the view and where the map is.
pub struct Feedback<'a> {
    pub state: &'a ToolState,
    pub doc: &'a Document,
    pub view: &'a crate::map::view::MapView,
    pub painter: &'a egui::Painter,
    pub rect: egui::Rect,
    pub hover: HexIndex,
    pub pointer: Option<egui::Pos2>,
}

impl Feedback<'_> {
    /// The hovered hex outlined in white (most tools' feedback).
    pub fn outline_hover(&self) {
        let stroke = egui::Stroke::new(2.0, egui::Color32::WHITE);
        self.view.outline_hex(
            self.painter,
            &self.doc.map.grid,
            self.rect,
            self.hover,
            stroke,
        );
    }
}

/// A map tool (one file each).
pub trait MapTool: Sync {
    /// Its id, as commands name it.
    fn id(&self) -> Tool;
    fn name(&self) -> &'static str;
    /// The key that selects it.
    fn key(&self) -> Key;
    fn icon(&self) -> &'static str;
    /// What it does, in a sentence (the key is added).
    fn tooltip(&self) -> &'static str;
    /// One frame of a stroke: the changes it makes of the document (with the undo group's
    /// beginning and label); it may keep what the stroke needs in `state`.
    fn stroke(&self, state: &mut ToolState, doc: &Document, stroke: Stroke) -> ToolOutput;
    /// What it shows under the pointer, painted last: the hovered hex by default.
    fn feedback(&self, feedback: &Feedback<'_>) {
        feedback.outline_hover();
    }
    /// What it shows at the selected hex, the keyboard's cursor (`feedback.hover` is that hex,
    /// with no pointer), painted over its outline: nothing by default.
    fn cursor_feedback(&self, _feedback: &Feedback<'_>) {}
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
    /// The drag in progress.
    pub stroke: Option<StrokeKind>,
    /// The last hexside visited by the drag in progress.
    pub last_side: Option<HexsideRef>,
    /// The hexsides of the stroke so far, and whether the stroke added each.
    pub stroke_sides: Vec<(hexside::SideKey, bool)>,
    /// The last hex visited by the drag in progress.
    pub last_hex: Option<HexIndex>,
    /// The hexside tool by keyboard: which side of the selected hex Enter draws (an index into
    /// the grid's six sides, clockwise from the first); R and Shift+R turn it.
    pub key_side: usize,
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
            stroke: None,
            last_side: None,
            stroke_sides: Vec::new(),
            last_hex: None,
            key_side: 0,
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
    /// The hex the select tool selects (`Some(None)`: nothing, a click off the map).
    pub select: Option<Option<HexIndex>>,
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
    pub(crate) fn paint_at(&self, doc: &Document, centre: HexIndex) -> Option<Change> {
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
        if kind == StrokeKind::Pan {
            return ToolOutput::default();
        }
        let stroke = Stroke {
            pointer,
            hex: doc.map.grid.hex_at(pointer),
            kind,
            pressed,
        };
        // Alt makes any tool the eyedropper.
        let tool = if alt { Tool::Eyedropper } else { self.tool };
        tool.imp().stroke(self, doc, stroke)
    }

    /// The side of the selected hex the hexside tool draws by keyboard.
    pub fn key_side(&self, grid: &bataille_schema::Grid) -> bataille_schema::Side {
        let six = bataille_schema::geometry::sides(grid.orientation);
        six[self.key_side % six.len()]
    }

    /// Turns the hexside tool's keyboard side one side (R clockwise, Shift+R anticlockwise).
    pub fn turn_key_side(&mut self, clockwise: bool) {
        self.key_side = if clockwise {
            (self.key_side + 1) % 6
        } else {
            (self.key_side + 5) % 6
        };
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
