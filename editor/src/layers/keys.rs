//! The map by keyboard: while the map has the keyboard focus (Tab reaches it as any widget,
//! a click on it gives it), the arrow keys move the selected hex (the keyboard's cursor,
//! outlined as the pointer's hex is; the view follows it off screen), Enter applies the current
//! tool there as a click would (paint, fill, place the selected counter, add to the zone, draw
//! the hexside tool's side — R / Shift+R turn it —…) and Shift+Enter as a right click (remove).
//! Tab and Shift+Tab still move the focus on.

use bataille_schema::{Grid, HexIndex};
use egui::{Key, Modifiers};

use crate::context::{AppCommand, ViewContext};

/// Reads this frame's keys for the map when it has the focus.
pub fn input(ctx: &ViewContext<'_>, ui: &egui::Ui, response: &egui::Response) {
    if !response.has_focus() {
        return;
    }
    // The arrows are the map's, not a move of the focus to the next widget.
    ui.memory_mut(|m| {
        m.set_focus_lock_filter(
            response.id,
            egui::EventFilter {
                horizontal_arrows: true,
                vertical_arrows: true,
                ..Default::default()
            },
        );
    });
    let grid = &ctx.doc.map.grid;
    let (moves, apply, remove) = ui.input_mut(|i| {
        let mut moves = (0i64, 0i64);
        for (key, step) in [
            (Key::ArrowLeft, (-1, 0)),
            (Key::ArrowRight, (1, 0)),
            (Key::ArrowUp, (0, -1)),
            (Key::ArrowDown, (0, 1)),
        ] {
            if i.consume_key(Modifiers::NONE, key) {
                moves.0 += step.0;
                moves.1 += step.1;
            }
        }
        let remove = i.consume_key(Modifiers::SHIFT, Key::Enter);
        let apply = i.consume_key(Modifiers::NONE, Key::Enter);
        (moves, apply, remove)
    });
    let cursor = ctx.selection.hex;
    if moves != (0, 0) {
        let next = match cursor {
            Some(hex) => step(grid, hex, moves),
            None => Some(HexIndex::new(grid.columns / 2, grid.rows / 2)),
        };
        if let Some(hex) = next {
            ctx.send(AppCommand::GoToHex {
                hex: grid.name(hex),
                close: false,
            });
        }
    }
    if let Some(hex) = cursor
        && (apply || remove)
    {
        ctx.send(AppCommand::ApplyTool { hex, remove });
    }
}

/// The hex `moves` (columns, rows) away from `hex`, on the map.
fn step(grid: &Grid, hex: HexIndex, moves: (i64, i64)) -> Option<HexIndex> {
    let col = i64::from(hex.col) + moves.0;
    let row = i64::from(hex.row) + moves.1;
    let inside = |v: i64, n: u32| (0..i64::from(n)).contains(&v);
    (inside(col, grid.columns) && inside(row, grid.rows))
        .then(|| HexIndex::new(col as u32, row as u32))
}
