//! Digitising printed maps, with no GUI in it (the editor calls it): scans loaded with limits
//! and cut into tiles ([`scan`]), the grid fitted to the scan from control points
//! ([`calibrate`]), terrain and hexside features suggested from the scan's colours
//! ([`classify`]), the small RON files of the `bataille digitize` command ([`files`]; the command itself lives in the `bataille` binary, `src/digitize.rs`).
//!
//! ```
//! use bataille_digitize::calibrate::{apply, fit};
//! use bataille_schema::map::FitKind;
//! // Hex centres in grid space → where they were clicked on the scan.
//! let pairs = [([0.0, 0.0], [100.0, 80.0]), ([3.0, 0.0], [190.0, 80.0]), ([0.0, 3.0], [100.0, 170.0])];
//! let fit = fit(FitKind::Affine, &pairs).unwrap();
//! assert!(fit.rms_px < 1e-6);
//! let p = apply(&fit.grid_to_image, [1.5, 1.5]);
//! assert!((p[0] - 145.0).abs() < 1e-6 && (p[1] - 125.0).abs() < 1e-6);
//! ```

pub mod calibrate;
pub mod classify;
pub mod colour;
pub mod files;
pub mod hexsides;
pub mod mapping;
pub mod paths;
pub mod refine;
pub mod scan;
pub mod shape;
pub mod suggestion;
pub mod synth;
pub mod trace;

pub use calibrate::{CalibrationError, Fit, calibrate, calibrate_without, fit};
pub use classify::{
    ClassifyError, ClassifyOptions, CrossingSuggestion, Features, HexSuggestion, HexsideSamples,
    HexsideSuggestion, PathSamples, TerrainSuggestions, mask_line_inks,
    mask_line_inks_with_progress, suggest_features, suggest_hexsides, suggest_hexsides_and_terrain,
    suggest_hexsides_with_inks, suggest_hexsides_with_progress, suggest_terrain,
    suggest_terrain_with_progress,
};
pub use mapping::GridMapping;
pub use scan::{
    ColourProfile, ImportOptions, ImportedScan, Overview, Progress, Scan, ScanError, ScanLimits,
    Tile, decode_scan, import_scan, load_scan, overview, tiles,
};
