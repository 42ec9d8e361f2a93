//! What the whole-process benchmarks share: the release `bataille` binary they measure.
//!
//! The benches live in their own package so that `cargo bench -p bataille-benches` builds
//! only what they measure: a bench of the root package builds its dev-dependencies too (the
//! editor and egui, in release: 24 minutes on the shared 2 cores).

#![allow(
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The release `bataille` binary, built (or found up to date) by cargo on first use: cargo
/// builds the `bataille` package's binary alone, without its tests' dependencies.
pub fn bataille() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .args([
                "build",
                "--release",
                "--package",
                "bataille",
                "--bin",
                "bataille",
                "--message-format=json-render-diagnostics",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("cargo builds the bataille binary");
        assert!(output.status.success(), "cargo could not build bataille");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "bataille")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the bataille executable it built")
    })
}
