//! Map layers: what is drawn on the map and what the pointer does there, from the scan and the
//! painted terrain at the bottom to the tool's feedback at the top. Each layer is a struct
//! with its own state, handed the read-only context, a painter and the map's rect each frame; it
//! asks for anything by sending a `Command`. The map view itself (`crate::map`) comes before
//! the context and knows nothing of it.

pub mod command_view;
pub mod feedback;
pub mod keys;
pub mod scan;
pub mod scenario;
pub mod table;
pub mod terrain;

use crate::context::ViewContext;

/// The map's layers, bottom first: painted in this order, and offered the pointer in the
/// reverse order (the top layer first; what none takes is the current tool's stroke). "Where do
/// I draw on the map or handle a click" has this one answer: a [`MapLayer`] in this list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapLayerKind {
    /// The scanned map being digitised, and the legend's eyedropper on it (`terrain::Scan`).
    /// The terrain layer draws it between its fills and its grid lines, so that the grid reads
    /// over it.
    Scan,
    /// The painted map (`map::view`'s cached chunk meshes: terrain, hexsides, overlays, labels;
    /// `terrain::Terrain`).
    Terrain,
    /// Deployment zones tinted by owner, and broken rules outlined (`scenario::Zones`).
    Zones,
    /// The counters and leaders, and their drags (`scenario::Counters`).
    Counters,
    /// The selected or hovered leader's command radius (`scenario::CommandRadius`).
    CommandRadius,
    /// The digitising marks and clicks: calibration points, suggestions, checked hexes
    /// (`scan::Suggestions`).
    Suggestions,
    /// View ▸ Table overlay and its tag (`table::TableLayer`).
    TableOverlay,
    /// The selected hex, the tool's feedback under the pointer, a dragged counter's ghost
    /// (`feedback::ToolFeedback`).
    ToolFeedback,
}

impl MapLayerKind {
    /// Bottom first.
    pub const ORDER: [MapLayerKind; 8] = [
        MapLayerKind::Scan,
        MapLayerKind::Terrain,
        MapLayerKind::Zones,
        MapLayerKind::Counters,
        MapLayerKind::CommandRadius,
        MapLayerKind::Suggestions,
        MapLayerKind::TableOverlay,
        MapLayerKind::ToolFeedback,
    ];
}

/// Where a layer draws this frame.
pub struct MapFrame<'a> {
    pub painter: &'a egui::Painter,
    /// The map's area on screen.
    pub rect: egui::Rect,
    /// The pointer, if any.
    pub pointer: Option<egui::Pos2>,
}

/// The pointer on the map this frame, for the layers' input.
pub struct MapPointer<'a> {
    pub ui: &'a egui::Ui,
    /// The map's response (hover, clicks, drags, drops).
    pub response: &'a egui::Response,
    /// A click pressed and released within this frame (it acts like a held one).
    pub tap: Option<egui::PointerButton>,
    /// Space or the middle button: the press pans (the layers leave it).
    pub panning: bool,
    /// A dialog or editor window holds the pointer.
    pub modal_open: bool,
}

/// A layer of the map: it paints over the layers under it and is offered the pointer before
/// them. It reads the context and asks for anything by sending a `Command`.
pub trait MapLayer {
    fn kind(&self) -> MapLayerKind;
    fn paint(&mut self, cx: &ViewContext<'_>, map: &MapFrame<'_>);
    /// This frame's pointer (the layers above left it): whether the layer took it, so that the
    /// layers under it and the tool do nothing with it.
    fn input(
        &mut self,
        _cx: &ViewContext<'_>,
        _map: &MapFrame<'_>,
        _pointer: &MapPointer<'_>,
    ) -> bool {
        false
    }
    /// A click mode of the layer that is on (the legend's eyedropper on the scan) holds every
    /// click: the modes are offered the pointer before any layer's `input`, top first too.
    fn mode_input(
        &mut self,
        _cx: &ViewContext<'_>,
        _map: &MapFrame<'_>,
        _pointer: &MapPointer<'_>,
    ) -> bool {
        false
    }
}

/// What a click mode on the map (the legend's eyedropper, the digitise clicks) does with this
/// frame's pointer: while the mode is on it holds every click, so the map's tools do nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ModeClick {
    /// The mode is off: the tools have the pointer.
    Off,
    /// The mode holds the pointer; nothing to do this frame (no click, or a pan).
    Held,
    /// A click at this point.
    Click(egui::Pos2),
}

impl ModeClick {
    /// Reads this frame's pointer for a click mode that is `on`.
    pub fn read(
        on: bool,
        response: &egui::Response,
        pointer: Option<egui::Pos2>,
        panning: bool,
    ) -> ModeClick {
        match pointer {
            _ if !on => ModeClick::Off,
            Some(pos) if !panning && response.clicked() => ModeClick::Click(pos),
            _ => ModeClick::Held,
        }
    }

    /// Whether the mode holds the pointer (the tools leave it alone).
    pub fn held(self) -> bool {
        self != ModeClick::Off
    }
}
