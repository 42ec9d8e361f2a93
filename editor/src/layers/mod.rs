//! Map layers: what is drawn over the painted map and what the pointer does there, for the
//! parts of the editor that need the [`crate::context::ViewContext`] (the scenario's counters,
//! zones and drags; the scan, its calibration points and checked marks). Each layer is a struct
//! with its own state, handed the read-only context, a painter and the map's rect each frame; it
//! asks for anything by sending a `Command`. The map view itself (`crate::map`) comes before
//! the context and knows nothing of it.

pub mod command_view;
pub mod scenario;
