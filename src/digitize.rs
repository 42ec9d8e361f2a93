//! `bataille digitize SCAN --calibration FILE --samples FILE --out MAP`: fits the grid to the
//! scan, suggests the terrain of every hex (and hexside features when samples name some) and
//! writes a map file with the background fit set.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context as _, anyhow};
use bataille_schema::map::{Background, FitKind};
use bataille_schema::{FORMAT_VERSION, HexIndex, HexsideRef, Id, Map, Side};

use bataille_digitize::calibrate::{calibrate, check};
use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, mask_line_inks, suggest_hexsides_with_inks, suggest_terrain,
};
use bataille_digitize::files::{read_calibration, read_samples};
use bataille_digitize::scan::{ScanLimits, load_scan, no_progress};

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
    /// List the hexes and hexsides whose suggestion is less sure than this (0-1).
    #[arg(long, default_value_t = bataille_digitize::classify::DOUBTFUL_BELOW)]
    pub doubtful_below: f32,
}

/// Runs the command, printing a summary to standard output.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let calibration = read_calibration(&args.calibration)?;
    let samples = read_samples(&args.samples)?;
    let grid = calibration.grid.clone();
    let kind = args.fit.map_or(calibration.fit, FitKind::from);
    let fit = calibrate(&grid, &calibration.points, kind)
        .with_context(|| format!("fitting {}", args.calibration.display()))?;
    say!(
        "fit: {kind:?} over {} points, RMS {:.2} px",
        calibration.points.len(),
        fit.rms_px
    );
    for (point, residual) in calibration.points.iter().zip(&fit.residuals_px) {
        say!("  {}: {residual:.2} px", point.hex);
    }
    let checked = check(&grid, &calibration.points, kind)
        .with_context(|| format!("checking {}", args.calibration.display()))?;
    if let Some(suspect) = &checked.suspect {
        say!("warning: {}", suspect.message());
    }
    if let Some(advice) = &checked.kind_advice {
        let flag = match advice.better {
            FitKind::Projective => "projective",
            FitKind::Affine => "affine",
            FitKind::Similarity => "similarity",
        };
        say!("warning: {} (--fit {flag})", advice.message());
    }
    let scan = load_scan(&args.scan, &ScanLimits::default(), &no_progress)
        .with_context(|| format!("the scan {}", args.scan.display()))?;
    let parse_hex = |name: &str| {
        grid.parse(name)
            .map_err(|error| anyhow!("{}: {error}", args.samples.display()))
    };
    let parse_side = |text: &HexsideRef| -> anyhow::Result<(HexIndex, Side)> {
        grid.parse_hexside(text.as_str())
            .map_err(|error| anyhow!("{}: {error}", args.samples.display()))
    };
    let mut terrain_samples: BTreeMap<String, Vec<HexIndex>> = BTreeMap::new();
    for (code, hexes) in &samples.samples {
        let list = hexes
            .iter()
            .map(|h| parse_hex(h.as_str()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        terrain_samples.insert(code.clone(), list);
    }
    let options = ClassifyOptions::default();
    let mut terrain =
        suggest_terrain(&scan, &grid, &fit.grid_to_image, &terrain_samples, &options)?;
    let mut hexsides: BTreeMap<Id, Vec<HexsideRef>> = BTreeMap::new();
    let mut hexside_report = None;
    if !samples.hexside_samples.is_empty() {
        let mut hexside_samples = HexsideSamples::default();
        for (id, refs) in &samples.hexside_samples {
            let list = refs
                .iter()
                .map(&parse_side)
                .collect::<anyhow::Result<Vec<_>>>()?;
            hexside_samples.features.insert(id.clone(), list);
        }
        hexside_samples.plain = samples
            .plain_hexsides
            .iter()
            .map(&parse_side)
            .collect::<anyhow::Result<Vec<_>>>()?;
        let hexside_samples = hexside_samples.with_legend(&samples.hexside_types, &samples.terrain);
        let (suggestions, inks) = suggest_hexsides_with_inks(
            &scan,
            &grid,
            &fit.grid_to_image,
            &terrain,
            &hexside_samples,
            &options,
        )?;
        // The hexes crowded by the printed lines, judged again from what is left once the
        // lines' inks are masked.
        terrain = mask_line_inks(&scan, &grid, &fit.grid_to_image, &terrain, &inks, &options);
        for s in &suggestions {
            if let Some(id) = &s.feature {
                hexsides
                    .entry(id.clone())
                    .or_default()
                    .push(grid.hexside_ref(s.index, s.side));
            }
        }
        let count: usize = hexsides.values().map(Vec::len).sum();
        let doubtful: Vec<String> = suggestions
            .iter()
            .filter(|s| !s.marked && s.confidence < args.doubtful_below)
            .map(|s| {
                let name = grid.hexside_ref(s.index, s.side);
                match &s.feature {
                    Some(id) => format!("{name}={id}"),
                    None => name.to_string(),
                }
            })
            .collect();
        hexside_report = Some(format!(
            "hexsides: {} checked, {count} with a feature, {} with confidence below {}{}{}",
            suggestions.len(),
            doubtful.len(),
            args.doubtful_below,
            if doubtful.is_empty() { "" } else { ": " },
            doubtful
                .iter()
                .take(60)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    let fallback = samples
        .samples
        .keys()
        .chain(samples.terrain.keys())
        .find_map(|code| code.chars().next())
        .ok_or_else(|| anyhow!("{}: the legend is empty", args.samples.display()))?;
    let rows = terrain.rows(&grid, fallback);
    let doubtful: Vec<String> = terrain
        .hexes
        .iter()
        .filter(|s| s.confidence < args.doubtful_below)
        .map(|s| grid.name(s.index).to_string())
        .collect();
    say!(
        "terrain: {} hexes, {} with confidence below {}{}{}",
        terrain.hexes.len(),
        doubtful.len(),
        args.doubtful_below,
        if doubtful.is_empty() { "" } else { ": " },
        doubtful
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    );
    if let Some(report) = hexside_report {
        say!("{report}");
    }
    let name = samples.name.clone().unwrap_or_else(|| {
        args.scan
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "Digitised map".to_owned())
    });
    let out_dir = args.out.parent().unwrap_or_else(|| Path::new(""));
    let mut map = Map {
        paths: Default::default(),
        short_lines: None,
        format_version: FORMAT_VERSION,
        name,
        notes: None,
        grid,
        metres_per_hex: None,
        terrain: samples.terrain.clone(),
        overlay_types: BTreeMap::new(),
        hexside_types: samples.hexside_types.clone(),
        rows,
        overlays: BTreeMap::new(),
        hexsides,
        labels: BTreeMap::new(),
        friendly_edges: BTreeMap::new(),
        checked: Vec::new(),
        background: Some(Background {
            image: relative_path(&args.scan, out_dir),
            fit: kind,
            grid_to_image: fit.grid_to_image,
            control_points: calibration.points.clone(),
        }),
        half_hexes: Vec::new(),
        allow: Vec::new(),
    };
    map.canonicalize();
    let text = bataille_schema::io::map_into_string(map)
        .with_context(|| format!("writing {}", args.out.display()))?;
    // Never over the scan, the calibration or the samples it read.
    let mut outputs =
        bataille_schema::files::Outputs::guarding([&args.scan, &args.calibration, &args.samples]);
    outputs.stage(&args.out, text.as_bytes())?;
    outputs.commit()?;
    say!("wrote {}", crate::files::display(&args.out));
    Ok(())
}

/// `path` relative to the directory `base` (both taken from the current directory when
/// relative), with `/` separators; the absolute path when there is no relative one.
fn relative_path(path: &Path, base: &Path) -> String {
    let absolute = |p: &Path| -> PathBuf {
        let p = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
    };
    let (path, base) = (absolute(path), absolute(base));
    let a: Vec<Component> = path.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.to_string_lossy().replace('\\', "/");
    }
    let mut parts: Vec<String> = Vec::new();
    for _ in common..b.len() {
        parts.push("..".to_owned());
    }
    for c in &a[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let dir = std::env::temp_dir();
        let scan = dir.join("scan.png");
        assert_eq!(relative_path(&scan, &dir), "scan.png");
        let sub = dir.join("maps");
        assert_eq!(relative_path(&scan, &sub), "../scan.png");
    }
}
