//! Work behind the UI: live validation, background jobs, files and recovery, the scan's
//! calibration and suggestions, the digitising session.

pub mod calibration;
pub mod digitise;
pub mod door;
pub mod export;
pub mod files;
pub mod jobs;
pub mod print_refine;
pub mod recovery;
pub mod safety;
pub mod save;
pub mod suggest;
pub mod systems;
pub mod validation;
