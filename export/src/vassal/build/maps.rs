//! The module's maps: the main map (its board, VASSAL's grid and numbering, the at-start
//! stacks) and the dead pile.

use std::collections::BTreeMap;

use bataille_schema::HexIndex;
use bataille_schema::scenario::Placement;

use super::{Body, Module, Xml};
use crate::counters::Counter;
use crate::vassal::pieces::{DEAD_PILE, MAIN_MAP};

/// The main map: its board (the board image under VASSAL's hex grid, numbered as the map) and
/// the at-start stacks.
pub(super) fn main_map(body: &mut Body, m: &Module<'_>) {
    let (layout, vg, grid) = (m.layout, m.vg, &m.map.grid);
    let board_name = m.map.name.clone();
    let x = &mut body.xml;
    x.open(
        "VASSAL.build.module.Map",
        &[
            ("mapName", MAIN_MAP.to_owned()),
            ("allowMultiple", "false".to_owned()),
            ("backgroundcolor", "255,255,255".to_owned()),
            ("buttonName", String::new()),
            ("changeFormat", "$message$".to_owned()),
            ("color", "255,0,0".to_owned()),
            (
                "createFormat",
                "$pieceName$ created in $location$ *".to_owned(),
            ),
            ("edgeHeight", "0".to_owned()),
            ("edgeWidth", "0".to_owned()),
            ("hideKey", String::new()),
            ("hotkey", String::new()),
            ("launch", "false".to_owned()),
            ("markMoved", "Never".to_owned()),
            ("markUnmovedHotkey", String::new()),
            ("markUnmovedIcon", String::new()),
            ("markUnmovedText", String::new()),
            ("markUnmovedTooltip", String::new()),
            ("moveKey", String::new()),
            (
                "moveToFormat",
                "$pieceName$ moves $previousLocation$ → $location$ *".to_owned(),
            ),
            (
                "moveWithinFormat",
                "$pieceName$ moves $previousLocation$ → $location$ *".to_owned(),
            ),
            ("showKey", String::new()),
            ("thickness", "3".to_owned()),
        ],
    );
    open_board_picker(x);
    x.open(
        "VASSAL.build.module.map.boardPicker.Board",
        &[
            ("name", board_name.clone()),
            ("image", "board.png".to_owned()),
            ("width", layout.width.to_string()),
            ("height", layout.height.to_string()),
            ("reversible", "false".to_owned()),
            ("color", "255,255,255".to_owned()),
        ],
    );
    x.open(
        "VASSAL.build.module.map.boardPicker.board.HexGrid",
        &[
            ("color", "0,0,0".to_owned()),
            ("cornersLegal", "false".to_owned()),
            ("dotsVisible", "false".to_owned()),
            ("dx", format!("{}", vg.dx)),
            ("dy", format!("{}", vg.dy)),
            ("edgesLegal", "false".to_owned()),
            ("sideways", vg.sideways.to_string()),
            ("snapTo", "true".to_owned()),
            ("visible", "false".to_owned()),
            ("x0", vg.x0.to_string()),
            ("y0", vg.y0.to_string()),
        ],
    );
    x.empty(
        "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering",
        &[
            ("color", "0,0,0".to_owned()),
            ("first", vg.first.to_string()),
            ("fontSize", "9".to_owned()),
            ("hDescend", "false".to_owned()),
            ("hDrawOff", "0".to_owned()),
            ("hLeading", vg.h_leading.to_string()),
            ("hOff", vg.h_off.to_string()),
            ("hType", "N".to_owned()),
            ("locationFormat", "$gridLocation$".to_owned()),
            ("rotateText", "0".to_owned()),
            ("sep", vg.sep.clone()),
            ("stagger", "false".to_owned()),
            ("vDescend", "false".to_owned()),
            ("vDrawOff", "0".to_owned()),
            ("vLeading", vg.v_leading.to_string()),
            ("vOff", vg.v_off.to_string()),
            ("vType", "N".to_owned()),
            ("visible", "false".to_owned()),
        ],
    );
    x.close("VASSAL.build.module.map.boardPicker.board.HexGrid");
    x.close("VASSAL.build.module.map.boardPicker.Board");
    x.close("VASSAL.build.module.map.BoardPicker");
    for tag in [
        "VASSAL.build.module.map.StackMetrics",
        "VASSAL.build.module.map.ForwardToKeyBuffer",
        "VASSAL.build.module.map.Scroller",
        "VASSAL.build.module.map.ForwardToChatter",
        "VASSAL.build.module.map.MenuDisplayer",
        "VASSAL.build.module.map.MapCenterer",
        "VASSAL.build.module.map.StackExpander",
        "VASSAL.build.module.map.PieceMover",
        "VASSAL.build.module.map.KeyBufferer",
        "VASSAL.build.module.map.ImageSaver",
        "VASSAL.build.module.map.CounterDetailViewer",
        "VASSAL.build.module.map.Zoomer",
    ] {
        x.empty(tag, &[]);
    }
    // At-start stacks, one per hex, by grid location (and the pixel position for VASSAL
    // versions or namings that cannot read it back).
    let unambiguous =
        !vg.sep.is_empty() || grid.hex_names.column_digits == grid.hex_names.row_digits;
    let mut stacks: BTreeMap<HexIndex, Vec<&Counter>> = BTreeMap::new();
    for counter in m.all {
        if let Some(index) = counter
            .placement
            .and_then(Placement::hex)
            .and_then(|hex| grid.lookup(hex))
        {
            stacks.entry(index).or_default().push(counter);
        }
    }
    for (index, pieces) in &stacks {
        let name = grid.name(*index);
        let (col, row) = vg.raw(grid, *index);
        let (px, py) = vg.centre(col, row);
        body.xml.open(
            "VASSAL.build.module.map.SetupStack",
            &[
                ("name", name.as_str().to_owned()),
                ("owningBoard", board_name.clone()),
                ("useGridLocation", unambiguous.to_string()),
                ("location", name.as_str().to_owned()),
                ("x", px.to_string()),
                ("y", py.to_string()),
            ],
        );
        for counter in pieces {
            body.slot(counter);
        }
        body.xml.close("VASSAL.build.module.map.SetupStack");
    }
    body.xml.close("VASSAL.build.module.Map");
}

/// Opens a map's `BoardPicker` (VASSAL's defaults: one board, chosen by no one); the caller adds
/// the board and closes it.
fn open_board_picker(body: &mut Xml) {
    body.open(
        "VASSAL.build.module.map.BoardPicker",
        &[
            ("addColumnText", "Add column".to_owned()),
            ("addRowText", "Add row".to_owned()),
            ("boardPrompt", "Select board".to_owned()),
            ("slotHeight", "125".to_owned()),
            ("slotScale", "0.2".to_owned()),
            ("slotWidth", "350".to_owned()),
            ("title", "Choose Boards".to_owned()),
        ],
    );
}

/// The dead pile: a map of its own with one plain board, opened from the toolbar, where
/// "Eliminate" puts counters; they are dragged back, or sent back with "Return to the map".
pub(super) fn dead_pile_map(body: &mut Xml) {
    body.open(
        "VASSAL.build.module.Map",
        &[
            ("mapName", DEAD_PILE.to_owned()),
            ("allowMultiple", "false".to_owned()),
            ("backgroundcolor", "255,255,255".to_owned()),
            ("buttonName", "Eliminated".to_owned()),
            ("changeFormat", "$message$".to_owned()),
            ("color", "255,0,0".to_owned()),
            (
                "createFormat",
                "$pieceName$ created in $location$ *".to_owned(),
            ),
            ("edgeHeight", "0".to_owned()),
            ("edgeWidth", "0".to_owned()),
            ("hideKey", String::new()),
            ("hotkey", "69,195".to_owned()),
            ("icon", String::new()),
            ("launch", "true".to_owned()),
            ("markMoved", "Never".to_owned()),
            ("markUnmovedHotkey", String::new()),
            ("markUnmovedIcon", String::new()),
            ("markUnmovedText", String::new()),
            ("markUnmovedTooltip", String::new()),
            ("moveKey", String::new()),
            ("moveToFormat", "$pieceName$ eliminated *".to_owned()),
            ("moveWithinFormat", "$pieceName$ moves *".to_owned()),
            ("showKey", String::new()),
            ("thickness", "3".to_owned()),
            ("tooltip", "The eliminated units (Ctrl+Shift+E)".to_owned()),
        ],
    );
    open_board_picker(body);
    body.empty(
        "VASSAL.build.module.map.boardPicker.Board",
        &[
            ("name", DEAD_PILE.to_owned()),
            ("image", String::new()),
            ("width", "600".to_owned()),
            ("height", "400".to_owned()),
            ("reversible", "false".to_owned()),
            ("color", "232,226,208".to_owned()),
        ],
    );
    body.close("VASSAL.build.module.map.BoardPicker");
    for tag in [
        "VASSAL.build.module.map.StackMetrics",
        "VASSAL.build.module.map.ForwardToKeyBuffer",
        "VASSAL.build.module.map.Scroller",
        "VASSAL.build.module.map.ForwardToChatter",
        "VASSAL.build.module.map.MenuDisplayer",
        "VASSAL.build.module.map.MapCenterer",
        "VASSAL.build.module.map.StackExpander",
        "VASSAL.build.module.map.PieceMover",
        "VASSAL.build.module.map.KeyBufferer",
        "VASSAL.build.module.map.CounterDetailViewer",
        "VASSAL.build.module.map.Zoomer",
    ] {
        body.empty(tag, &[]);
    }
    body.close("VASSAL.build.module.Map");
}
