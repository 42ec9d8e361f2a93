//! What `bataille validate` (and a refusal at the door) hands its printers: the merged
//! diagnostics, the sources they point into, and how many files were read. Its own module, so
//! the printers (`output`), the command (`validate`) and the door all depend on it and not on
//! each other.

use std::collections::HashMap;
use std::path::PathBuf;

use bataille_schema::SourceFile;
use bataille_validator::Diagnostic;

/// Everything validated, ready to print.
pub struct Results {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: HashMap<PathBuf, SourceFile>,
    pub files: usize,
}

impl Results {
    /// The errors found, those a summary stands for included ([`Diagnostic::count`]).
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(Diagnostic::count)
            .sum()
    }

    /// The warnings found, those a summary stands for included.
    pub fn warnings(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| !d.is_error())
            .map(Diagnostic::count)
            .sum()
    }
}
