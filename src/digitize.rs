//! `bataille digitize SCAN --calibration FILE --samples FILE --out MAP`: fits the grid to the
//! scan, suggests the terrain of every hex (and hexside features when samples name some) and
//! writes a map file with the background fit set.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use anyhow::{Context as _, anyhow};
use bataille_schema::map::{Background, FitKind};
use bataille_schema::{FORMAT_VERSION, Grid, HexIndex, HexsideRef, Id, Map, Side};

use bataille_digitize::GridMapping;
use bataille_digitize::calibrate::{CalibrationError, calibrate, check, min_points, start_kind};
use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, PathSamples, suggest_features, suggest_terrain,
};
use bataille_digitize::files::{read_calibration, read_samples};
use bataille_digitize::paths::paths_from_crossings_on;
use bataille_digitize::refine::{RefineOptions, calibrate_on_print};
use bataille_digitize::scan::{ScanLimits, load_scan, no_progress};
use bataille_digitize::shape::{self, Place};

mod report;
use report::{
    DoubtfulCrossing, DoubtfulHex, DoubtfulHexside, FitReport, HexsidesReport, PathsReport,
    PointReport, RefinementReport, Report, ShapeReport, TerrainReport, say_report,
};

/// The fit model, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FitArg {
    Similarity,
    Affine,
    Projective,
}

impl From<FitArg> for FitKind {
    fn from(value: FitArg) -> Self {
        match value {
            FitArg::Similarity => FitKind::Similarity,
            FitArg::Affine => FitKind::Affine,
            FitArg::Projective => FitKind::Projective,
        }
    }
}

/// What the command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for a person (long lists cut, saying how many more).
    Human,
    /// One JSON object with everything: the fit, the warnings, the map's shape, every doubtful
    /// hex and hexside.
    Json,
}

/// Fit a hex grid to a scanned map and suggest its terrain from the scan's colours.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The scan: PNG, JPEG or TIFF, at most 12,000 × 12,000 px.
    pub scan: PathBuf,
    /// The calibration file (RON: grid, fit kind, control points).
    #[arg(long)]
    pub calibration: PathBuf,
    /// The samples file (RON: legend, sample hexes per terrain code, sample hexsides).
    #[arg(long)]
    pub samples: PathBuf,
    /// The map file to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Use this fit instead of the calibration file's.
    #[arg(long, value_enum)]
    pub fit: Option<FitArg>,
    /// List the hexes and hexsides whose suggestion is less sure than this (0-1; above 1 lists
    /// them all).
    #[arg(long, default_value_t = bataille_digitize::classify::DOUBTFUL_BELOW, value_parser = parse_confidence)]
    pub doubtful_below: f32,
    /// Keep the clicks' own fit: do not refine the grid on the printed grid lines.
    #[arg(long)]
    pub no_refine: bool,
    /// Write the map's shape found on the print: the hexes half on it to `half_hexes`, and
    /// the last cells of the columns (rows) of one parity, when none is on the print, as
    /// `short_lines`. Without it the shape is only suggested.
    #[arg(long)]
    pub apply_shape: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// A confidence threshold: a number, 0 or more (above 1 lists every hex and hexside, as the
/// tests' `1.01` does). `NaN` was taken, and every comparison with it is false, so nothing was
/// listed and nothing said why.
fn parse_confidence(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(format!(
            "`{text}`: a confidence of 0 or more (1.01 lists everything)"
        )),
    }
}

fn empty_map(grid: &Grid) -> Map {
    Map {
        paths: Default::default(),
        short_lines: None,
        format_version: FORMAT_VERSION,
        name: String::new(),
        notes: None,
        grid: grid.clone(),
        metres_per_hex: None,
        terrain: BTreeMap::new(),
        overlay_types: BTreeMap::new(),
        hexside_types: BTreeMap::new(),
        rows: Vec::new(),
        overlays: BTreeMap::new(),
        hexsides: BTreeMap::new(),
        labels: BTreeMap::new(),
        friendly_edges: BTreeMap::new(),
        checked: Vec::new(),
        background: None,
        half_hexes: Vec::new(),
        allow: Vec::new(),
    }
}

/// The kind's word in a sentence ("a similarity fit").
fn start_word(kind: FitKind) -> &'static str {
    match kind {
        FitKind::Similarity => "similarity",
        FitKind::Affine => "affine",
        FitKind::Projective => "projective",
    }
}

fn kind_name(kind: FitKind) -> String {
    format!("{kind:?}")
}

/// Runs the command, printing a summary to standard output.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let calibration = read_calibration(&args.calibration)?;
    let samples = read_samples(&args.samples)?;
    let grid = calibration.grid.clone();
    let kind = args.fit.map_or(calibration.fit, FitKind::from);
    let mut report = Report::default();
    // The clicks' fit and check first: a calibration that cannot be fitted is reported
    // before the scan is read. Refined on the print, two clicks are enough to start any kind
    // (a similarity; the print then fits the kind asked, issue 20); without the print the
    // clicks must fix the kind asked.
    let start = if args.no_refine {
        kind
    } else {
        start_kind(kind, calibration.points.len())
    };
    let clicks_fit = calibrate(&grid, &calibration.points, start)
        .map_err(|e| match e {
            CalibrationError::TooFewPoints { .. } if args.no_refine && start_kind(kind, calibration.points.len()) != kind => {
                anyhow!("{e}: two are enough when the grid is refined on the print (without --no-refine)")
            }
            e => e.into(),
        })
        .with_context(|| format!("fitting {}", args.calibration.display()))?;
    // The clicks' own check: a click the others outvote, a richer kind of fit they ask for
    // (then the print refines that kind: a keystoned photo is not affine).
    let checked = check(&grid, &calibration.points, start)
        .with_context(|| format!("checking {}", args.calibration.display()))?;
    if let Some(advice) = &checked.kind_advice {
        let flag = start_word(advice.better);
        report
            .warnings
            .push(format!("{} (--fit {flag})", advice.message()));
    }
    let refine_kind = checked.kind_advice.as_ref().map_or(kind, |a| a.better);
    let scan = load_scan(&args.scan, &ScanLimits::default(), &no_progress)
        .with_context(|| format!("the scan {}", args.scan.display()))?;
    if let Some(profile) = &scan.profile {
        report.warnings.push(format!(
            "{}: {}",
            crate::files::display(&args.scan),
            profile.note()
        ));
    }
    let refined = if args.no_refine {
        None
    } else {
        Some(
            calibrate_on_print(
                &scan,
                &grid,
                &calibration.points,
                refine_kind,
                &RefineOptions::default(),
            )
            .with_context(|| format!("fitting {}", args.calibration.display()))?,
        )
    };
    report.fit = FitReport {
        kind: kind_name(start),
        rms_px: clicks_fit.rms_px,
        points: calibration
            .points
            .iter()
            .zip(&clicks_fit.residuals_px)
            .map(|(p, r)| PointReport {
                hex: p.hex.to_string(),
                residual_px: *r,
            })
            .collect(),
    };
    let refinement = refined.as_ref().and_then(|c| c.refinement.as_ref().ok());
    let (mapping, fit_kind) = match (&refined, refinement) {
        (Some(c), Some(r)) => {
            report.refinement = Some(RefinementReport {
                kind: kind_name(r.kind),
                sides_with_a_line: r.lines_found,
                sides_probed: r.sides_probed,
                rms_px: r.rms_px,
                local_correction: r.mapping.warp.is_some(),
                own_centres: r
                    .mapping
                    .hex_shifts
                    .as_ref()
                    .map_or(0, |s| s.iter().filter(|d| **d != [0.0, 0.0]).count()),
            });
            // Each click judged against the print.
            for click in c.clicks.iter().filter(|c| c.suspect) {
                report.warnings.push(click.message());
            }
            // The print's fit with its local correction (a bow, a lens): the scan is read
            // with both; the map file keeps the global matrix.
            (c.mapping(), c.kind())
        }
        (refined, _) => {
            if let Some(Err(why)) = refined.as_ref().map(|c| &c.refinement) {
                report.warnings.push(format!(
                    "not refined on the print: {why}; the clicks' fit stands"
                ));
            }
            if let Some(suspect) = &checked.suspect {
                report.warnings.push(suspect.message());
            }
            if start != kind {
                let more = min_points(kind).saturating_sub(calibration.points.len());
                report.warnings.push(format!(
                    "the clicks' fit is {} ({} clicks): click {more} more hex {} for the {} fit",
                    start_word(start),
                    calibration.points.len(),
                    if more == 1 { "centre" } else { "centres" },
                    start_word(kind)
                ));
            }
            (GridMapping::global(clicks_fit.grid_to_image), start)
        }
    };
    // The map's shape: which hexes are on the print.
    let shape = match refinement {
        Some(r) => shape::from_printed_sides(
            &grid,
            &r.printed_sides,
            &|i| r.centre(&grid, i),
            scan.width(),
            scan.height(),
        ),
        None => shape::from_scan_bounds(&grid, &mapping.matrix, scan.width(), scan.height()),
    };
    let half: Vec<HexIndex> = shape.hexes(&grid, Place::Half);
    let off: Vec<HexIndex> = shape.hexes(&grid, Place::Off);
    let missing: BTreeSet<HexIndex> = half.iter().chain(&off).copied().collect();
    let file_shape = shape.for_file(&grid);
    let short_lines = file_shape.short_lines;
    report.shape = ShapeReport {
        half: half.iter().map(|i| grid.name(*i).to_string()).collect(),
        off: off.iter().map(|i| grid.name(*i).to_string()).collect(),
        short_lines: short_lines.map(|p| format!("{p:?}")),
        written: args.apply_shape,
    };
    let on_print = |i: HexIndex| !missing.contains(&i);

    // Each sampled hex or hexside a name of this grid, a refusal located at its place in the
    // samples file (`s.ron:3:41`), as the file's own errors are.
    let at = |field: &str, key: &str, k: usize, error: bataille_schema::NameError| {
        let pointer = match key {
            "" => format!("/{field}/{k}"),
            key => format!(
                "/{field}/{}/{k}",
                bataille_digitize::files::pointer_token(key)
            ),
        };
        anyhow::Error::new(bataille_digitize::files::located(
            &args.samples,
            &pointer,
            error.to_string(),
        ))
    };
    let sides = |field: &str, key: &str, refs: &[HexsideRef]| {
        refs.iter()
            .enumerate()
            .map(|(k, text)| {
                grid.parse_hexside(text.as_str())
                    .map_err(|error| at(field, key, k, error))
            })
            .collect::<anyhow::Result<Vec<(HexIndex, Side)>>>()
    };
    let mut terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    for (code, hexes) in &samples.samples {
        let list = hexes
            .iter()
            .enumerate()
            .map(|(k, h)| {
                grid.parse(h.as_str())
                    .map_err(|error| at("samples", code, k, error))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        terrain_samples.insert(code.clone(), list);
    }
    let options = ClassifyOptions::default();
    let mut terrain = suggest_terrain(&scan, &grid, &mapping, &terrain_samples, &options)?;
    let mut hexsides: BTreeMap<Id, Vec<HexsideRef>> = BTreeMap::new();
    let mut paths: BTreeMap<Id, Vec<String>> = BTreeMap::new();
    let mut overlays: BTreeMap<bataille_schema::HexName, Vec<Id>> = BTreeMap::new();
    let mut path_samples = PathSamples::default();
    for (id, refs) in &samples.path_samples {
        let list = sides("path_samples", id.as_str(), refs)?;
        path_samples.lines.insert(id.clone(), list);
    }
    if !samples.hexside_samples.is_empty() || !path_samples.is_empty() {
        let mut hexside_samples = HexsideSamples::default();
        for (id, refs) in &samples.hexside_samples {
            let list = sides("hexside_samples", id.as_str(), refs)?;
            hexside_samples.features.insert(id.clone(), list);
        }
        hexside_samples.plain = sides("plain_hexsides", "", &samples.plain_hexsides)?;
        let hexside_samples = hexside_samples.with_legend(&samples.hexside_types, &samples.terrain);
        // The one pass the editor runs too: hexside features, the hexes crowded by the
        // printed lines judged again once the lines' inks are masked, and the lines drawn
        // through the hexes.
        let found = suggest_features(
            &scan,
            &grid,
            &mapping,
            &terrain,
            &hexside_samples,
            &path_samples,
            &options,
            &no_progress,
        )?;
        terrain = found.terrain;
        // Hexsides with a hex off the print are not suggested.
        let both_on_print = |index: HexIndex, side: Side| {
            on_print(index) && grid.neighbour(index, side).is_none_or(on_print)
        };
        if !samples.hexside_samples.is_empty() {
            let suggestions: Vec<_> = found
                .hexsides
                .into_iter()
                .filter(|s| both_on_print(s.index, s.side))
                .collect();
            for s in &suggestions {
                if let Some(id) = &s.feature {
                    hexsides
                        .entry(id.clone())
                        .or_default()
                        .push(grid.hexside_ref(s.index, s.side));
                }
            }
            report.hexsides = Some(HexsidesReport {
                checked: suggestions.len(),
                with_a_feature: hexsides.values().map(Vec::len).sum(),
                doubtful: suggestions
                    .iter()
                    .filter(|s| !s.marked && s.confidence < args.doubtful_below)
                    .map(|s| DoubtfulHexside {
                        hexside: grid.hexside_ref(s.index, s.side).to_string(),
                        feature: s.feature.as_ref().map(ToString::to_string),
                        confidence: s.confidence,
                    })
                    .collect(),
            });
        }
        if !path_samples.is_empty() {
            // A line crossing from a hex on the print into one that is not (half on it, or
            // beyond its edge) leaves the printed map there: its path ends by that hexside.
            let crossings: Vec<_> = found
                .crossings
                .unwrap_or_default()
                .into_iter()
                .filter(|c| {
                    on_print(c.index) || grid.neighbour(c.index, c.side).is_some_and(on_print)
                })
                .collect();
            if crossings.is_empty() {
                report.warnings.push(
                    "no line through the hexes was traced: the marked crossings show no ink apart from the hexes' colours and the grid line's; mark crossings where the road is drawn clearly".to_owned(),
                );
            }
            // Each line's crossings, written as paths of neighbouring hexes; the hexes they
            // pass through carry the overlay.
            let mut by_line: BTreeMap<Id, BTreeSet<(HexIndex, Side)>> = BTreeMap::new();
            for c in &crossings {
                if let Some(id) = &c.line {
                    by_line
                        .entry(id.clone())
                        .or_default()
                        .insert((c.index, c.side));
                }
            }
            for (id, crossed) in &by_line {
                let written = paths_from_crossings_on(&grid, crossed, &on_print);
                for hex in bataille_digitize::paths::hexes_of_paths(&grid, &written) {
                    overlays.entry(grid.name(hex)).or_default().push(id.clone());
                }
                paths.insert(id.clone(), written);
            }
            report.paths = Some(PathsReport {
                checked: crossings.len(),
                crossed: by_line.values().map(BTreeSet::len).sum(),
                paths: paths.values().map(Vec::len).sum(),
                doubtful: crossings
                    .iter()
                    .filter(|c| !c.marked && c.confidence < args.doubtful_below)
                    .map(|c| DoubtfulCrossing {
                        hexside: grid.hexside_ref(c.index, c.side).to_string(),
                        line: c.line.as_ref().map(ToString::to_string),
                        confidence: c.confidence,
                    })
                    .collect(),
            });
        }
    }
    let fallback = samples
        .samples
        .keys()
        .chain(samples.terrain.keys())
        .find_map(|code| code.chars().next())
        .ok_or_else(|| anyhow!("{}: the legend is empty", args.samples.display()))?;
    let mut rows = terrain.rows(&grid, fallback);
    report.terrain = TerrainReport {
        hexes: terrain.hexes.iter().filter(|s| on_print(s.index)).count(),
        doubtful: terrain
            .hexes
            .iter()
            .filter(|s| on_print(s.index) && s.confidence < args.doubtful_below)
            .map(|s| DoubtfulHex {
                hex: grid.name(s.index).to_string(),
                code: s.code.clone(),
                confidence: s.confidence,
            })
            .collect(),
    };
    let name = samples.name.clone().unwrap_or_else(|| {
        // A file name may hold what no name may (a control character: left out) and be
        // longer than a map's name may be (255 bytes against the schema's 200 characters,
        // schema/src/map.rs: cut), so the name it gives never makes the map refused.
        args.scan
            .file_stem()
            .map(|s| {
                s.to_string_lossy()
                    .chars()
                    .filter(|c| !bataille_schema::markup::unprintable(*c))
                    .take(MAP_NAME_MOST)
                    .collect::<String>()
            })
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| "Digitised map".to_owned())
    });
    let mut map = Map {
        name,
        terrain: samples.terrain.clone(),
        hexside_types: samples.hexside_types.clone(),
        hexsides,
        overlay_types: samples.overlay_types.clone(),
        paths,
        overlays,
        background: Some(Background {
            // As the editor's Save names a scan: relative to the map's folder.
            image: bataille_schema::paths::reference_from(&args.out, &args.scan),
            fit: fit_kind,
            grid_to_image: mapping.matrix,
            control_points: calibration.points.clone(),
        }),
        ..empty_map(&grid)
    };
    if args.apply_shape {
        match short_lines {
            Some(parity) => {
                map.short_lines = Some(parity);
                for i in &missing {
                    if let Some(row) = rows.get_mut(i.row as usize) {
                        *row = row
                            .chars()
                            .enumerate()
                            .map(|(c, ch)| if c == i.col as usize { ' ' } else { ch })
                            .collect();
                    }
                }
            }
            None => map.half_hexes = file_shape.half_hexes,
        }
    }
    map.rows = rows;
    map.canonicalize();
    let text = bataille_schema::io::map_into_string(map)
        .with_context(|| format!("writing {}", args.out.display()))?;
    check_legend(&text, args)?;
    // Never over the scan, the calibration or the samples it read.
    let mut outputs =
        bataille_schema::files::Outputs::guarding([&args.scan, &args.calibration, &args.samples]);
    outputs.stage(&args.out, text.as_bytes())?;
    outputs.commit()?;
    report.wrote = crate::files::display(&args.out).to_string();
    match args.format {
        Format::Human => say_report(&report, args.doubtful_below),
        Format::Json => crate::terminal::say_json(&report)
            .map_err(|error| anyhow::Error::new(error).context("cannot write the report"))?,
    }
    Ok(())
}

/// The longest map name the schema allows (`Map::name`, 200 characters).
const MAP_NAME_MOST: usize = 200;

/// digitize never writes a map that the door refuses for what the samples file gave it: the
/// map's name and legend (terrain and hexside types: names, colours, codes) go through the
/// door's checks before anything is written, and a refusal is located in the samples file,
/// whose legend has the map's shape (`/terrain/c/colour` there as in the map). A legend colour
/// `"/><script>…` or a name beyond the shared length made a map that `validate` refused.
fn check_legend(text: &str, args: &Args) -> anyhow::Result<()> {
    let report = bataille_validator::validate_source(
        bataille_schema::SourceFile::new(&args.out, text.to_owned()),
        &bataille_validator::Options::default(),
    );
    let from_samples = |pointer: &str| {
        ["/name", "/terrain", "/hexside_types", "/overlay_types"]
            .iter()
            .any(|field| {
                pointer
                    .strip_prefix(field)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
    };
    let refused = report.diagnostics.iter().find(|d| {
        d.severity == bataille_validator::Severity::Error && d.code.group() == "structure"
    });
    match refused {
        None => Ok(()),
        Some(d) if !from_samples(&d.pointer) => Err(anyhow!(
            "{}: the map would be refused, so it is not written: {}",
            crate::files::display(&args.out),
            d.message
        )),
        Some(d) => Err(bataille_digitize::files::located(
            &args.samples,
            &d.pointer,
            format!(
                "{} (the samples file gives the map its name and legend: the map would be refused, so it is not written)",
                d.message
            ),
        )
        .into()),
    }
}
