//! The two small RON files of `bataille digitize`: the calibration (grid, fit kind, control
//! points) and the samples (legend, sample hexes per terrain code, sample hexsides per feature).
//! See `digitize/README.md`.

use std::collections::BTreeMap;
use std::path::Path;

use bataille_schema::map::{ControlPoint, FitKind, HexsideType, OverlayType, TerrainType};
use bataille_schema::{Grid, HexName, HexsideRef, Id};
use serde::{Deserialize, Serialize};

/// `Calibration(grid: (...), fit: Affine, points: [(hex: "0101", x: 120.5, y: 98.0), ...])`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Calibration", deny_unknown_fields)]
pub struct CalibrationFile {
    /// The map's grid, as in a map file.
    pub grid: Grid,
    /// The model fitted.
    pub fit: FitKind,
    /// Hex centres clicked on the scan, in image pixels from the top left.
    pub points: Vec<ControlPoint>,
}

/// `Samples(terrain: {...}, samples: {"f": ["0304", ...]}, ...)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Samples", deny_unknown_fields)]
pub struct SamplesFile {
    /// The map's name; absent: the scan's file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The terrain legend of the map written (one-character codes).
    #[serde(deserialize_with = "bataille_schema::unique::deserialize")]
    pub terrain: BTreeMap<String, TerrainType>,
    /// Sample hexes for each terrain code.
    #[serde(deserialize_with = "bataille_schema::unique::deserialize")]
    pub samples: BTreeMap<String, Vec<HexName>>,
    /// The hexside legend of the map written.
    #[serde(
        deserialize_with = "bataille_schema::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub hexside_types: BTreeMap<Id, HexsideType>,
    /// Sample hexsides for each hexside feature.
    #[serde(
        deserialize_with = "bataille_schema::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub hexside_samples: BTreeMap<Id, Vec<HexsideRef>>,
    /// Sample hexsides with no feature; absent: those between adjacent terrain samples.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plain_hexsides: Vec<HexsideRef>,
    /// The overlay legend of the map written: the lines drawn through the hexes (roads,
    /// railways) that `path_samples` marks, and any other overlay the map has.
    #[serde(
        deserialize_with = "bataille_schema::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub overlay_types: BTreeMap<Id, OverlayType>,
    /// Sample crossings of each line drawn through the hexes: hexsides it passes through,
    /// from one hex into the next (two or three per overlay, where it is drawn clearly).
    #[serde(
        deserialize_with = "bataille_schema::unique::deserialize",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub path_samples: BTreeMap<Id, Vec<HexsideRef>>,
}

/// Why a digitize file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

const MAX_BYTES: u64 = 16 * 1024 * 1024;

fn read<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, FileError> {
    let name = path.display().to_string();
    let io = |source| FileError::Io {
        path: name.clone(),
        source,
    };
    // Only a regular file, never more than the limit + 1 byte read (a FIFO or /dev/zero is
    // refused, not waited on or read until memory runs out).
    let bytes = match bataille_schema::files::read_limited(path, MAX_BYTES) {
        Ok(bytes) => bytes,
        Err(bataille_schema::files::ReadError::TooLarge { bytes, .. }) => {
            return Err(FileError::Invalid {
                path: name,
                message: format!(
                    "{bytes} bytes or more is too large for this file (at most {MAX_BYTES})"
                ),
            });
        }
        Err(other) => return Err(io(other.into_io())),
    };
    let text = String::from_utf8(bytes).map_err(|_| FileError::Invalid {
        path: name.clone(),
        message: "the file is not UTF-8 text; save it as UTF-8".into(),
    })?;
    parse(&name, &text)
}

/// Parses RON text with the schema's options (depth limit, implicit `Some`), after the checks
/// every document gets ([`bataille_schema::reading::sanity`]: no key given twice, no number
/// that is not finite, no control character in any text), located where they are found: a
/// samples legend naming a terrain `Cl\u{1b}[2Jear` made a map the door then refused.
pub fn parse<T: for<'de> Deserialize<'de>>(name: &str, text: &str) -> Result<T, FileError> {
    let source = bataille_schema::SourceFile::new(name, text.to_owned());
    if let Err(error) = bataille_schema::reading::sanity(&source) {
        let (line, column) = error
            .location()
            .map_or((1, 1), |location| (location.line, location.column));
        return Err(FileError::Syntax {
            path: name.to_owned(),
            line,
            column,
            message: bataille_schema::limits::clipped(
                &error.message(),
                bataille_schema::limits::MESSAGE_CHARS,
            ),
        });
    }
    drop(source);
    bataille_schema::io::ron_options()
        .from_str(text)
        .map_err(|error: ron::error::SpannedError| FileError::Syntax {
            path: name.to_owned(),
            line: error.span.start.line,
            column: error.span.start.col,
            // The parser quotes an unknown field or variant whole (a megabyte name was
            // printed whole, hostile round 5).
            message: bataille_schema::limits::clipped(
                &error.code.to_string(),
                bataille_schema::limits::MESSAGE_CHARS,
            ),
        })
}

/// Reads a calibration file, refusing a grid beyond the limits every reader shares
/// (`bataille_schema::limits`) before anything is allocated per hex, and points that are not
/// finite numbers.
pub fn read_calibration(path: &Path) -> Result<CalibrationFile, FileError> {
    let file: CalibrationFile = read(path)?;
    if let Err(error) = bataille_schema::limits::check_grid(&file.grid) {
        return Err(located(
            path,
            &format!("/grid/{}", error.field),
            error.to_string(),
        ));
    }
    for (i, point) in file.points.iter().enumerate() {
        // A hex of this grid, said at its place (a name of a megabyte, or of another grid,
        // was said by the fit with no place, quoted whole).
        if let Err(error) = file.grid.parse(point.hex.as_str()) {
            return Err(located(
                path,
                &format!("/points/{i}/hex"),
                format!("point {}: {error}", i + 1),
            ));
        }
        for (axis, value) in [("x", point.x), ("y", point.y)] {
            if !value.is_finite() {
                return Err(located(
                    path,
                    &format!("/points/{i}/{axis}"),
                    format!(
                        "`{axis}` of point {} is {value}; write a finite number",
                        i + 1
                    ),
                ));
            }
        }
    }
    Ok(file)
}

/// An error located at the value of a pointer in the file (read again, through the same bounded
/// reader as every file: this is rare).
pub fn located(path: &Path, pointer: &str, message: String) -> FileError {
    let text = bataille_schema::files::read_text_limited(path, MAX_BYTES).unwrap_or_default();
    let source = bataille_schema::SourceFile::new(path, text);
    let span = bataille_schema::SpanIndex::build_for(&source.text, [pointer]).resolve(pointer);
    let location = source.location(span);
    FileError::Syntax {
        path: path.display().to_string(),
        line: location.line,
        column: location.column,
        message,
    }
}

/// Reads a samples file, checking that every sampled code is in the legend and is one
/// character, and that every feature or line sampled is in its legend; each refusal located at
/// the key it names (`s.ron:4:17`), as a syntax error is.
pub fn read_samples(path: &Path) -> Result<SamplesFile, FileError> {
    let samples: SamplesFile = read(path)?;
    let at = |pointer: String, message: String| located(path, &pointer, message);
    let key = |field: &str, key: &str| format!("/{field}/{}", pointer_token(key));
    // A key quoted in a message is cut: the samples file has no schema bounding its keys.
    let quote =
        |key: &str| bataille_schema::limits::clipped(key, bataille_schema::limits::QUOTED_CHARS);
    for code in samples.terrain.keys() {
        if code.chars().count() != 1 {
            return Err(at(
                key("terrain", code),
                format!(
                    "terrain code `{}` must be exactly one character",
                    quote(code)
                ),
            ));
        }
    }
    for code in samples.samples.keys() {
        if !samples.terrain.contains_key(code) {
            return Err(at(
                key("samples", code),
                format!(
                    "samples name terrain code `{}`, which is not in the legend",
                    quote(code)
                ),
            ));
        }
    }
    for id in samples.hexside_samples.keys() {
        if !samples.hexside_types.contains_key(id) {
            return Err(at(
                key("hexside_samples", id.as_str()),
                format!(
                    "hexside samples name feature `{}`, which is not in hexside_types",
                    quote(id.as_str())
                ),
            ));
        }
    }
    for id in samples.path_samples.keys() {
        if !samples.overlay_types.contains_key(id) {
            return Err(at(
                key("path_samples", id.as_str()),
                format!(
                    "path samples name overlay `{}`, which is not in overlay_types",
                    quote(id.as_str())
                ),
            ));
        }
    }
    Ok(samples)
}

/// A key as one JSON Pointer token (`~` and `/` escaped).
pub fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The text of a calibration file (for the editor to save).
pub fn calibration_to_string(file: &CalibrationFile) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .new_line("\n".to_owned())
        .depth_limit(2)
        .struct_names(true);
    ron::ser::to_string_pretty(file, config)
}

/// The text of a samples file (for the editor to save).
pub fn samples_to_string(file: &SamplesFile) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .new_line("\n".to_owned())
        .depth_limit(2)
        .struct_names(true);
    ron::ser::to_string_pretty(file, config)
}
