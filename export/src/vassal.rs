//! A VASSAL module (`.vmod`) of a scenario: a zip with `buildFile.xml` and `moduledata` at its
//! root and its images under `images/`, as VASSAL writes them.
//!
//! The board is the rendered map, laid out so that VASSAL's `HexGrid` puts every hex centre
//! where the image has it. VASSAL's formulas (HexGrid.java, HexGridNumbering.java; read, not
//! copied): with `sideways=false`, raw column `i`, raw row `j` is centred at
//! `x = (int)(i·dx + x0)`, `y = (int)(j·dy + y0)`, plus `(int)(dy/2)` on odd raw columns; with
//! `sideways=true` the same in a space whose x and y are swapped. `x0`, `y0` are integers, `dx`,
//! `dy` doubles. So the board image uses an even number of pixels between rows (dy exact, dy/2
//! exact) and puts column `i`'s centre at `x0 + i·dx − ½`, which VASSAL's truncation lands within
//! half a pixel. `HexGridNumbering` names the hexes as the map does: `hOff`/`vOff` are the first
//! printed numbers, `hLeading`/`vLeading` one less than the digits, no stagger (every column's
//! first row has the same number).
//!
//! Pieces: a `BasicPiece` (front image) under an `Embellishment` layer (the back: the reduced
//! side of a unit, Denain 2; a leader's activated side) under a `FreeRotator` of 12 angles for
//! units with a facing (its state the facing's bearing ÷ 30°). Their definitions are encoded as
//! VASSAL's `SequenceEncoder` does (`;` inside a trait, tab between traits, `/` in the AddPiece
//! command, a backslash before a delimiter inside a token).
//!
//! Where it is done: the board's layout and VASSAL's grid in [`grid`], pieces as text in
//! [`pieces`], the images in `images`, the build file and `moduledata` in `build`, the zip in
//! `archive`.

use bataille_render::RenderOptions;
use bataille_schema::{Map, Scenario};

use crate::counters::{Counter, counters, marker_counters, replacement_counters};
use crate::{ExportError, file_stem};

mod archive;
mod build;
mod grid;
mod images;
mod pieces;

pub use grid::{VassalGrid, board_layout};
pub use pieces::{DEAD_PILE, SequenceEncoder, piece_command, piece_definition};

/// The VASSAL version the module says it was made for.
pub const VASSAL_VERSION: &str = "3.7.0";

/// How the module is made.
#[derive(Debug, Clone, PartialEq)]
pub struct VassalOptions {
    /// Pixels between the centres of neighbouring hexes on the board (rounded to an even
    /// number, so VASSAL's `dy` and `dy/2` are exact).
    pub px_per_hex: u32,
    /// The module's version string.
    pub version: String,
    /// The map's background scan, as the door confined it (see
    /// `bataille_validator::door::MapDocument::background`): when the map has a digitised
    /// scan, the board is the scan resampled through its fit onto the board's layout (the
    /// printed map's art under VASSAL's grid); otherwise the rendered map.
    pub scan: Option<std::path::PathBuf>,
}

impl Default for VassalOptions {
    fn default() -> Self {
        Self {
            px_per_hex: 64,
            version: "1.0".to_owned(),
            scan: None,
        }
    }
}

/// The counter side in pixels on a board of `px_per_hex`, and its image's side.
fn counter_sizes(px_per_hex: u32) -> (f32, u32) {
    let side = (px_per_hex as f32 * 0.72).round();
    let canvas = ((side * 1.5) as u32).div_ceil(2) * 2;
    (side, canvas)
}

/// The module of a scenario on its map, as the bytes of a `.vmod` zip.
pub fn export(
    scenario: &Scenario,
    map: &Map,
    options: &VassalOptions,
) -> Result<Vec<u8>, ExportError> {
    export_with_setups(scenario, map, options, &[])
}

/// The module of a scenario with its variants as predefined setups: VASSAL's File menu offers
/// the scenario's own set-up (the module's at-start stacks, as "New Game" does) and each
/// variant (a saved game in the module: its counters where the variant places them, counters
/// it changes drawn with their new values); the reinforcements tray has each variant's
/// schedule where it differs.
pub fn export_with_setups(
    scenario: &Scenario,
    map: &Map,
    options: &VassalOptions,
    setups: &[crate::variants::Setup<'_>],
) -> Result<Vec<u8>, ExportError> {
    let out = write_with_setups(
        scenario,
        map,
        options,
        setups,
        std::io::Cursor::new(Vec::new()),
    )?;
    Ok(out.into_inner())
}

/// [`export_with_setups`] written into `out` as it is made (the same bytes): a module of the
/// largest maps goes straight into its file (`bataille_schema::files::Outputs::begin`), never
/// held whole in memory. Gives `out` back.
pub fn write_with_setups<W: std::io::Write + std::io::Seek + Send>(
    scenario: &Scenario,
    map: &Map,
    options: &VassalOptions,
    setups: &[crate::variants::Setup<'_>],
    out: W,
) -> Result<W, ExportError> {
    let (layout, vg) = board_layout(map, options)?;
    let render = RenderOptions {
        px_per_hex: (options.px_per_hex.clamp(8, 512) / 2 * 2) as f32,
        counters: false,
        leaders: false,
        ..RenderOptions::default()
    };
    let sizes = counter_sizes(options.px_per_hex);
    let mut images = images::Images::new();
    images::chart_images(scenario, &mut images)?;
    let all = counters(scenario, map);
    let markers = marker_counters(scenario);
    let replacements = replacement_counters(scenario, map);
    images::counter_images(
        all.iter().chain(&markers).chain(&replacements),
        sizes,
        &mut images,
    )?;
    let (setup_counters, setup_stems) =
        images::setup_images(setups, &all, map, sizes, &mut images)?;
    let texts = build::texts(&build::Module {
        scenario,
        map,
        layout: &layout,
        vg: &vg,
        canvas: sizes.1,
        version: &options.version,
        all: &all,
        markers: &markers,
        replacements: &replacements,
        setups,
        setup_counters: &setup_counters,
        setup_stems: &setup_stems,
    })?;
    // The board: the scan resampled through its fit, or the map drawn; either straight into
    // the module's zip entry at the end (never held whole).
    let board = match (&map.background, &options.scan) {
        (Some(background), Some(scan)) => archive::Board::Scan {
            background,
            scan,
            layout: &layout,
        },
        _ => archive::Board::Drawn {
            map,
            layout: &layout,
            render: &render,
        },
    };
    archive::archive(&texts, board, &images, out)
}

/// The name of a counter's other side: a unit's is reduced, a marker's (or leader's) other.
fn back_name(counter: &Counter) -> &'static str {
    match counter.kind {
        crate::counters::CounterKind::Marker(_) => "Other side",
        _ => "Reduced side",
    }
}

/// The image file stem of a counter (markers share one image per kind).
fn image_stem(counter: &Counter) -> String {
    match &counter.kind {
        crate::counters::CounterKind::Marker(kind) if counter.id.starts_with("marker:") => {
            format!("marker-{}", file_stem(&kind.slug()))
        }
        _ => format!("c-{}", file_stem(&counter.id)),
    }
}

#[cfg(test)]
mod tests {
    use super::pieces::seq;
    use super::*;

    #[test]
    fn sequence_encoder_escapes_as_vassal() {
        assert_eq!(seq(';', &["a", "b;c", ""]), "a;b\\;c;");
        assert_eq!(seq(';', &["\\x"]), "'\\x'");
        assert_eq!(
            SequenceEncoder::with("emb2;x", '\t').append("a\tb").value(),
            "emb2;x\ta\\\tb"
        );
    }

    /// VASSAL's centre of every hex is within half a pixel of the board's, flat (columns) and
    /// pointy (`sideways`), whichever columns are shifted; and VASSAL names each hex as the map.
    #[test]
    fn vassal_centres_match_the_board_in_every_orientation() {
        use bataille_schema::map::{Orientation, Shifted};
        use bataille_schema::stress::{StressSize, generate};
        let (mut map, _) = generate(
            StressSize {
                columns: 9,
                rows: 7,
                units: 0,
                corps: 1,
            },
            "m.ron",
        );
        for orientation in [Orientation::Flat, Orientation::Pointy] {
            for shifted in [Shifted::Odd, Shifted::Even] {
                for first in [0, 1, 7] {
                    map.grid.orientation = orientation;
                    map.grid.shifted = shifted;
                    map.grid.first_column = first;
                    map.grid.first_row = first + 1;
                    let (layout, vg) = board_layout(&map, &VassalOptions::default()).unwrap();
                    for index in map.grid.indices() {
                        let (col, row) = vg.raw(&map.grid, index);
                        let (x, y) = vg.centre(col, row);
                        let c = layout.to_image(map.grid.centre(index));
                        assert!(
                            (x as f32 - c[0]).abs() <= 0.51 && (y as f32 - c[1]).abs() <= 0.51,
                            "{orientation:?} {shifted:?} {first}: {index:?} VASSAL ({x}, {y}), board {c:?}"
                        );
                        // RegularGridNumbering.getName(row, column) with first H or V.
                        let name =
                            |v: i64, leading: u32| format!("{v:0w$}", w = leading as usize + 1);
                        let col_name = name(col + vg.h_off, vg.h_leading);
                        let row_name = name(row + vg.v_off, vg.v_leading);
                        let vassal = if vg.first == 'H' {
                            format!("{col_name}{}{row_name}", vg.sep)
                        } else {
                            format!("{row_name}{}{col_name}", vg.sep)
                        };
                        assert_eq!(vassal, map.grid.name(index).as_str());
                    }
                }
            }
        }
    }

    #[test]
    fn piece_definition_has_three_parts() {
        let d = piece_definition(
            "f.png",
            Some(("b.png", "Reduced")),
            "Navarre 1/",
            Some(3),
            7,
        );
        assert!(d.starts_with("+/null/rotate;12;"), "{d}");
        assert!(d.contains("piece;;;f.png;Navarre 1\\/"), "{d}");
        // Rotator, SendToLocation (no way back yet), Embellishment, BasicPiece: each inner
        // level's delimiters escaped once more.
        assert!(
            d.contains("\tsendto;Eliminate;69,130;Eliminated units;"),
            "{d}"
        );
        assert!(d.ends_with("3\t;;\\\t-1\\\\\tnull;0;0;7;0"), "{d}");
    }
}
