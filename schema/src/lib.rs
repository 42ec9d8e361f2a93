//! Bataille's data model: the map and scenario documents, their RON files (load, save,
//! canonical form, located errors), their JSON Schemas, and hex geometry through hexx.
//!
//! ```
//! use bataille_schema::{Grid, HexIndex, map::{HexNaming, Orientation, Shifted}};
//! let grid = Grid {
//!     orientation: Orientation::Flat,
//!     shifted: Shifted::Odd,
//!     first_column: 1,
//!     first_row: 1,
//!     columns: 40,
//!     rows: 30,
//!     hex_names: HexNaming::default(),
//! };
//! let hex = grid.parse("1518").unwrap();
//! assert_eq!(hex, HexIndex::new(14, 17));
//! assert_eq!(grid.name(hex).as_str(), "1518");
//! ```

pub mod bounds;
pub mod canonical;
pub mod common;
pub mod files;
pub mod fit;
pub mod flood;
pub mod geometry;
pub mod hex_list;
pub mod ids;
pub mod io;
pub mod json_schema;
pub mod limits;
pub mod map;
pub mod markup;
pub mod paths;
pub mod reading;
pub mod sanity;
pub mod scenario;
pub mod short;
pub mod source;
pub mod stress;
pub mod system;
pub mod thin;
pub mod unique;
pub mod variant;
mod write;

pub use common::{Colour, HexName, HexsideRef, Id, MapEdge, Side};
pub use geometry::{HexIndex, NameError};
pub use hex_list::HexList;
pub use io::{
    DocumentKind, FORMAT_VERSION, LoadError, LoadedMap, LoadedScenario, load_map, load_scenario,
    map_to_string, save_map, save_scenario, scenario_to_string,
};
pub use map::{Grid, Map};
pub use scenario::Scenario;
pub use source::{Location, SourceFile, SpanIndex};
pub use system::System;
pub use variant::Variant;
