//! `bataille table SCENARIO --system NAME --figures 15mm|25mm [--table 180x120cm|72x48in]
//! --out plan.svg|plan.pdf [--roster roster.pdf|roster.svg]`: the battle laid out on a table.

use std::path::{Path, PathBuf};

use anyhow::bail;

use bataille_table::roster::{roster_pages, roster_svg};
use bataille_table::{PlanRequest, TableSize, pdf_pages, plan, svg_to_pdf};

use crate::door;
use crate::files::display;

/// Lay a scenario out on a miniatures table for one of its systems.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The scenario file (`.ron`).
    pub scenario: PathBuf,
    /// The system, one the scenario's `miniatures` names (`age-of-honor`, `louis-xiv`).
    #[arg(long)]
    pub system: String,
    /// The figure scale, one of the system's (`15mm`, `25mm`).
    #[arg(long, default_value = "15mm")]
    pub figures: String,
    /// The table (`180x120cm`, `72x48in`, `6x4ft`): the plan shows the best window of the map
    /// that fits and names what falls outside. Without it: a table just large enough.
    #[arg(long)]
    pub table: Option<TableSize>,
    /// The plan to write: `.svg` or `.pdf` (the extension decides).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Also write the armies' rosters: `.svg` or `.pdf` (one A4 page per army or more).
    #[arg(long)]
    pub roster: Option<PathBuf>,
    /// Turn the table over the map, degrees clockwise (`--turn 30`): for a battle whose lines
    /// do not run north-south or east-west. `--turn best` (with `--table`) tries every 15° and
    /// keeps the turn that puts the most units on the table.
    #[arg(long, default_value = "0", value_parser = parse_turn, allow_hyphen_values = true)]
    pub turn: Turn,
    /// The folder the documents' references (`map:`, miniatures systems, the map's scan) must
    /// stay in, after following links. Default: the file's repository (the nearest folder above
    /// it holding `.git`), or without one the folder above the file's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// How the table is turned over the map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Turn {
    Degrees(f64),
    /// The turn, in steps of 15°, that leaves the fewest units off the table.
    Best,
}

/// A turn in degrees, -360 to 360, or `best`.
fn parse_turn(text: &str) -> Result<Turn, String> {
    if text.trim().eq_ignore_ascii_case("best") {
        return Ok(Turn::Best);
    }
    let turn: f64 = text
        .trim()
        .trim_end_matches('°')
        .parse()
        .map_err(|_| format!("`{text}` is not a number of degrees (or `best`)"))?;
    if turn.is_finite() && (-360.0..=360.0).contains(&turn) {
        Ok(Turn::Degrees(turn))
    } else {
        Err(format!("`{text}`: turn the table by -360 to 360 degrees"))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Svg,
    Pdf,
}

fn format_of(path: &Path) -> anyhow::Result<Format> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("pdf") => Ok(Format::Pdf),
        _ => bail!("{}: write a .svg or a .pdf", display(path)),
    }
}

/// Draws the plan (and the roster), and says on standard output what table it needs.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let out_format = format_of(&args.out)?;
    let roster_format = args.roster.as_deref().map(format_of).transpose()?;
    let admitted = door::admit(&args.scenario, args.root.as_deref())?;
    let (opened, map) = door::battle(&admitted, "table")?;
    let scenario = &opened.scenario;
    let Some(used) = scenario
        .miniatures
        .iter()
        .find(|m| m.system.as_str() == args.system)
    else {
        let known: Vec<String> = scenario
            .miniatures
            .iter()
            .map(|m| format!("`{}`", m.system))
            .collect();
        bail!(
            "{} does not support system `{}`; it supports {}",
            display(&args.scenario),
            args.system,
            if known.is_empty() {
                "none (no `miniatures`)".to_owned()
            } else {
                known.join(", ")
            }
        );
    };
    let Some(system) = opened.system(used.system.as_str()) else {
        // The door refuses a scenario whose system it could not open (E1001).
        bail!("miniatures system `{}` could not be opened", args.system);
    };
    let system = &system.system;
    let request = |turn_degrees: f64| PlanRequest {
        figures: args.figures.clone(),
        table: args.table,
        turn_degrees,
    };
    let plan = match args.turn {
        Turn::Degrees(turn) => plan(scenario, &map.map, system, &request(turn))?,
        Turn::Best => {
            if args.table.is_none() {
                bail!("`--turn best` needs a `--table` to fit");
            }
            // Every 15° over half a turn (a table turned 180° holds the same units); the
            // smallest turn wins a tie.
            let mut best = plan(scenario, &map.map, system, &request(0.0))?;
            let mut best_turn = 0.0;
            for step in 1..12 {
                let turn = f64::from(step) * 15.0;
                let candidate = plan(scenario, &map.map, system, &request(turn))?;
                if candidate.outside.len() < best.outside.len() {
                    best = candidate;
                    best_turn = turn;
                }
            }
            say!(
                "turned {best_turn}° clockwise over the map: {} outside the table",
                best.outside.len()
            );
            best
        }
    };
    let mut outputs = door::outputs(&admitted);
    match out_format {
        Format::Svg => outputs.stage(&args.out, plan.svg.as_bytes())?,
        Format::Pdf => outputs.stage(&args.out, &svg_to_pdf(&plan.svg)?)?,
    }
    let mut lines = Vec::new();
    lines.push(format!(
        "{}: {} at {}, 1 mm = {} m; the deployed armies need a table of {:.0} × {:.0} cm ({:.1} × {:.1} ft)",
        display(&args.out),
        system.name,
        args.figures,
        bataille_table::fmt_num(plan.metres_per_mm),
        plan.needed_mm[0] / 10.0,
        plan.needed_mm[1] / 10.0,
        plan.needed_mm[0] / 304.8,
        plan.needed_mm[1] / 304.8
    ));
    if let Some(table) = args.table {
        lines.push(format!(
            "table {:.0} × {:.0} cm: {}",
            table.width_mm / 10.0,
            table.height_mm / 10.0,
            if plan.outside.is_empty() {
                "every unit fits".to_owned()
            } else {
                format!("outside: {}", plan.outside.join(", "))
            }
        ));
    }
    if !plan.outside_places.is_empty() {
        lines.push(format!(
            "places off the table: {}",
            plan.outside_places.join(", ")
        ));
    }
    if !plan.later.is_empty() {
        lines.push(format!("enter later: {}", plan.later.join(", ")));
    }
    if let (Some(path), Some(format)) = (&args.roster, roster_format) {
        let pages = roster_pages(scenario, system)?;
        match format {
            Format::Svg => outputs.stage(path, roster_svg(&pages).as_bytes())?,
            Format::Pdf => outputs.stage(path, &pdf_pages(&pages)?)?,
        }
        lines.push(format!(
            "{}: rosters, {} A4 pages",
            display(path),
            pages.len()
        ));
    }
    // The plan and the roster are written together, or neither.
    outputs.commit()?;
    for line in lines {
        say!("{line}");
    }
    Ok(())
}
