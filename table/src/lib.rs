//! Table plans: a scenario laid out on a real table for a miniatures rules system — the map at
//! the system's ground scale (Louis XIV at 15 mm: 5 bases × 20 mm for a battalion's 200 m, so
//! 1 mm = 2 m), terrain as areas, every unit as its bases at true size at its hex and facing,
//! a 30 cm (or 1 ft) grid and a scale bar — as SVG (width and height in mm) or PDF, and a
//! printable roster per army.
//!
//! ```no_run
//! use bataille_table::{PlanRequest, plan};
//! # fn demo(s: &bataille_schema::Scenario, m: &bataille_schema::Map, sys: &bataille_schema::System) {
//! let request = PlanRequest { figures: "15mm".into(), table: None, turn_degrees: 0.0 };
//! let plan = plan(s, m, sys, &request).unwrap();
//! println!("needs a table of {:.0} × {:.0} cm", plan.needed_mm[0] / 10.0, plan.needed_mm[1] / 10.0);
//! std::fs::write("plan.svg", &plan.svg).unwrap();
//! # }
//! ```

mod layout;
pub mod roster;
mod svg;
mod window;
pub use svg::fmt_num;

use bataille_schema::scenario::MiniaturesUse;
use bataille_schema::system::System;
use bataille_schema::{Map, Scenario};

pub use layout::{PlacedBase, PlacedUnit};

/// Why no plan could be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("the scenario does not support system `{0}` (its `miniatures` list does not name it)")]
    SystemNotUsed(String),
    #[error("system `{system}` has no figure scale `{figures}`; it has {known}")]
    NoFigureScale {
        system: String,
        figures: String,
        known: String,
    },
    #[error("the map gives no `metres_per_hex`, so its ground cannot be scaled to a table")]
    NoGroundScale,
    #[error("the map's `metres_per_hex` ({0}) is not a positive number")]
    BadGroundScale(f64),
    #[error("the table would be {0:.0} mm across; at most {MAX_TABLE_MM} mm is drawn")]
    TooLarge(f64),
    #[error(
        "a table of {0:.1} × {1:.1} mm: each side must be from {MIN_TABLE_MM} mm to {MAX_TABLE_MM} mm"
    )]
    BadTable(f64, f64),
    #[error("cannot write the PDF: {0}")]
    Pdf(String),
}

/// The largest side of a plan, in millimetres (20 m).
pub const MAX_TABLE_MM: f64 = 20_000.0;

/// The smallest side of a table, in millimetres (10 cm): the plan's margins, scale bar and
/// entry labels need that much (a plan sized to the armies is never smaller), and a side of
/// 0.001 mm made the labels' placement panic.
pub const MIN_TABLE_MM: f64 = 100.0;

/// A table size and the unit it was given in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableSize {
    pub width_mm: f64,
    pub height_mm: f64,
    /// Given in inches or feet: the grid is 1 ft, not 30 cm.
    pub imperial: bool,
}

impl std::str::FromStr for TableSize {
    type Err = String;

    /// `180x120cm`, `1800x1200mm`, `72x48in`, `6x4ft`.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim().to_ascii_lowercase();
        let (numbers, unit, imperial) = [
            ("cm", 10.0, false),
            ("mm", 1.0, false),
            ("in", 25.4, true),
            ("ft", 304.8, true),
        ]
        .iter()
        .find_map(|(suffix, mm, imperial)| {
            text.strip_suffix(suffix)
                .map(|rest| (rest.to_owned(), *mm, *imperial))
        })
        .ok_or_else(|| format!("`{text}`: give a size like 180x120cm, 72x48in or 6x4ft"))?;
        let (w, h) = numbers
            .split_once('x')
            .ok_or_else(|| format!("`{text}`: width x height, like 180x120cm"))?;
        let parse = |v: &str| -> Result<f64, String> {
            let n: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("`{v}` is not a number"))?;
            if n.is_finite() && (MIN_TABLE_MM..=MAX_TABLE_MM).contains(&(n * unit)) {
                Ok(n * unit)
            } else {
                Err(format!("`{v}`: a table side from 10 cm to 20 m"))
            }
        };
        Ok(TableSize {
            width_mm: parse(w)?,
            height_mm: parse(h)?,
            imperial,
        })
    }
}

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRequest {
    /// The figure scale (`"15mm"`), a key of the system's `figure_scales`.
    pub figures: String,
    /// The table; `None`: a table just large enough for the deployed armies.
    pub table: Option<TableSize>,
    /// How far the table is turned over the map, degrees clockwise (0: north at the top): a
    /// battle whose lines run across the map's grain fits a table better turned.
    pub turn_degrees: f64,
}

/// A plan, drawn.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The SVG text; its `width`/`height` in mm, one user unit a millimetre.
    pub svg: String,
    /// The size of the drawing (the table asked for, or the table needed), in mm.
    pub size_mm: [f64; 2],
    /// The table the deployed armies need (their bases and a 10 cm margin, rounded up to 10 cm).
    pub needed_mm: [f64; 2],
    /// Where the drawing's top-left corner is, in table millimetres of the whole map (the
    /// first hex's centre is at the origin) turned by the table's turn.
    pub origin_mm: [f64; 2],
    /// Metres of ground a millimetre of table.
    pub metres_per_mm: f64,
    /// Table millimetres per grid unit (a hex's circumradius).
    pub mm_per_grid: f64,
    /// Units and leaders that fall outside the table (wholly or in part), named with their hex.
    pub outside: Vec<String>,
    /// Named places of the map whose hex centre falls outside the table.
    pub outside_places: Vec<String>,
    /// Units that enter later (not on the table at set-up).
    pub later: Vec<String>,
    /// Every base drawn, by unit, in drawing millimetres.
    pub units: Vec<PlacedUnit>,
    /// The scale bar's length in metres of ground.
    pub scale_bar_metres: f64,
    /// The hex numbers printed on the plan (objectives, entry hexes, the hexes along its edges).
    pub hex_numbers: Vec<String>,
    /// Each entry hex of each reinforcement group, drawn and named on the plan.
    pub entries: Vec<Entry>,
}

/// Where a reinforcement group enters, as the plan draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The entry hex.
    pub hex: String,
    pub turn: u32,
    /// What the plan prints beside it (turn, troops, army, hexes; how far off the table).
    pub label: String,
    /// The hex is on the table (a ring round it); else an arrow at the edge points to it.
    pub on_table: bool,
    /// Where the ring or arrow is drawn, drawing millimetres.
    pub at: [f64; 2],
}

/// The scenario's use of a system.
pub fn used<'a>(scenario: &'a Scenario, system: &System) -> Result<&'a MiniaturesUse, PlanError> {
    scenario
        .miniatures
        .iter()
        .find(|m| m.system == system.id)
        .ok_or_else(|| PlanError::SystemNotUsed(system.id.to_string()))
}

/// The scenario laid out at a system's ground scale before any table is chosen: the scale, and
/// every counter on the map at set-up as its bases, in table millimetres of the whole map (the
/// first hex's centre at the origin, so a grid point `p` is at `p × mm_per_grid`). What the
/// editor's table overlay draws over the hex map; [`plan`] draws the same layout.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Metres of ground a millimetre of table.
    pub metres_per_mm: f64,
    /// Table millimetres per grid unit (a hex's circumradius).
    pub mm_per_grid: f64,
    pub units: Vec<PlacedUnit>,
    /// Units that enter later (not on the table at set-up).
    pub later: Vec<String>,
}

impl Layout {
    /// Whether every base of `unit` lies on a table of `size` mm whose top-left corner is at
    /// `origin` (table millimetres of the whole map): the test [`Plan::outside`] is made with.
    pub fn on_table(unit: &PlacedUnit, origin: [f64; 2], size: [f64; 2]) -> bool {
        let inside = |p: [f64; 2]| {
            p[0] >= origin[0] - 0.01
                && p[1] >= origin[1] - 0.01
                && p[0] <= origin[0] + size[0] + 0.01
                && p[1] <= origin[1] + size[1] + 0.01
        };
        unit.bases().iter().all(|b| {
            let r = 0.5 * b.frontage_mm.hypot(b.depth_mm);
            inside([b.centre[0] - r, b.centre[1] - r]) && inside([b.centre[0] + r, b.centre[1] + r])
        })
    }

    /// The top-left corner of the table of `size` mm that holds the most units whole (ties:
    /// nearest the deployed area's centre): where `bataille table --table` puts it.
    pub fn best_window(&self, map: &Map, size: [f64; 2]) -> [f64; 2] {
        let (lo, hi) = window::deployed_bounds(&self.units, map, self.mm_per_grid);
        window::best_window(&self.units, size, lo, hi)
    }
}

/// The system's figure scale and the table millimetres per grid unit of the map.
fn scale_of<'s>(
    map: &Map,
    system: &'s System,
    figures: &str,
) -> Result<(&'s bataille_schema::system::FigureScale, f64), PlanError> {
    let scale = system
        .figure_scales
        .get(figures)
        .ok_or_else(|| PlanError::NoFigureScale {
            system: system.id.to_string(),
            figures: figures.to_owned(),
            known: system
                .figure_scales
                .keys()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let metres_per_hex = map.metres_per_hex.ok_or(PlanError::NoGroundScale)?;
    if !(metres_per_hex.is_finite() && metres_per_hex > 0.0) {
        return Err(PlanError::BadGroundScale(metres_per_hex));
    }
    // A hex's flat-to-flat width (centre to centre) is √3 circumradii.
    let mm_per_grid = metres_per_hex / 3f64.sqrt() / scale.metres_per_mm;
    let (min, max) = map.grid.bounds();
    let map_mm = [
        f64::from(max[0] - min[0]) * mm_per_grid,
        f64::from(max[1] - min[1]) * mm_per_grid,
    ];
    if map_mm[0].max(map_mm[1]) > MAX_TABLE_MM {
        return Err(PlanError::TooLarge(map_mm[0].max(map_mm[1])));
    }
    Ok((scale, mm_per_grid))
}

/// Lays the scenario out for the system at a figure scale, with no table chosen.
pub fn layout(
    scenario: &Scenario,
    map: &Map,
    system: &System,
    figures: &str,
) -> Result<Layout, PlanError> {
    let used = used(scenario, system)?;
    let (scale, mm_per_grid) = scale_of(map, system, figures)?;
    let laid = layout::lay_out(scenario, map, system, used, scale, mm_per_grid);
    Ok(Layout {
        metres_per_mm: scale.metres_per_mm,
        mm_per_grid,
        units: laid.units,
        later: laid.later,
    })
}

/// Lays the scenario out for the system at a figure scale.
pub fn plan(
    scenario: &Scenario,
    map: &Map,
    system: &System,
    request: &PlanRequest,
) -> Result<Plan, PlanError> {
    if let Some(table) = request.table {
        let fits = |side: f64| side.is_finite() && (MIN_TABLE_MM..=MAX_TABLE_MM).contains(&side);
        if !(fits(table.width_mm) && fits(table.height_mm)) {
            return Err(PlanError::BadTable(table.width_mm, table.height_mm));
        }
    }
    let used = used(scenario, system)?;
    let (scale, mm_per_grid) = scale_of(map, system, &request.figures)?;
    let laid = layout::lay_out(scenario, map, system, used, scale, mm_per_grid);
    svg::draw(
        scenario,
        map,
        system,
        used,
        scale,
        request,
        mm_per_grid,
        laid,
    )
}

/// The PDF of a plan's (or roster's) SVG: one page of the SVG's size (1 user unit = 1 mm),
/// through svg2pdf, with the bundled DejaVu Sans for the text.
pub fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, PlanError> {
    let tree = parse_svg(svg).map_err(|e| PlanError::Pdf(e.to_string()))?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions { dpi: 96.0 },
    )
    .map_err(|e| PlanError::Pdf(e.to_string()))
}

/// Parses SVG text with usvg, the bundled DejaVu Sans as its fonts.
pub fn parse_svg(svg: &str) -> Result<svg2pdf::usvg::Tree, svg2pdf::usvg::Error> {
    let mut options = svg2pdf::usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(dejavu::sans::regular().to_vec());
    db.load_font_data(dejavu::sans::bold().to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    svg2pdf::usvg::Tree::from_str(svg, &options)
}

/// A PDF of several pages, one per SVG (each page the size of its SVG, 1 user unit = 1 mm):
/// each SVG becomes a form XObject through `svg2pdf::to_chunk`, drawn over its whole page.
pub fn pdf_pages(pages: &[String]) -> Result<Vec<u8>, PlanError> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref};
    let pdf_error = |e: &dyn std::fmt::Display| PlanError::Pdf(e.to_string());
    let mut alloc = Ref::new(1);
    let catalog_id = alloc.bump();
    let tree_id = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::new();
    let mut chunks = Vec::new();
    for svg in pages {
        let tree = parse_svg(svg).map_err(|e| pdf_error(&e))?;
        let size = tree.size();
        // usvg sizes are CSS pixels (96 a inch); PDF points are 72 an inch.
        let (w, h) = (size.width() * 0.75, size.height() * 0.75);
        let (chunk, svg_id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| pdf_error(&e))?;
        let mut map = std::collections::HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let svg_id = *map
            .get(&svg_id)
            .ok_or_else(|| PlanError::Pdf("svg2pdf gave no XObject".into()))?;
        let page_id = alloc.bump();
        let content_id = alloc.bump();
        let name = Name(b"S1");
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, w, h));
        page.parent(tree_id);
        page.contents(content_id);
        page.resources().x_objects().pair(name, svg_id);
        page.finish();
        let mut content = Content::new();
        content.transform([w, 0.0, 0.0, h, 0.0, 0.0]).x_object(name);
        pdf.stream(content_id, &content.finish());
        page_ids.push(page_id);
        chunks.push(chunk);
    }
    pdf.catalog(catalog_id).pages(tree_id);
    let count = i32::try_from(page_ids.len()).unwrap_or(i32::MAX);
    pdf.pages(tree_id).kids(page_ids).count(count);
    for chunk in &chunks {
        pdf.extend(chunk);
    }
    Ok(pdf.finish())
}
