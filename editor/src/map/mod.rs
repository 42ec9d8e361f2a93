//! The map as drawn: pan and zoom, cached chunk meshes, counters, the scan under the grid.

pub mod counters;
pub mod scan;
pub mod table_overlay;
pub mod tessellate;
pub mod text;
pub mod view;
