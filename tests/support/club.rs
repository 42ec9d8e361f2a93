//! A club's repository for the hostile rounds (issue 19): Denain's scenario, map, variants and
//! both miniatures systems in a folder holding a secret outside the repository, and the real
//! `bataille` binary run there under a memory and a time limit. Included by path by the test
//! files that use it (`#[path = "support/club.rs"] mod club;`); each uses part of it.

#![allow(
    dead_code,
    reason = "each hostile round's test file uses part of the club"
)]

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use super::support;

pub const SCENARIO: &str = "scenarios/denain-1712.ron";
pub const MAP: &str = "maps/denain-1712.ron";
pub const SYSTEM: &str = "systems/age-of-honor.ron";
/// What `secret.ron`, outside the repository, holds: no output may quote it.
pub const SECRET: &str = "SECRET-MARKER-77c3";

/// What a run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// A club's repository inside a folder that holds a secret outside it.
pub struct Club {
    _dir: tempfile::TempDir,
    pub outside: PathBuf,
    pub root: PathBuf,
}

impl Club {
    pub fn new() -> Club {
        let dir = tempfile::tempdir().expect("temp dir");
        let outside = dir.path().to_path_buf();
        let root = outside.join("repo");
        let source = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        for sub in [".git", "scenarios", "maps", "systems"] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        for file in [
            SCENARIO,
            "scenarios/denain-1712-tingry-tard.ron",
            "scenarios/denain-1712-camp-renforce.ron",
            MAP,
            SYSTEM,
            "systems/louis-xiv.ron",
        ] {
            std::fs::copy(source.join(file), root.join(file)).expect("copy");
        }
        std::fs::write(outside.join("secret.ron"), format!("Map({SECRET})\n")).expect("secret");
        Club {
            _dir: dir,
            outside,
            root,
        }
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).expect("read")
    }

    pub fn write(&self, relative: &str, bytes: impl AsRef<[u8]>) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }

    /// Replaces the first `old` of a file with `new` (which must be there).
    #[track_caller]
    pub fn edit(&self, relative: &str, old: &str, new: &str) {
        let text = self.read(relative);
        assert!(text.contains(old), "{relative} holds {old:?}");
        self.write(relative, text.replacen(old, new, 1));
    }

    /// `sh -c SCRIPT` in the repository, the binary as `$B`, under 3 GB of address space and
    /// killed after 60 s (a hang is a failure).
    pub fn shell(&self, script: &str) -> Run {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -v 3000000; {script}"))
            .env("B", env!("CARGO_BIN_EXE_bataille"))
            .current_dir(&self.root);
        let output = support::output_within(command, Duration::from_secs(60));
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// The binary with `args`; the run must keep the 0/1/2 contract, without a panic or abort.
    #[track_caller]
    pub fn run(&self, args: &[&str]) -> Run {
        let quoted: Vec<String> = args
            .iter()
            .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
            .collect();
        let run = self.shell(&format!("exec \"$B\" {}", quoted.join(" ")));
        assert!(
            (0..=2).contains(&run.code),
            "{args:?}: exit {}\n{}",
            run.code,
            run.all()
        );
        for abort in ["panicked", "memory allocation", "RUST_BACKTRACE"] {
            assert!(!run.all().contains(abort), "{args:?}:\n{}", run.all());
        }
        run
    }

    pub fn table(&self, out: &str, extra: &[&str]) -> Run {
        let mut args = vec!["table", SCENARIO, "--system", "age-of-honor", "--out", out];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    /// The diagnostics of `validate --format json` on `paths`.
    pub fn diagnostics(&self, paths: &[&str]) -> Vec<serde_json::Value> {
        let mut args = vec!["validate", "--format", "json"];
        args.extend_from_slice(paths);
        let run = self.run(&args);
        serde_json::from_str(&run.stdout).expect("validate's JSON")
    }

    /// The map with a background scan `name` (beside the map).
    pub fn with_scan(&self, name: &str, bytes: &[u8]) {
        self.write(&format!("maps/{name}"), bytes);
        self.edit(
            MAP,
            "    grid:",
            &format!("    background: (image: \"{name}\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:"),
        );
    }
}
