//! What `bataille digitize` found, for either output: lines for a person (long lists cut,
//! saying how many more) or one JSON object with everything.

/// At most this many names of a list on one line of the human output.
const SHOWN: usize = 40;

/// Everything the command found, for either output.
#[derive(Debug, Default, serde::Serialize)]
pub(super) struct Report {
    pub(super) fit: FitReport,
    pub(super) refinement: Option<RefinementReport>,
    pub(super) warnings: Vec<String>,
    pub(super) shape: ShapeReport,
    pub(super) terrain: TerrainReport,
    pub(super) hexsides: Option<HexsidesReport>,
    /// The lines drawn through the hexes (roads, railways), when crossings were marked.
    pub(super) paths: Option<PathsReport>,
    pub(super) wrote: String,
}

#[derive(Debug, Default, serde::Serialize)]
pub(super) struct FitReport {
    pub(super) kind: String,
    pub(super) rms_px: f64,
    pub(super) points: Vec<PointReport>,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct PointReport {
    pub(super) hex: String,
    pub(super) residual_px: f64,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct RefinementReport {
    pub(super) kind: String,
    pub(super) sides_with_a_line: usize,
    pub(super) sides_probed: usize,
    pub(super) rms_px: f64,
    pub(super) local_correction: bool,
    /// Hexes whose centre their own printed sides give (off the lattice), where read clearly.
    pub(super) own_centres: usize,
}

#[derive(Debug, Default, serde::Serialize)]
pub(super) struct ShapeReport {
    /// Hexes on the grid's edge that the print shows only in part.
    pub(super) half: Vec<String>,
    /// Hexes not on the print.
    pub(super) off: Vec<String>,
    /// The parity whose columns (rows) end one cell early on the print, if that is all the
    /// hexes off it.
    pub(super) short_lines: Option<String>,
    /// Whether the shape was written to the map (`--apply-shape`).
    pub(super) written: bool,
}

#[derive(Debug, Default, serde::Serialize)]
pub(super) struct TerrainReport {
    pub(super) hexes: usize,
    pub(super) doubtful: Vec<DoubtfulHex>,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct DoubtfulHex {
    pub(super) hex: String,
    pub(super) code: Option<String>,
    pub(super) confidence: f32,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct HexsidesReport {
    pub(super) checked: usize,
    pub(super) with_a_feature: usize,
    pub(super) doubtful: Vec<DoubtfulHexside>,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct DoubtfulHexside {
    pub(super) hexside: String,
    pub(super) feature: Option<String>,
    pub(super) confidence: f32,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct PathsReport {
    /// Hexsides looked at (both hexes on the print).
    pub(super) checked: usize,
    /// Hexsides a line crosses.
    pub(super) crossed: usize,
    /// Paths of neighbouring hexes written.
    pub(super) paths: usize,
    pub(super) doubtful: Vec<DoubtfulCrossing>,
}

#[derive(Debug, serde::Serialize)]
pub(super) struct DoubtfulCrossing {
    pub(super) hexside: String,
    /// The overlay whose line the pass suggests crosses it; `None`: none (a line drawn like
    /// no marked crossing, or one passing through a corner).
    pub(super) line: Option<String>,
    pub(super) confidence: f32,
}

/// `names` joined by spaces, at most [`SHOWN`] of them, then how many more.
fn some_of(names: &[String]) -> String {
    let mut text = names
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    if names.len() > SHOWN {
        text.push_str(&format!(
            " … and {} more (--format json lists them all)",
            names.len() - SHOWN
        ));
    }
    text
}

/// The report as lines for a person.
pub(super) fn say_report(report: &Report, doubtful_below: f32) {
    say!(
        "fit: {} over {} points, RMS {:.2} px",
        report.fit.kind,
        report.fit.points.len(),
        report.fit.rms_px
    );
    for point in &report.fit.points {
        say!("  {}: {:.2} px", point.hex, point.residual_px);
    }
    if let Some(r) = &report.refinement {
        say!(
            "refined on the print: {} ({} of {} hexsides show the grid line, RMS {:.2} px{}{})",
            r.kind,
            r.sides_with_a_line,
            r.sides_probed,
            r.rms_px,
            if r.local_correction {
                ", with a local correction"
            } else {
                ""
            },
            match r.own_centres {
                0 => String::new(),
                n => format!("; {n} hexes centred on their own printed sides"),
            }
        );
    }
    for warning in &report.warnings {
        say!("warning: {warning}");
    }
    let shape = &report.shape;
    if !shape.half.is_empty() || !shape.off.is_empty() {
        let what = match (&shape.short_lines, shape.written) {
            (Some(parity), true) => format!("written as short_lines: {parity}"),
            (Some(parity), false) => {
                format!("suggested: short_lines: {parity} (--apply-shape writes it)")
            }
            (None, true) => "the half hexes written to half_hexes".to_owned(),
            (None, false) => {
                "suggested: --apply-shape writes the half hexes to half_hexes".to_owned()
            }
        };
        say!(
            "map shape: {} hexes half on the print{}{}, {} not on it{}{}; {what}; they are left out of the doubtful lists",
            shape.half.len(),
            if shape.half.is_empty() { "" } else { ": " },
            some_of(&shape.half),
            shape.off.len(),
            if shape.off.is_empty() { "" } else { ": " },
            some_of(&shape.off),
        );
    }
    let hexes: Vec<String> = report
        .terrain
        .doubtful
        .iter()
        .map(|d| d.hex.clone())
        .collect();
    say!(
        "terrain: {} hexes, {} with confidence below {doubtful_below}{}{}",
        report.terrain.hexes,
        hexes.len(),
        if hexes.is_empty() { "" } else { ": " },
        some_of(&hexes)
    );
    if let Some(h) = &report.hexsides {
        let names: Vec<String> = h
            .doubtful
            .iter()
            .map(|d| match &d.feature {
                Some(id) => format!("{}={id}", d.hexside),
                None => d.hexside.clone(),
            })
            .collect();
        say!(
            "hexsides: {} checked, {} with a feature, {} with confidence below {doubtful_below}{}{}",
            h.checked,
            h.with_a_feature,
            names.len(),
            if names.is_empty() { "" } else { ": " },
            some_of(&names)
        );
    }
    if let Some(p) = &report.paths {
        let names: Vec<String> = p
            .doubtful
            .iter()
            .map(|d| match &d.line {
                Some(id) => format!("{}={id}", d.hexside),
                None => d.hexside.clone(),
            })
            .collect();
        say!(
            "paths: {} hexsides checked, {} crossed by a line ({} paths written), {} with confidence below {doubtful_below}{}{}",
            p.checked,
            p.crossed,
            p.paths,
            names.len(),
            if names.is_empty() { "" } else { ": " },
            some_of(&names)
        );
    }
    say!("wrote {}", report.wrote);
}
