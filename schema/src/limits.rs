//! The hard limits every reader of Bataille files shares (the command, the validator, the
//! renderer, the digitiser, the editor): checked when a file is loaded, before anything
//! allocates per hex, so a hostile file cannot make any of them allocate without bound.

use crate::map::Grid;

/// Most hexes a map may have on a side (columns, rows), and the largest printed number of its
/// first column or row (defined beside the grid, whose schema names it).
pub use crate::map::MAX_HEXES_PER_SIDE;

/// Largest file accepted, in bytes (64 MiB): a bigger "scenario" is not one.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The most characters of a file's text a message quotes (a name, a key, a parser's error):
/// a longer quote is cut by [`clipped`].
pub const QUOTED_CHARS: usize = 40;

/// The most characters of a parser's or a reader's message quoted whole (it may quote a
/// file's identifier of a megabyte): the editor's toasts, the command's error line.
pub const MESSAGE_CHARS: usize = 400;

/// `text` cut to at most `max` characters, with `…` and the count of what was cut: the one way
/// a message quotes a file's text that no schema bounded (the command's errors, the editor's
/// dialogs and toasts), so a megabyte name is never printed or laid out whole.
pub fn clipped(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((end, _)) => format!(
            "{}… ({} more characters)",
            &text[..end],
            text[end..].chars().count()
        ),
    }
}

/// Deepest nesting of brackets accepted.
pub const MAX_DEPTH: usize = 64;

/// Longest `notes` text accepted, in characters (defined beside the shared types, which
/// every document's `notes` field names).
pub use crate::common::MAX_NOTES_CHARS;

/// The ron options every file is read and written with: `Some` may be left out, and nesting
/// is limited so hostile input cannot overflow the stack.
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(MAX_DEPTH)
}

/// A grid value beyond its limit: which field of `grid`, its value, and the range allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the grid's `{field}` is {value}; it must be {min} to {max}")]
pub struct GridLimitError {
    /// `columns`, `rows`, `first_column` or `first_row`.
    pub field: &'static str,
    pub value: u32,
    pub min: u32,
    pub max: u32,
}

/// Checks a grid's size and numbering against the limits: 1 to [`MAX_HEXES_PER_SIDE`] columns
/// and rows, first column and row numbered 0 to [`MAX_HEXES_PER_SIDE`].
pub fn check_grid(grid: &Grid) -> Result<(), GridLimitError> {
    let fields = [
        ("columns", grid.columns, 1),
        ("rows", grid.rows, 1),
        ("first_column", grid.first_column, 0),
        ("first_row", grid.first_row, 0),
    ];
    for (field, value, min) in fields {
        if !(min..=MAX_HEXES_PER_SIDE).contains(&value) {
            return Err(GridLimitError {
                field,
                value,
                min,
                max: MAX_HEXES_PER_SIDE,
            });
        }
    }
    Ok(())
}

/// Checks a grid size the user asks for (a new map, a resize) against the limits.
pub fn check_size(columns: i64, rows: i64) -> Result<(), GridLimitError> {
    for (field, value) in [("columns", columns), ("rows", rows)] {
        if !(1..=i64::from(MAX_HEXES_PER_SIDE)).contains(&value) {
            return Err(GridLimitError {
                field,
                value: u32::try_from(value.max(0)).unwrap_or(u32::MAX),
                min: 1,
                max: MAX_HEXES_PER_SIDE,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{HexNaming, Orientation, Shifted};

    fn grid(columns: u32, rows: u32) -> Grid {
        Grid {
            orientation: Orientation::Flat,
            shifted: Shifted::Odd,
            first_column: 1,
            first_row: 1,
            columns,
            rows,
            hex_names: HexNaming::default(),
        }
    }

    #[test]
    fn the_limit_is_999_hexes_a_side() {
        assert!(check_grid(&grid(999, 999)).is_ok());
        assert!(check_grid(&grid(1, 1)).is_ok());
        let error = check_grid(&grid(1000, 5)).unwrap_err();
        assert_eq!((error.field, error.value), ("columns", 1000));
        let error = check_grid(&grid(5, 0)).unwrap_err();
        assert_eq!((error.field, error.value), ("rows", 0));
        let mut g = grid(5, 5);
        g.first_row = u32::MAX;
        assert_eq!(check_grid(&g).unwrap_err().field, "first_row");
        assert!(check_size(999, 1).is_ok());
        assert_eq!(check_size(-3, 5).unwrap_err().value, 0);
        assert_eq!(check_size(5, 1 << 40).unwrap_err().value, u32::MAX);
    }
}
