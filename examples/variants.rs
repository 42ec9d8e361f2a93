//! Writes a battle with very many variants beside it, for the figure of `validate` on
//! variants (issue 19: each variant opened and validated its base again, 1,000 variants took
//! 47 s): `cargo run --example variants -- --count 1000 --out DIR` writes Denain 1712 (its
//! scenario, map and both miniatures systems) and 1,000 copies of its variant "Tingry sort
//! trop tard" (`DIR/scenarios/v0000.ron` …), each with its own name; then
//! `bataille validate DIR/scenarios/ DIR/maps/`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(about = "Write a Bataille battle with very many variants beside it")]
struct Args {
    /// Variants to write.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Output folder (created if missing).
    #[arg(long)]
    out: PathBuf,
}

const FILES: [(&str, &str); 5] = [
    (
        "scenarios/denain-1712.ron",
        include_str!("../scenarios/denain-1712.ron"),
    ),
    (
        "maps/denain-1712.ron",
        include_str!("../maps/denain-1712.ron"),
    ),
    (
        "systems/age-of-honor.ron",
        include_str!("../systems/age-of-honor.ron"),
    ),
    (
        "systems/louis-xiv.ron",
        include_str!("../systems/louis-xiv.ron"),
    ),
    (
        "scenarios/denain-1712-tingry-tard.ron",
        include_str!("../scenarios/denain-1712-tingry-tard.ron"),
    ),
];

fn main() -> ExitCode {
    let args = Args::parse();
    let write = |name: &str, text: &str| -> std::io::Result<()> {
        let path = args.out.join(name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(path, text)
    };
    let variant = FILES[4].1;
    let mut written = FILES
        .iter()
        .take(4)
        .try_for_each(|(name, text)| write(name, text));
    for i in 0..args.count {
        if written.is_err() {
            break;
        }
        let text = variant.replacen(
            "name: \"Tingry sort trop tard\"",
            &format!("name: \"Tingry sort trop tard {i}\""),
            1,
        );
        written = write(&format!("scenarios/v{i:04}.ron"), &text);
    }
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: cannot write into {}: {error}", args.out.display());
            ExitCode::FAILURE
        }
    }
}
