//! The module's build file (`buildFile.xml`: its components, maps, trays and predefined
//! setups, as VASSAL's module editor writes them) and its `moduledata`.
//!
//! The main map and the dead pile are in [`maps`], the counter and reinforcement trays in
//! [`trays`], the variants' predefined setups in [`setups`].

use std::collections::BTreeMap;

use bataille_render::Layout;
use bataille_schema::{Map, Scenario};

use super::pieces::piece_definition;
use super::{VASSAL_VERSION, VassalGrid, back_name, image_stem};
use crate::counters::Counter;
use crate::{ExportError, file_stem, xml};

mod maps;
mod setups;
mod trays;

/// What the build file is written from: the scenario on its map, the board's layout and grid,
/// the counters and the images drawn for them.
pub(super) struct Module<'a> {
    pub scenario: &'a Scenario,
    pub map: &'a Map,
    pub layout: &'a Layout,
    pub vg: &'a VassalGrid,
    /// A counter image's side, px.
    pub canvas: u32,
    pub version: &'a str,
    pub all: &'a [Counter<'a>],
    pub markers: &'a [Counter<'a>],
    pub replacements: &'a [Counter<'a>],
    pub setups: &'a [crate::variants::Setup<'a>],
    /// Each setup's counters.
    pub setup_counters: &'a [Vec<Counter<'a>>],
    /// Each setup's image stem per counter id (its own images where they differ).
    pub setup_stems: &'a [BTreeMap<String, String>],
}

/// The module's text files: `buildFile.xml`, `moduledata`, and each variant's saved game
/// (named as the build file's predefined setups name them).
pub(super) struct Texts {
    pub build_file: String,
    pub moduledata: String,
    pub setup_files: Vec<(String, Vec<u8>)>,
}

/// An XML writer that indents.
pub(super) struct Xml {
    out: String,
    depth: usize,
}

impl Xml {
    pub(super) fn open(&mut self, tag: &str, attributes: &[(&str, String)]) {
        self.line(tag, attributes, false);
        self.depth += 1;
    }
    pub(super) fn empty(&mut self, tag: &str, attributes: &[(&str, String)]) {
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
    pub(super) fn text_element(&mut self, tag: &str, attributes: &[(&str, String)], text: &str) {
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
    pub(super) fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.out.push_str(&"  ".repeat(self.depth));
        self.out.push_str(&format!("</{tag}>\n"));
    }
}

const PIECE_SLOT: &str = "VASSAL.build.widget.PieceSlot";

/// The build file's body as it is written: the XML, and the next piece id (VASSAL's `gpid`,
/// handed out as slots and pieces are written).
pub(super) struct Body {
    pub xml: Xml,
    gpid: u32,
    canvas: u32,
}

impl Body {
    /// The next piece id.
    pub(super) fn next(&mut self) -> u32 {
        let id = self.gpid;
        self.gpid += 1;
        id
    }

    /// A piece slot of a counter, its images named by `stem`.
    pub(super) fn slot_as(&mut self, counter: &Counter, stem: &str) {
        let id = self.next();
        let facing_index = counter
            .facing
            .map(|bearing| ((bearing / 30.0).round() as i64).rem_euclid(12) as u32);
        let back_image = crate::image_name(stem, &["back"]);
        let definition = piece_definition(
            &crate::image_name(stem, &[]),
            counter
                .has_back()
                .then_some((back_image.as_str(), back_name(counter))),
            &counter.name,
            facing_index,
            id,
        );
        self.xml.text_element(
            PIECE_SLOT,
            &[
                ("entryName", counter.name.clone()),
                ("gpid", id.to_string()),
                ("height", self.canvas.to_string()),
                ("width", self.canvas.to_string()),
            ],
            &definition,
        );
    }

    /// A piece slot of a counter with its own images.
    pub(super) fn slot(&mut self, counter: &Counter) {
        self.slot_as(counter, &image_stem(counter));
    }
}

/// The build file, `moduledata` and the setups' saved games of a module.
pub(super) fn texts(m: &Module<'_>) -> Result<Texts, ExportError> {
    let scenario = m.scenario;
    // The body first (gpids are handed out as slots are written), the root wraps it after.
    let mut body = Body {
        xml: Xml {
            out: String::new(),
            depth: 1,
        },
        gpid: 1,
        canvas: m.canvas,
    };
    components(&mut body.xml, scenario);
    maps::main_map(&mut body, m);
    maps::dead_pile_map(&mut body.xml);
    trays::counter_tray(&mut body, m);
    trays::reinforcements(&mut body, m);
    let setup_files = setups::predefined_setups(&mut body, m)?;
    let next_id = body.next();
    let mut x = Xml {
        out: String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"),
        depth: 0,
    };
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
            ("version", m.version.to_owned()),
        ],
    );
    x.out.push_str(&body.xml.out);
    x.close("VASSAL.build.GameModule");
    let moduledata = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<data version=\"1\">\n  <version>{}</version>\n  <extra1/>\n  <extra2/>\n  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n  <dateSaved>0</dateSaved>\n  <description>{}</description>\n  <name>{}</name>\n</data>\n",
        xml(m.version),
        xml(&format!("{} ({})", scenario.title, scenario.date)),
        xml(&scenario.title)
    );
    Ok(Texts {
        build_file: x.out,
        moduledata,
        setup_files,
    })
}

/// The module's components before its maps: the command encoder, the sides (one per army), the
/// global options, the die and the charts' window.
fn components(body: &mut Xml, scenario: &Scenario) {
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
    dice_button(body, scenario);
    chart_window(body, scenario);
}

/// The rules' die: the dice the scenario's charts are read with (one six-sided die when it has
/// none), its roll reported in the chat.
fn dice_button(body: &mut Xml, scenario: &Scenario) {
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
}

/// The rules' charts in a window of their own (VASSAL's ChartWindow holding a Chart per
/// image).
fn chart_window(body: &mut Xml, scenario: &Scenario) {
    if scenario.rules.charts.is_empty() {
        return;
    }
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

/// The panel widget of a tray: a named group of slots, six a row.
pub(super) fn open_panel(body: &mut Xml, name: String) {
    body.open(
        "VASSAL.build.widget.PanelWidget",
        &[
            ("entryName", name),
            ("fixed", "false".to_owned()),
            ("nColumns", "6".to_owned()),
            ("scale", "1.0".to_owned()),
            ("vert", "false".to_owned()),
        ],
    );
}
