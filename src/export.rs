//! `bataille export --json FILE`: a map, scenario, variant or miniatures system as the JSON its schema
//! checks; `--vassal SCENARIO --out battle.vmod` and `--tiled MAP --out map.tmx`
//! (bataille-export, through `src/play.rs`).

use bataille_validator::door::Document;

use crate::Outcome;
use crate::cli::ExportArgs;

pub fn run(args: &ExportArgs) -> Outcome {
    let result = match (&args.json, &args.vassal, &args.tiled, &args.out) {
        (Some(path), _, _, _) => return crate::report(json(path, args.root.as_deref())),
        (None, Some(scenario), _, Some(out)) => {
            crate::play::run_vassal(scenario, out, args.root.as_deref())
        }
        (None, None, Some(map), Some(out)) => {
            crate::play::run_tiled(map, out, args.root.as_deref())
        }
        _ => {
            tell!(
                "error: say what to export: --json FILE, --vassal SCENARIO --out FILE or --tiled MAP --out FILE"
            );
            return Outcome::CouldNotRun;
        }
    };
    crate::report(result.map(|line| say!("{line}")))
}

/// The document the door admitted, as JSON on standard output: written straight to it, fields
/// in the order of the RON file, hidden characters escaped (no JSON tree of the whole document
/// in memory: for a big scenario, several times the file's size).
fn json(path: &std::path::Path, root: Option<&std::path::Path>) -> anyhow::Result<()> {
    let admitted = crate::door::admit(path, root)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match &admitted.document {
        Document::Map(map) => crate::terminal::write_json(&mut out, &map.map),
        // A variant's JSON is the variant's (what its schema checks), not the scenario resolved.
        Document::Scenario(scenario) => match &scenario.variant {
            Some(variant) => crate::terminal::write_json(&mut out, &variant.variant),
            None => crate::terminal::write_json(&mut out, &scenario.scenario),
        },
        Document::System(system) => crate::terminal::write_json(&mut out, &system.system),
    };
    let written = written.and_then(|()| std::io::Write::flush(&mut out));
    if let Err(error) = written {
        crate::terminal::quit_on_closed_pipe(&error);
        return Err(anyhow::Error::new(error).context(format!(
            "cannot write the JSON of {}",
            crate::files::display(path)
        )));
    }
    Ok(())
}
