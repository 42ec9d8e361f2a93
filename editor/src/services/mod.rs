//! Work behind the UI: live validation, background jobs, files and recovery, the scan's
//! calibration and suggestions.

pub mod calibration;
pub mod export;
pub mod files;
pub mod jobs;
pub mod save;
pub mod suggest;
pub mod systems;
pub mod validation;
