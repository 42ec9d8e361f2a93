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

use std::collections::BTreeMap;
use std::io::Write as _;

use bataille_render::RenderOptions;
use bataille_schema::scenario::Placement;
use bataille_schema::{HexIndex, Map, Scenario};

use crate::counters::{Counter, counters, marker_counters, replacement_counters};
use crate::{ExportError, file_stem, xml};

mod grid;
mod pieces;

pub use grid::{VassalGrid, board_layout};
use pieces::MAIN_MAP;
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

/// An XML writer that indents.
struct Xml {
    out: String,
    depth: usize,
}

impl Xml {
    fn open(&mut self, tag: &str, attributes: &[(&str, String)]) {
        self.line(tag, attributes, false);
        self.depth += 1;
    }
    fn empty(&mut self, tag: &str, attributes: &[(&str, String)]) {
        self.line(tag, attributes, true);
    }
    fn line(&mut self, tag: &str, attributes: &[(&str, String)], empty: bool) {
        self.out.push_str(&"  ".repeat(self.depth));
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attributes {
            self.out.push_str(&format!(" {name}=\"{}\"", xml(value)));
        }
        self.out.push_str(if empty { "/>\n" } else { ">\n" });
    }
    fn text_element(&mut self, tag: &str, attributes: &[(&str, String)], text: &str) {
        self.out.push_str(&"  ".repeat(self.depth));
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attributes {
            self.out.push_str(&format!(" {name}=\"{}\"", xml(value)));
        }
        self.out.push('>');
        self.out.push_str(&xml(text));
        self.out.push_str(&format!("</{tag}>\n"));
    }
    fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.out.push_str(&"  ".repeat(self.depth));
        self.out.push_str(&format!("</{tag}>\n"));
    }
}

const PIECE_SLOT: &str = "VASSAL.build.widget.PieceSlot";

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
    let (layout, vg) = board_layout(map, options)?;
    let render = RenderOptions {
        px_per_hex: (options.px_per_hex.clamp(8, 512) / 2 * 2) as f32,
        counters: false,
        leaders: false,
        ..RenderOptions::default()
    };
    // The board: the scan resampled (held, it is the scan's size), or the map drawn straight
    // into the module's zip entry at the end (never held whole).
    let board_png = match (&map.background, &options.scan) {
        (Some(background), Some(scan)) => {
            let l = layout;
            crate::tiled::resample(
                background,
                scan,
                (layout.width, layout.height),
                move |x, y| {
                    let r = f64::from(l.radius_px);
                    [
                        (x - f64::from(l.offset_px[0])) / r,
                        (y - f64::from(l.offset_px[1])) / r,
                    ]
                },
            )
            .map(Some)?
        }
        _ => None,
    };
    let grid = &map.grid;
    let (side, canvas) = counter_sizes(options.px_per_hex);
    let mut images: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    // The rules' charts (a combat results table), each an image for the chart window.
    for chart in &scenario.rules.charts {
        let (drawing, [w, h]) = bataille_render::symbology::chart(chart, 16.0);
        let mut pixmap = bataille_render::tiny_skia::Pixmap::new(w.ceil() as u32, h.ceil() as u32)
            .ok_or_else(|| ExportError::Invalid(format!("chart `{}` cannot be drawn", chart.id)))?;
        pixmap.fill(bataille_render::tiny_skia::Color::WHITE);
        drawing.paint(
            &mut pixmap,
            bataille_render::tiny_skia::Transform::identity(),
        );
        images.insert(
            format!("chart-{}.png", file_stem(chart.id.as_str())),
            bataille_render::encode_png(&pixmap)?,
        );
    }
    let all = counters(scenario, map);
    let markers = marker_counters(scenario);
    let replacements = replacement_counters(scenario, map);
    // Each image once (the first counter with its stem draws it), drawn on every thread.
    let mut wanted: Vec<(String, &Counter, bool)> = Vec::new();
    let mut stems = std::collections::BTreeSet::new();
    for counter in all.iter().chain(&markers).chain(&replacements) {
        let stem = image_stem(counter);
        if images.contains_key(&format!("{stem}.png")) || !stems.insert(stem.clone()) {
            continue;
        }
        if counter.has_back() {
            wanted.push((format!("{stem}-back.png"), counter, true));
        }
        wanted.push((format!("{stem}.png"), counter, false));
    }
    let drawn: Vec<(String, Vec<u8>)> = {
        use rayon::prelude::*;
        wanted
            .into_par_iter()
            .map(|(name, counter, back)| Ok((name, counter.png(side, canvas, back)?)))
            .collect::<Result<_, ExportError>>()?
    };
    images.extend(drawn);
    // Each setup's counters: the module's image when it draws the same, its own otherwise.
    let setup_counters: Vec<Vec<Counter>> =
        setups.iter().map(|s| counters(s.scenario, map)).collect();
    let mut setup_stems: Vec<BTreeMap<String, String>> = Vec::new();
    for (n, all_of) in setup_counters.iter().enumerate() {
        let mut stems = BTreeMap::new();
        for counter in all_of {
            let stem = image_stem(counter);
            let front = counter.png(side, canvas, false)?;
            let back = counter
                .has_back()
                .then(|| counter.png(side, canvas, true))
                .transpose()?;
            let same = images.get(&format!("{stem}.png")) == Some(&front)
                && back
                    .as_ref()
                    .is_none_or(|b| images.get(&format!("{stem}-back.png")) == Some(b));
            let stem = if same {
                stem
            } else {
                let own = format!("{stem}--setup-{}", n + 1);
                images.insert(format!("{own}.png"), front);
                if let Some(back) = back {
                    images.insert(format!("{own}-back.png"), back);
                }
                own
            };
            stems.insert(counter.id.clone(), stem);
        }
        setup_stems.push(stems);
    }
    let mut gpid = 1u32;
    let mut next = || {
        let id = gpid;
        gpid += 1;
        id
    };
    let slot_as = |x: &mut Xml, counter: &Counter, stem: &str, id: u32| {
        let facing_index = counter
            .facing
            .map(|bearing| ((bearing / 30.0).round() as i64).rem_euclid(12) as u32);
        let back_image = format!("{stem}-back.png");
        let definition = piece_definition(
            &format!("{stem}.png"),
            counter
                .has_back()
                .then_some((back_image.as_str(), back_name(counter))),
            &counter.name,
            facing_index,
            id,
        );
        x.text_element(
            PIECE_SLOT,
            &[
                ("entryName", counter.name.clone()),
                ("gpid", id.to_string()),
                ("height", canvas.to_string()),
                ("width", canvas.to_string()),
            ],
            &definition,
        );
    };
    let slot =
        |x: &mut Xml, counter: &Counter, id: u32| slot_as(x, counter, &image_stem(counter), id);
    let board_name = map.name.clone();
    let mut x = Xml {
        out: String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"),
        depth: 0,
    };
    // The body first (gpids are handed out as slots are written), the root wraps it after.
    let mut body = Xml {
        out: String::new(),
        depth: 1,
    };
    for tag in [
        "VASSAL.build.module.BasicCommandEncoder",
        "VASSAL.build.module.Documentation",
    ] {
        body.empty(tag, &[]);
    }
    // The sides: one per army (VASSAL's PlayerRoster reads each child's text as a side).
    body.open(
        "VASSAL.build.module.PlayerRoster",
        &[
            ("buttonKeyStroke", String::new()),
            ("buttonText", "Retire".to_owned()),
            (
                "buttonToolTip",
                "Switch sides, become observer, or release faction".to_owned(),
            ),
        ],
    );
    for army in &scenario.armies {
        body.text_element("entry", &[], &army.name);
    }
    body.close("VASSAL.build.module.PlayerRoster");
    for tag in [
        "VASSAL.build.module.GlobalOptions",
        "VASSAL.build.module.Chatter",
        "VASSAL.build.module.KeyNamer",
        "VASSAL.build.module.properties.GlobalTranslatableMessages",
        "VASSAL.i18n.Language",
    ] {
        body.empty(tag, &[]);
    }
    // The rules' die: the dice the scenario's charts are read with (one six-sided die when it
    // has none), its roll reported in the chat.
    let die = scenario
        .rules
        .charts
        .first()
        .map_or(bataille_schema::scenario::Die::D6, |c| c.die);
    let (n_dice, n_sides) = match die {
        bataille_schema::scenario::Die::D6 => (1, 6),
        bataille_schema::scenario::Die::TwoD6 => (2, 6),
        bataille_schema::scenario::Die::D10 => (1, 10),
    };
    let die_name = die.name();
    body.empty(
        "VASSAL.build.module.DiceButton",
        &[
            ("addToTotal", "0".to_owned()),
            ("canDisable", "false".to_owned()),
            ("hotkey", "54,130".to_owned()),
            ("icon", String::new()),
            ("nDice", n_dice.to_string()),
            ("nSides", n_sides.to_string()),
            ("name", die_name.to_owned()),
            ("plus", "0".to_owned()),
            ("prompt", "false".to_owned()),
            (
                "reportFormat",
                "** $name$ = $result$ *** <$PlayerName$>".to_owned(),
            ),
            ("reportTotal", (n_dice > 1).to_string()),
            ("sortDice", "false".to_owned()),
            ("text", die_name.to_owned()),
            ("tooltip", format!("Roll {die_name} (Ctrl+6)")),
        ],
    );
    // The rules' charts in a window of their own (VASSAL's ChartWindow holding a Chart per
    // image).
    if !scenario.rules.charts.is_empty() {
        body.open(
            "VASSAL.build.module.ChartWindow",
            &[
                ("hotkey", String::new()),
                ("icon", String::new()),
                ("name", "Charts".to_owned()),
                ("text", "Charts".to_owned()),
                ("tooltip", "The rules' charts".to_owned()),
            ],
        );
        for chart in &scenario.rules.charts {
            body.empty(
                "VASSAL.build.widget.Chart",
                &[
                    ("chartName", chart.name.clone()),
                    ("description", chart.name.clone()),
                    (
                        "fileName",
                        format!("chart-{}.png", file_stem(chart.id.as_str())),
                    ),
                ],
            );
        }
        body.close("VASSAL.build.module.ChartWindow");
    }
    // The map, its board and grid.
    body.open(
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
    open_board_picker(&mut body);
    body.open(
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
    body.open(
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
    body.empty(
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
    body.close("VASSAL.build.module.map.boardPicker.board.HexGrid");
    body.close("VASSAL.build.module.map.boardPicker.Board");
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
        "VASSAL.build.module.map.ImageSaver",
        "VASSAL.build.module.map.CounterDetailViewer",
        "VASSAL.build.module.map.Zoomer",
    ] {
        body.empty(tag, &[]);
    }
    // At-start stacks, one per hex, by grid location (and the pixel position for VASSAL
    // versions or namings that cannot read it back).
    let unambiguous =
        !vg.sep.is_empty() || grid.hex_names.column_digits == grid.hex_names.row_digits;
    let mut stacks: BTreeMap<HexIndex, Vec<&Counter>> = BTreeMap::new();
    for counter in &all {
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
        body.open(
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
            let id = next();
            slot(&mut body, counter, id);
        }
        body.close("VASSAL.build.module.map.SetupStack");
    }
    body.close("VASSAL.build.module.Map");
    dead_pile_map(&mut body);
    // The counter tray: a tab per army, a panel per corps; markers.
    body.open(
        "VASSAL.build.module.PieceWindow",
        &[
            ("name", "Counters".to_owned()),
            ("text", "Counters".to_owned()),
            ("tooltip", "Counter tray".to_owned()),
            ("hidden", "false".to_owned()),
            ("scale", "1.0".to_owned()),
            ("hotkey", String::new()),
            ("icon", String::new()),
        ],
    );
    body.open(
        "VASSAL.build.widget.TabWidget",
        &[("entryName", "Counters".to_owned())],
    );
    for army in &scenario.armies {
        body.open(
            "VASSAL.build.widget.ListWidget",
            &[
                ("entryName", army.name.clone()),
                ("divider", "150".to_owned()),
                ("height", "0".to_owned()),
                ("scale", "1.0".to_owned()),
                ("width", "0".to_owned()),
            ],
        );
        let mut groups: Vec<(String, Option<&str>)> = vec![("Commanders".to_owned(), None)];
        groups.extend(
            army.corps
                .iter()
                .map(|c| (c.name.clone(), Some(c.id.as_str()))),
        );
        for (title, corps) in groups {
            let members: Vec<&Counter> = all
                .iter()
                .filter(|c| c.army == Some(army.id.as_str()) && c.corps == corps)
                .collect();
            if members.is_empty() {
                continue;
            }
            body.open(
                "VASSAL.build.widget.PanelWidget",
                &[
                    ("entryName", title),
                    ("fixed", "false".to_owned()),
                    ("nColumns", "6".to_owned()),
                    ("scale", "1.0".to_owned()),
                    ("vert", "false".to_owned()),
                ],
            );
            for counter in members {
                let id = next();
                slot(&mut body, counter, id);
            }
            body.close("VASSAL.build.widget.PanelWidget");
        }
        // The replacement counters the rules call for (Denain 1), for this army.
        let spares: Vec<&Counter> = replacements
            .iter()
            .filter(|c| c.army == Some(army.id.as_str()))
            .collect();
        if !spares.is_empty() {
            body.open(
                "VASSAL.build.widget.PanelWidget",
                &[
                    ("entryName", "Replacements".to_owned()),
                    ("fixed", "false".to_owned()),
                    ("nColumns", "6".to_owned()),
                    ("scale", "1.0".to_owned()),
                    ("vert", "false".to_owned()),
                ],
            );
            for counter in spares {
                let id = next();
                slot(&mut body, counter, id);
            }
            body.close("VASSAL.build.widget.PanelWidget");
        }
        body.close("VASSAL.build.widget.ListWidget");
    }
    body.open(
        "VASSAL.build.widget.PanelWidget",
        &[
            ("entryName", "Markers".to_owned()),
            ("fixed", "false".to_owned()),
            ("nColumns", "6".to_owned()),
            ("scale", "1.0".to_owned()),
            ("vert", "false".to_owned()),
        ],
    );
    let mut seen = std::collections::BTreeSet::new();
    for counter in &markers {
        if seen.insert(image_stem(counter)) {
            let id = next();
            slot(&mut body, counter, id);
        }
    }
    body.close("VASSAL.build.widget.PanelWidget");
    body.close("VASSAL.build.widget.TabWidget");
    body.close("VASSAL.build.module.PieceWindow");
    // Reinforcements: a tray with a panel per turn; a variant whose schedule differs has its
    // own panels, named for it.
    type Schedule<'c> = BTreeMap<u32, Vec<(&'c Counter<'c>, String)>>;
    fn schedule<'c>(all: &'c [Counter<'c>]) -> Schedule<'c> {
        let mut by_turn: Schedule<'c> = BTreeMap::new();
        for counter in all {
            if let Some(Placement::Reinforcement { turn, entry }) = counter.placement {
                let entry: Vec<&str> = entry.iter().map(|h| h.as_str()).collect();
                by_turn
                    .entry(*turn)
                    .or_default()
                    .push((counter, entry.join(", ")));
            }
        }
        by_turn
    }
    let keys = |s: &Schedule<'_>| -> Vec<(u32, String, String)> {
        s.iter()
            .flat_map(|(t, v)| v.iter().map(move |(c, e)| (*t, c.id.clone(), e.clone())))
            .collect()
    };
    let by_turn = schedule(&all);
    let mut trays: Vec<(Option<usize>, Schedule<'_>)> = vec![(None, by_turn)];
    for (n, all_of) in setup_counters.iter().enumerate() {
        let own = schedule(all_of);
        if keys(&own) != keys(&trays[0].1) {
            trays.push((Some(n), own));
        }
    }
    if trays.iter().any(|(_, t)| !t.is_empty()) {
        body.open(
            "VASSAL.build.module.PieceWindow",
            &[
                ("name", "Reinforcements".to_owned()),
                ("text", "Reinforcements".to_owned()),
                ("tooltip", "Reinforcements by turn".to_owned()),
                ("hidden", "false".to_owned()),
                ("scale", "1.0".to_owned()),
                ("hotkey", String::new()),
                ("icon", String::new()),
            ],
        );
        body.open(
            "VASSAL.build.widget.TabWidget",
            &[("entryName", "Reinforcements".to_owned())],
        );
        for (setup, by_turn) in &trays {
            let of = setup.map_or(scenario, |n| setups[n].scenario);
            for (turn, pieces) in by_turn {
                let panel = format!("Turn {turn} ({})", crate::counters::turn_time(of, *turn));
                body.open(
                    "VASSAL.build.widget.PanelWidget",
                    &[
                        (
                            "entryName",
                            match setup {
                                Some(n) => format!("{} — {panel}", setups[*n].name),
                                None => panel,
                            },
                        ),
                        ("fixed", "false".to_owned()),
                        ("nColumns", "6".to_owned()),
                        ("scale", "1.0".to_owned()),
                        ("vert", "false".to_owned()),
                    ],
                );
                for (counter, entry) in pieces {
                    let id = next();
                    let mut named = (*counter).clone();
                    named.name = format!("{} (enters at {entry})", counter.name);
                    let stem = match setup {
                        Some(n) => setup_stems[*n]
                            .get(&counter.id)
                            .cloned()
                            .unwrap_or_else(|| image_stem(counter)),
                        None => image_stem(counter),
                    };
                    slot_as(&mut body, &named, &stem, id);
                }
                body.close("VASSAL.build.widget.PanelWidget");
            }
        }
        body.close("VASSAL.build.widget.TabWidget");
        body.close("VASSAL.build.module.PieceWindow");
    }
    // Predefined setups: the scenario's own (the at-start stacks, as "New Game") and each
    // variant's saved game.
    let mut setup_files: Vec<(String, Vec<u8>)> = Vec::new();
    if !setups.is_empty() {
        body.empty(
            "VASSAL.build.module.PredefinedSetup",
            &[
                ("name", scenario.title.clone()),
                ("description", "The published set-up".to_owned()),
                ("isMenu", "false".to_owned()),
                ("useFile", "false".to_owned()),
                ("file", String::new()),
            ],
        );
        for (n, setup) in setups.iter().enumerate() {
            let mut commands = Vec::new();
            let mut stacks: BTreeMap<HexIndex, Vec<String>> = BTreeMap::new();
            for counter in &setup_counters[n] {
                let Some(index) = counter
                    .placement
                    .and_then(Placement::hex)
                    .and_then(|hex| grid.lookup(hex))
                else {
                    continue;
                };
                let (col, row) = vg.raw(grid, index);
                let (px, py) = vg.centre(col, row);
                let gpid = next();
                let piece = format!("{}", 1_000_000 * (n + 1) + gpid as usize);
                let stem = setup_stems[n]
                    .get(&counter.id)
                    .cloned()
                    .unwrap_or_else(|| image_stem(counter));
                let back_image = format!("{stem}-back.png");
                commands.push(piece_command(
                    &piece,
                    &format!("{stem}.png"),
                    counter
                        .has_back()
                        .then_some((back_image.as_str(), back_name(counter))),
                    &counter.name,
                    counter
                        .facing
                        .map(|bearing| ((bearing / 30.0).round() as i64).rem_euclid(12) as u32),
                    gpid,
                    Some((MAIN_MAP, px, py)),
                ));
                stacks.entry(index).or_default().push(piece);
            }
            for (index, pieces) in &stacks {
                if pieces.len() < 2 {
                    continue;
                }
                let (col, row) = vg.raw(grid, *index);
                let (px, py) = vg.centre(col, row);
                let mut state = SequenceEncoder::new(';')
                    .append(MAIN_MAP)
                    .append(&px.to_string())
                    .append(&py.to_string());
                for piece in pieces {
                    state = state.append(piece);
                }
                let id = format!("{}", 1_000_000 * (n + 1) + next() as usize);
                commands.push(format!(
                    "+/{}",
                    SequenceEncoder::new('/')
                        .append(&id)
                        .append("stack")
                        .append(&state.value())
                        .value()
                ));
            }
            let file = crate::variants::setup_file(n);
            body.empty(
                "VASSAL.build.module.PredefinedSetup",
                &[
                    ("name", setup.name.to_owned()),
                    ("description", format!("A variant of {}", scenario.title)),
                    ("isMenu", "false".to_owned()),
                    ("useFile", "true".to_owned()),
                    ("file", file.clone()),
                ],
            );
            setup_files.push((file, crate::variants::saved_game(&commands)?));
        }
    }
    let next_id = next();
    x.open(
        "VASSAL.build.GameModule",
        &[
            ("ModuleOther1", String::new()),
            ("ModuleOther2", String::new()),
            ("VassalVersion", VASSAL_VERSION.to_owned()),
            (
                "description",
                format!("{} ({})", scenario.title, scenario.date),
            ),
            ("name", scenario.title.clone()),
            ("nextPieceSlotId", next_id.to_string()),
            ("version", options.version.clone()),
        ],
    );
    x.out.push_str(&body.out);
    x.close("VASSAL.build.GameModule");
    let build_file = x.out;
    let moduledata = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<data version=\"1\">\n  <version>{}</version>\n  <extra1/>\n  <extra2/>\n  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n  <dateSaved>0</dateSaved>\n  <description>{}</description>\n  <name>{}</name>\n</data>\n",
        xml(&options.version),
        xml(&format!("{} ({})", scenario.title, scenario.date)),
        xml(&scenario.title)
    );
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    let io = |source: std::io::Error| ExportError::Io {
        path: "module".to_owned(),
        source,
    };
    zip.start_file("buildFile.xml", deflated)?;
    zip.write_all(build_file.as_bytes()).map_err(io)?;
    zip.start_file("moduledata", deflated)?;
    zip.write_all(moduledata.as_bytes()).map_err(io)?;
    for (name, bytes) in &setup_files {
        // A saved game is a zip already.
        zip.start_file(name.as_str(), stored)?;
        zip.write_all(bytes).map_err(io)?;
    }
    // PNGs are compressed already.
    zip.start_file("images/board.png", stored)?;
    match &board_png {
        Some(bytes) => zip.write_all(bytes).map_err(io)?,
        None => bataille_render::write_map_png(map, &layout, &render, &mut zip)?,
    }
    for (name, bytes) in &images {
        zip.start_file(format!("images/{name}"), stored)?;
        zip.write_all(bytes).map_err(io)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// The dead pile: a map of its own with one plain board, opened from the toolbar, where
/// "Eliminate" puts counters; they are dragged back, or sent back with "Return to the map".
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

fn dead_pile_map(body: &mut Xml) {
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

/// The image file stem of a counter (markers share one image per kind).
/// The name of a counter's other side: a unit's is reduced, a marker's (or leader's) other.
fn back_name(counter: &Counter) -> &'static str {
    match counter.kind {
        crate::counters::CounterKind::Marker(_) => "Other side",
        _ => "Reduced side",
    }
}

fn image_stem(counter: &Counter) -> String {
    match &counter.kind {
        crate::counters::CounterKind::Marker(kind) if counter.id.starts_with("marker-") => {
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
