//! Map layers: what is drawn over the painted map and what the pointer does there, for the
//! parts of the editor that need the [`crate::context::ViewContext`] (the scenario's counters,
//! zones and drags; the scan, its calibration points and checked marks). Each layer is a struct
//! with its own state, handed the read-only context, a painter and the map's rect each frame; it
//! asks for anything by sending a `Command`. The map view itself (`crate::map`) comes before
//! the context and knows nothing of it.

pub mod command_view;
pub mod keys;
pub mod scan;
pub mod scenario;

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
