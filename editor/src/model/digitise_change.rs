//! Reversible digitising edits: the scan under the map and its fit, and the hexes marked as
//! checked against it.

use bataille_digitize::shape::FileShape;
use bataille_schema::map::Background;
use bataille_schema::{HexIndex, HexName};

use crate::model::document::{Document, Touched};

/// A reversible digitising edit.
#[derive(Debug, Clone, PartialEq)]
pub enum DigitiseChange {
    /// The scan under the map and its fit, set, changed or removed.
    Background {
        before: Option<Box<Background>>,
        after: Option<Box<Background>>,
    },
    /// Hexes marked as checked against the scan (`checked: true`) or unmarked.
    Checked { hexes: Vec<HexName>, checked: bool },
    /// The map's shape as found on the print (`short_lines`, `half_hexes`), set or restored.
    Shape {
        before: Box<FileShape>,
        after: Box<FileShape>,
    },
}

impl DigitiseChange {
    /// The change setting the map's background from `before` to `after`, if they differ.
    pub fn set_background(
        before: Option<Background>,
        after: Option<Background>,
    ) -> Option<DigitiseChange> {
        (before != after).then(|| DigitiseChange::Background {
            before: before.map(Box::new),
            after: after.map(Box::new),
        })
    }

    /// The change setting the map's shape (`short_lines`, `half_hexes`) to `after`, if it
    /// differs from the document's.
    pub fn set_shape(doc: &Document, after: FileShape) -> Option<DigitiseChange> {
        let before = shape_of(doc);
        (before != after).then(|| DigitiseChange::Shape {
            before: Box::new(before),
            after: Box::new(after),
        })
    }

    /// Marks a hex checked, or unmarks it when it is: the change and its label.
    pub fn toggle_checked(doc: &Document, hex: HexIndex) -> (&'static str, DigitiseChange) {
        let hex = doc.map.grid.name(hex);
        let checked = doc.map.checked.binary_search(&hex).is_err();
        let label = if checked {
            "Mark checked"
        } else {
            "Unmark checked"
        };
        let change = DigitiseChange::Checked {
            hexes: vec![hex],
            checked,
        };
        (label, change)
    }

    pub fn apply(&self, doc: &mut Document, forward: bool) -> Touched {
        match self {
            DigitiseChange::Background { before, after } => {
                let value = if forward { after } else { before };
                doc.map.background = value.as_deref().cloned();
                Touched::default()
            }
            DigitiseChange::Shape { before, after } => {
                let value = if forward { after } else { before };
                doc.map.short_lines = value.short_lines;
                doc.map.half_hexes = value.half_hexes.clone();
                Touched::all()
            }
            DigitiseChange::Checked { hexes, checked } => {
                let on = *checked == forward;
                for hex in hexes {
                    set_checked(&mut doc.map.checked, hex, on);
                }
                Touched::hexes(
                    hexes
                        .iter()
                        .filter_map(|h| doc.map.grid.lookup(h))
                        .collect(),
                )
            }
        }
    }

    pub fn is_noop(&self) -> bool {
        match self {
            DigitiseChange::Background { before, after } => before == after,
            DigitiseChange::Checked { hexes, .. } => hexes.is_empty(),
            DigitiseChange::Shape { before, after } => before == after,
        }
    }
}

/// The document's shape as its file writes it.
pub fn shape_of(doc: &Document) -> FileShape {
    FileShape {
        short_lines: doc.map.short_lines,
        half_hexes: doc.map.half_hexes.clone(),
    }
}

/// Adds or removes a hex in the sorted list of checked hexes.
fn set_checked(list: &mut Vec<HexName>, hex: &HexName, on: bool) {
    match (list.binary_search(hex), on) {
        (Err(at), true) => list.insert(at, hex.clone()),
        (Ok(at), false) => {
            list.remove(at);
        }
        _ => {}
    }
}
