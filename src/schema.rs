//! `bataille schema`: the JSON Schemas (map, scenario, miniatures system, variant), printed or written
//! to a folder.

use bataille_schema::DocumentKind;
use bataille_schema::json_schema::{file_stem, schema_text, schema_value};

use crate::Outcome;
use crate::cli::SchemaArgs;

pub fn run(args: &SchemaArgs) -> Outcome {
    let kinds = [
        DocumentKind::Map,
        DocumentKind::Scenario,
        DocumentKind::System,
        DocumentKind::Variant,
    ];
    match &args.out {
        Some(dir) => {
            if let Err(error) = bataille_schema::files::create_output_folder(dir) {
                tell!("error: {error}");
                return Outcome::CouldNotRun;
            }
            // All four or none: each staged beside its place, then all renamed (a folder where
            // one belongs left the others replaced and the set mixed).
            let mut outputs = bataille_schema::files::Outputs::new();
            let mut written = Vec::new();
            for kind in kinds {
                let path = dir.join(format!("{}.schema.json", file_stem(kind)));
                if let Err(error) = outputs.stage(&path, schema_text(kind).as_bytes()) {
                    tell!("error: nothing written: {error}");
                    return Outcome::CouldNotRun;
                }
                written.push(path);
            }
            if let Err(error) = outputs.commit() {
                tell!("error: {error}");
                return Outcome::CouldNotRun;
            }
            for path in written {
                tell!("wrote {}", crate::files::display(&path));
            }
            Outcome::Clean
        }
        None => {
            let mut all = serde_json::Map::new();
            for kind in kinds {
                all.insert(
                    format!("{}.schema.json", file_stem(kind)),
                    schema_value(kind),
                );
            }
            match crate::terminal::say_json(&serde_json::Value::Object(all)) {
                Ok(()) => Outcome::Clean,
                Err(error) => {
                    tell!("error: {error}");
                    Outcome::CouldNotRun
                }
            }
        }
    }
}
