//! Hostile files, paths and writes against the real `bataille` binary, as a stranger's pull
//! request or a careless copy would bring them: FIFOs and devices where files are expected,
//! folder loops, `map:` paths aimed at secrets, links planted for the writer, truncated and
//! oversized images. Each run is under a time limit (the child is killed and the test fails
//! when it is reached) and an address-space limit (`ulimit -v`), so none of it can hang CI or
//! eat the machine; each asserts the exit code of the 0/1/2 contract and the message.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]
#![cfg(unix)]

use std::io::Read as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What a run gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// Address space allowed to the child, in KiB: a debug build of the command needs well under
/// this; reading `/dev/zero` to the end or decoding a 1.5 GB picture does not fit.
const MEMORY_KIB: u64 = 1_200_000;
/// Time allowed to the child.
const SECONDS: u64 = 60;

/// Runs the binary in `dir` under the time and memory limits, with extra environment.
fn run_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("run bataille");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(SECONDS) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("bataille {args:?} still running after {SECONDS} s: killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = String::from_utf8_lossy(&out.join().expect("stdout")).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().expect("stderr")).into_owned();
    let code = status.code().unwrap_or_else(|| {
        panic!("bataille {args:?} was killed by a signal ({status}); out of memory?\n{stderr}")
    });
    Run {
        code,
        stdout,
        stderr,
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    run_env(dir, args, &[])
}

#[track_caller]
fn expect(run: &Run, code: i32, says: &[&str]) {
    assert_eq!(
        run.code, code,
        "exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    for text in says {
        assert!(
            run.all().contains(text),
            "the output should say {text:?}\nstdout:\n{}\nstderr:\n{}",
            run.stdout,
            run.stderr
        );
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// A repository like a club's: `.git`, `scenarios/s.ron` (valid) and `maps/small.ron`.
struct Repo {
    _dir: tempfile::TempDir,
    /// The folder holding the repository (outside it: where secrets are planted).
    outside: PathBuf,
    root: PathBuf,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let outside = dir.path().to_path_buf();
        let root = outside.join("repo");
        for sub in [".git", "scenarios", "maps"] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        std::fs::copy(
            self::root().join("tests/fixtures/maps/small.ron"),
            root.join("maps/small.ron"),
        )
        .expect("copy map");
        std::fs::write(
            root.join("scenarios/s.ron"),
            scenario_with_map("../maps/small.ron"),
        )
        .expect("write scenario");
        Repo {
            _dir: dir,
            outside,
            root,
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    fn run(&self, args: &[&str]) -> Run {
        run(&self.root, args)
    }
}

/// The valid Fontenoy fixture with its `map:` replaced.
fn scenario_with_map(map: &str) -> String {
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/valid/fontenoy.ron")).expect("fixture");
    let written = "map: \"../maps/small.ron\"";
    assert!(text.contains(written), "the fixture names its map");
    text.replacen(
        written,
        &format!("map: {}", serde_json::to_string(map).expect("quote")),
        1,
    )
}

#[test]
fn the_repository_is_valid_to_start_with() {
    let repo = Repo::new();
    expect(&repo.run(&["validate", "."]), 0, &[]);
}

// ---------------------------------------------------------------- not a regular file

#[test]
fn a_fifo_given_on_the_command_line_is_refused_at_once_by_every_command() {
    let repo = Repo::new();
    mkfifo(&repo.path("x.ron"));
    mkfifo(&repo.path("x.png"));
    for args in [
        vec!["validate", "x.ron"],
        vec!["fmt", "x.ron"],
        vec!["fmt", "--check", "x.ron"],
        vec!["export", "--json", "x.ron"],
        vec!["render", "x.ron", "--out", "out.png"],
    ] {
        let run = repo.run(&args);
        expect(&run, 2, &["x.ron", "FIFO"]);
    }
    std::fs::write(repo.path("c.ron"), CALIBRATION).expect("write");
    std::fs::write(repo.path("s.ron"), SAMPLES).expect("write");
    let run = repo.run(&[
        "digitize",
        "x.png",
        "--calibration",
        "c.ron",
        "--samples",
        "s.ron",
        "--out",
        "m.ron",
    ]);
    expect(&run, 2, &["x.png", "FIFO"]);
    let run = repo.run(&[
        "digitize",
        "x.png",
        "--calibration",
        "x.ron",
        "--samples",
        "s.ron",
        "--out",
        "m.ron",
    ]);
    expect(&run, 2, &["x.ron", "FIFO"]);
    assert!(!repo.path("m.ron").exists());
}

#[test]
fn a_fifo_in_a_validated_folder_is_refused_and_the_rest_checked() {
    let repo = Repo::new();
    mkfifo(&repo.path("scenarios/x.ron"));
    let run = repo.run(&["validate", "."]);
    expect(&run, 2, &["scenarios/x.ron", "FIFO"]);
    let run = repo.run(&["fmt", "--check", "."]);
    expect(&run, 2, &["scenarios/x.ron", "FIFO"]);
}

#[test]
fn a_link_loop_or_a_dangling_link_in_a_validated_folder_is_reported_not_skipped() {
    let repo = Repo::new();
    symlink("loop-b.ron", &repo.path("scenarios/loop-a.ron"));
    symlink("loop-a.ron", &repo.path("scenarios/loop-b.ron"));
    let run = repo.run(&["validate", "."]);
    expect(&run, 2, &["scenarios/loop-a.ron", "symbolic links"]);
    let run = repo.run(&["fmt", "--check", "."]);
    expect(&run, 2, &["scenarios/loop-a.ron", "symbolic links"]);
    std::fs::remove_file(repo.path("scenarios/loop-b.ron")).expect("remove");
    let run = repo.run(&["validate", "."]);
    expect(&run, 2, &["scenarios/loop-a.ron"]);
}

#[test]
fn a_fifo_or_a_device_named_by_map_is_a_located_e0208() {
    let repo = Repo::new();
    mkfifo(&repo.path("maps/pipe.ron"));
    symlink("/dev/zero", &repo.path("maps/zero.ron"));
    // The link to /dev/zero leads outside the repository: refused for that by default, and
    // as a device when `--root /` lets it through.
    for (map, what, root) in [
        ("../maps/pipe.ron", "FIFO", None),
        ("../maps/zero.ron", "outside", None),
        ("../maps/zero.ron", "character device", Some("/")),
    ] {
        std::fs::write(repo.path("scenarios/s.ron"), scenario_with_map(map)).expect("write");
        let mut args = vec!["validate", "--format", "json", "scenarios/s.ron"];
        let mut render = vec!["render", "scenarios/s.ron", "--out", "out.png"];
        if let Some(root) = root {
            args.extend(["--root", root]);
            render.extend(["--root", root]);
        }
        let run = repo.run(&args);
        expect(&run, 1, &["E0208", what]);
        let diagnostics: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
        let e0208 = diagnostics
            .as_array()
            .expect("array")
            .iter()
            .find(|d| d["code"] == "E0208")
            .expect("E0208");
        assert_eq!(e0208["line"], 4, "at the `map:` line: {e0208}");
        let run = repo.run(&render);
        expect(&run, 1, &[what]);
    }
}

#[test]
fn dev_zero_as_a_file_is_refused_not_read_until_memory_runs_out() {
    let repo = Repo::new();
    symlink("/dev/zero", &repo.path("zero.ron"));
    for args in [
        vec!["validate", "zero.ron"],
        vec!["fmt", "zero.ron"],
        vec!["export", "--json", "zero.ron"],
        vec!["render", "zero.ron", "--out", "out.png"],
    ] {
        expect(&repo.run(&args), 2, &["zero.ron", "character device"]);
    }
    // In a folder: refused when read, the walk goes on.
    std::fs::rename(repo.path("zero.ron"), repo.path("scenarios/zero.ron")).expect("move");
    expect(
        &repo.run(&["validate", "."]),
        2,
        &["zero.ron", "character device"],
    );
}

// ---------------------------------------------------------------- folders

#[test]
fn links_to_the_folder_itself_neither_loop_nor_repeat_a_file() {
    let repo = Repo::new();
    std::fs::write(
        repo.path("scenarios/bad.ron"),
        "Map(\n    format_version: 1,\n    name: 12,\n)\n",
    )
    .expect("write");
    symlink(".", &repo.path("scenarios/again"));
    symlink(".", &repo.path("scenarios/and-again"));
    symlink("..", &repo.path("scenarios/up"));
    let run = repo.run(&["validate", "--format", "json", "."]);
    expect(&run, 1, &[]);
    let diagnostics: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let bad: Vec<_> = diagnostics
        .as_array()
        .expect("array")
        .iter()
        .filter(|d| d["file"].as_str().is_some_and(|f| f.ends_with("bad.ron")))
        .collect();
    assert_eq!(bad.len(), 1, "reported once: {bad:?}");
    let run = repo.run(&["fmt", "--check", "."]);
    let listed = run.all().lines().filter(|l| l.contains("bad.ron")).count();
    assert_eq!(listed, 1, "{}", run.all());
}

// ---------------------------------------------------------------- map: paths and leaks

const MARKER: &str = "SECRET-MARKER-7f3a9c";

#[test]
fn map_paths_cannot_reach_secrets_and_reports_never_quote_them() {
    let repo = Repo::new();
    // A secret beside the repository, and one inside it that is no map of ours.
    std::fs::write(repo.outside.join("passwd"), format!("root:{MARKER}:0:0\n")).expect("write");
    std::fs::write(repo.path("notes.txt"), format!("{MARKER}\n")).expect("write");
    let cases = [
        // Absolute paths are refused outright.
        ("/proc/self/environ", "absolute"),
        // Out of the repository, through `..`.
        ("../../passwd", "outside"),
        // Out of the repository, through a link inside it.
        ("../maps/link.ron", "outside"),
        // Inside the repository, but not a map: reported, never quoted.
        ("../notes.txt", "E0103"),
    ];
    symlink(repo.outside.join("passwd"), &repo.path("maps/link.ron"));
    for (map, says) in cases {
        std::fs::write(repo.path("scenarios/s.ron"), scenario_with_map(map)).expect("write");
        for format in ["human", "json", "github", "sarif"] {
            let run = run_env(
                &repo.root,
                &["validate", "--format", format, "scenarios/s.ron"],
                &[("BATAILLE_LEAK_TEST", MARKER)],
            );
            expect(&run, 1, &["E0208"]);
            if format == "human" {
                expect(&run, 1, &[says]);
            }
            assert!(
                !run.all().contains(MARKER),
                "{map} ({format}) leaked the secret:\n{}",
                run.all()
            );
        }
        let run = run_env(
            &repo.root,
            &["render", "scenarios/s.ron", "--out", "out.png"],
            &[("BATAILLE_LEAK_TEST", MARKER)],
        );
        expect(&run, 1, &[]);
        assert!(!run.all().contains(MARKER), "{}", run.all());
    }
    // `--root` widens the bound: the secret file is then read, refused, and still not quoted.
    std::fs::write(
        repo.path("scenarios/s.ron"),
        scenario_with_map("../../passwd"),
    )
    .expect("w");
    let outside = repo.outside.to_str().expect("utf-8");
    let run = repo.run(&["validate", "--root", outside, "scenarios/s.ron"]);
    expect(&run, 1, &["E0103", "passwd"]);
    assert!(!run.all().contains(MARKER), "{}", run.all());
}

#[test]
fn a_file_in_the_folder_linked_to_a_secret_is_not_quoted() {
    let repo = Repo::new();
    std::fs::write(repo.outside.join("secret"), format!("{MARKER}\n")).expect("write");
    symlink(
        repo.outside.join("secret"),
        &repo.path("scenarios/leak.ron"),
    );
    symlink("/proc/self/environ", &repo.path("scenarios/environ.ron"));
    let run = run_env(
        &repo.root,
        &["validate", "."],
        &[("BATAILLE_LEAK_TEST", MARKER)],
    );
    expect(&run, 1, &["leak.ron", "environ.ron", "E0103"]);
    assert!(!run.all().contains(MARKER), "{}", run.all());
}

// ---------------------------------------------------------------- writes

/// The small map, one terrain row moved out of canonical form (so `fmt` rewrites it).
fn uncanonical_map() -> String {
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/maps/small.ron")).expect("fixture");
    format!("{text}\n\n")
}

#[test]
fn fmt_writes_through_a_link_and_keeps_the_mode() {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.path("real")).expect("mkdir");
    std::fs::write(repo.path("real/m.ron"), uncanonical_map()).expect("write");
    symlink("real/m.ron", &repo.path("link.ron"));
    expect(&repo.run(&["fmt", "link.ron"]), 0, &["formatted"]);
    let link = std::fs::symlink_metadata(repo.path("link.ron")).expect("link");
    assert!(link.file_type().is_symlink(), "the link stays a link");
    expect(&repo.run(&["fmt", "--check", "real/m.ron"]), 0, &[]);

    for mode in [0o640, 0o444, 0o600] {
        let path = repo.path(&format!("m{mode:o}.ron"));
        std::fs::write(&path, uncanonical_map()).expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        expect(&repo.run(&["fmt", &name]), 0, &["formatted"]);
        let kept = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o7777;
        assert_eq!(kept, mode, "mode of {name}");
        expect(&repo.run(&["fmt", "--check", &name]), 0, &[]);
    }
}

#[test]
fn a_link_planted_at_the_old_temporary_name_is_not_followed() {
    let repo = Repo::new();
    let victim = repo.outside.join("victim");
    std::fs::write(&victim, "precious").expect("write");
    std::fs::write(repo.path("m.ron"), uncanonical_map()).expect("write");
    // The old writer used `.NAME.PID.tmp`: plant a link at every name the next processes get.
    let pid = std::process::id();
    for next in pid..pid + 2000 {
        symlink(&victim, &repo.path(&format!(".m.ron.{next}.tmp")));
    }
    expect(&repo.run(&["fmt", "m.ron"]), 0, &["formatted"]);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious"
    );
    let links = std::fs::read_dir(&repo.root)
        .expect("list")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        })
        .count();
    assert_eq!(
        links, 2000,
        "the planted links are left alone, nothing else is left behind"
    );
}

#[test]
fn fmt_refuses_to_write_a_canonical_form_over_64_mib() {
    let repo = Repo::new();
    // 33 MiB of tabs in `notes`: each is one byte in the file and two in the canonical form
    // (`\t`), so a file under the limit would be written over it, and every reader would then
    // refuse it. (Control characters that grow more are refused at load: E0123.)
    let text = uncanonical_map().replacen(
        "notes: \"",
        &format!("notes: \"{}", "\t".repeat(33 * 1024 * 1024)),
        1,
    );
    assert!(text.len() as u64 <= bataille_schema::io::MAX_FILE_BYTES);
    let path = repo.path("grows.ron");
    std::fs::write(&path, &text).expect("write");
    let run = repo.run(&["fmt", "grows.ron"]);
    expect(
        &run,
        2,
        &[
            "cannot write grows.ron",
            "the largest file the readers accept is 67108864 bytes, so it is not written",
        ],
    );
    assert!(
        std::fs::read(&path).expect("read") == text.as_bytes(),
        "byte-identical"
    );
    let left = std::fs::read_dir(&repo.root)
        .expect("list")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        })
        .count();
    assert_eq!(left, 0, "no temporary file left behind");
}

// `fmt` refusing to *write* text over 64 MiB is also tested in `bataille_schema::files`.

#[test]
fn fmt_refuses_a_file_over_64_mib_and_leaves_it_byte_identical() {
    let repo = Repo::new();
    // A map that would format (it is not canonical), padded with blanks past the limit: RON
    // ignores them, so only the size can be the reason for the refusal.
    let limit = bataille_schema::io::MAX_FILE_BYTES;
    let mut text = uncanonical_map().into_bytes();
    let padding = usize::try_from(limit).expect("64 MiB fits") + 1 - text.len();
    text.extend(std::iter::repeat_n(b' ', padding));
    let path = repo.path("huge.ron");
    std::fs::write(&path, &text).expect("write");
    let before = std::fs::metadata(&path).expect("meta");
    let started = Instant::now();
    let run = repo.run(&["fmt", "huge.ron"]);
    expect(
        &run,
        1,
        &[
            &format!("huge.ron is {} bytes", limit + 1),
            &format!("the largest file accepted is {limit} bytes"),
            "fmt never writes a file that would lose content: the file is left as it is",
        ],
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "refused at once, not parsed: {:?}",
        started.elapsed()
    );
    let after = std::fs::metadata(&path).expect("meta");
    assert_eq!(
        after.modified().expect("mtime"),
        before.modified().expect("mtime"),
        "not rewritten"
    );
    assert!(
        std::fs::read(&path).expect("read") == text,
        "byte-identical"
    );
    expect(
        &repo.run(&["fmt", "--check", "huge.ron"]),
        1,
        &["huge.ron is"],
    );
    let left = std::fs::read_dir(&repo.root)
        .expect("list")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        })
        .count();
    assert_eq!(left, 0, "no temporary file left behind");
}

// ---------------------------------------------------------------- exit codes

#[test]
fn every_command_exits_2_for_a_missing_input_and_says_why_once() {
    let repo = Repo::new();
    std::fs::write(repo.path("c.ron"), CALIBRATION).expect("write");
    std::fs::write(repo.path("s.ron"), SAMPLES).expect("write");
    for args in [
        vec!["validate", "missing.ron"],
        vec!["fmt", "missing.ron"],
        vec!["export", "--json", "missing.ron"],
        vec!["render", "missing.ron", "--out", "out.png"],
        vec![
            "digitize",
            "missing.png",
            "--calibration",
            "c.ron",
            "--samples",
            "s.ron",
            "--out",
            "m.ron",
        ],
        vec![
            "digitize",
            "missing.png",
            "--calibration",
            "missing.ron",
            "--samples",
            "s.ron",
            "--out",
            "m.ron",
        ],
    ] {
        let run = repo.run(&args);
        expect(&run, 2, &["missing."]);
        let cause = "No such file or directory";
        assert_eq!(
            run.stderr.matches(cause).count(),
            1,
            "{args:?}: the cause once:\n{}",
            run.stderr
        );
    }
    // A file that is there but wrong is 1, for every command that reads one.
    std::fs::write(
        repo.path("bad.ron"),
        "Map(\n    format_version: 1,\n    name: 12,\n)\n",
    )
    .expect("write");
    for args in [
        vec!["validate", "bad.ron"],
        vec!["fmt", "bad.ron"],
        vec!["export", "--json", "bad.ron"],
        vec!["render", "bad.ron", "--out", "out.png"],
    ] {
        expect(&repo.run(&args), 1, &["bad.ron"]);
    }
    // A bad option or an output that cannot be written is 2.
    expect(
        &repo.run(&["render", "maps/small.ron", "--out", "out.png", "--scale=-3"]),
        2,
        &["scale"],
    );
    expect(
        &repo.run(&["render", "maps/small.ron", "--out", "no/such/dir/out.png"]),
        2,
        &["out.png"],
    );
    std::fs::write(repo.path("file"), "").expect("write");
    expect(&repo.run(&["schema", "--out", "file"]), 2, &["file"]);
    expect(&repo.run(&["validate", "--bogus", "x"]), 2, &[]);
    // And a clean run is 0.
    expect(&repo.run(&["export", "--json", "maps/small.ron"]), 0, &[]);
    expect(
        &repo.run(&["render", "maps/small.ron", "--out", "out.png"]),
        0,
        &[],
    );
}

// ---------------------------------------------------------------- images

const CALIBRATION: &str = "Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: \"0101\", x: 10.0, y: 10.0), (hex: \"0401\", x: 70.0, y: 20.0), (hex: \"0104\", x: 10.0, y: 70.0), (hex: \"0404\", x: 70.0, y: 80.0)])";
const SAMPLES: &str = "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]})";

fn digitize(repo: &Repo, scan: &str) -> Run {
    std::fs::write(repo.path("c.ron"), CALIBRATION).expect("write");
    std::fs::write(repo.path("s.ron"), SAMPLES).expect("write");
    repo.run(&[
        "digitize",
        scan,
        "--calibration",
        "c.ron",
        "--samples",
        "s.ron",
        "--out",
        "m.ron",
    ])
}

/// A 200 × 150 picture with some detail (so its compressed data is long enough to cut).
fn picture() -> image::RgbImage {
    image::RgbImage::from_fn(200, 150, |x, y| {
        image::Rgb([
            (x * 7 % 256) as u8,
            (y * 13 % 256) as u8,
            ((x * y) % 256) as u8,
        ])
    })
}

#[test]
fn a_truncated_jpeg_or_png_is_refused_by_name() {
    let repo = Repo::new();
    let mut png = Vec::new();
    picture()
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png");
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
        .encode_image(&picture())
        .expect("jpeg");
    std::fs::write(repo.path("whole.png"), &png).expect("write");
    std::fs::write(repo.path("whole.jpg"), &jpeg).expect("write");
    for name in ["whole.png", "whole.jpg"] {
        let run = digitize(&repo, name);
        assert_eq!(run.code, 0, "{}", run.all());
    }
    std::fs::write(repo.path("cut.png"), &png[..png.len() / 2]).expect("write");
    std::fs::write(repo.path("cut.jpg"), &jpeg[..jpeg.len() / 2]).expect("write");
    // Cut just before the end marker: the picture is all there but the file is not.
    std::fs::write(repo.path("end.jpg"), &jpeg[..jpeg.len() - 2]).expect("write");
    std::fs::write(repo.path("end.png"), &png[..png.len() - 12]).expect("write");
    for name in ["cut.png", "cut.jpg", "end.jpg", "end.png"] {
        std::fs::remove_file(repo.path("m.ron")).ok();
        let run = digitize(&repo, name);
        expect(&run, 1, &[name, "truncated image"]);
        assert!(!repo.path("m.ron").exists(), "no map written from {name}");
    }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

/// A complete, well-formed PNG file (every chunk whole, CRCs right) that claims to be
/// `width × height` with the colour type and bit depth given; its pixel data is empty.
fn png_header(width: u32, height: u32, colour: u8, depth: u8) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[depth, colour, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    // An empty zlib stream.
    chunk(
        &mut out,
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

#[test]
fn a_12000_square_16_bit_rgba_png_is_refused_before_it_is_decoded() {
    let repo = Repo::new();
    // Colour type 6 (RGBA) at 16 bits: 8 bytes a pixel, 1.15 GB decoded, 1.58 GB with the
    // RGB copy: over the limit although within the 12,000 px a side.
    std::fs::write(repo.path("deep.png"), png_header(12_000, 12_000, 6, 16)).expect("write");
    let run = digitize(&repo, "deep.png");
    expect(&run, 1, &["deep.png", "Rgba16", "MiB"]);
    // Far larger than allowed: refused by its size.
    std::fs::write(repo.path("huge.png"), png_header(100_000, 100_000, 2, 8)).expect("write");
    expect(
        &digitize(&repo, "huge.png"),
        1,
        &["huge.png", "100000×100000"],
    );
}

/// A 16 × 16 PNG whose colour profile (iCCP) inflates to `inflated` bytes: zeros compressed
/// once in 1 MiB blocks (sync-flushed, so the blocks can be repeated) and the block repeated,
/// about 1 KB of file per MiB of profile.
fn iccp_bomb(inflated_mib: usize) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    let mut deflater = Compress::new(Compression::best(), false);
    let zeros = vec![0u8; 1 << 20];
    let mut block = Vec::with_capacity(8 << 10);
    deflater
        .compress_vec(&zeros, &mut block, FlushCompress::Sync)
        .expect("deflate");
    assert_eq!(deflater.total_in(), 1 << 20, "the whole MiB in one call");
    let mut end = Vec::with_capacity(64);
    deflater
        .compress_vec(&[], &mut end, FlushCompress::Finish)
        .expect("deflate");
    // zlib: header, the blocks, Adler-32 of n zeros (a = 1, b = n mod 65521).
    let n = (inflated_mib as u64) << 20;
    let mut profile = b"bomb\0\0".to_vec();
    profile.extend_from_slice(&[0x78, 0xda]);
    for _ in 0..inflated_mib {
        profile.extend_from_slice(&block);
    }
    profile.extend_from_slice(&end);
    profile.extend_from_slice(&((((n % 65521) as u32) << 16) | 1).to_be_bytes());
    let mut plain = Vec::new();
    image::RgbImage::from_pixel(16, 16, image::Rgb([200, 180, 140]))
        .write_to(
            &mut std::io::Cursor::new(&mut plain),
            image::ImageFormat::Png,
        )
        .expect("png");
    // The iCCP chunk goes right after IHDR (8 bytes of signature, 25 of IHDR).
    let mut out = plain[..33].to_vec();
    chunk(&mut out, b"iCCP", &profile);
    out.extend_from_slice(&plain[33..]);
    out
}

#[test]
fn a_colour_profile_bomb_as_a_maps_scan_costs_no_memory_in_any_command() {
    let repo = Repo::new();
    // 1.5 GiB of profile in a 1.5 MB file: more than the whole address space the runs get.
    let bomb = iccp_bomb(1536);
    assert!(bomb.len() < 4 << 20, "{} bytes", bomb.len());
    std::fs::write(repo.path("maps/bomb.png"), &bomb).expect("write");
    let map = std::fs::read_to_string(repo.path("maps/small.ron")).expect("map");
    let map = map.replacen(
        "    rows: [",
        "    background: (image: \"bomb.png\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    rows: [",
        1,
    );
    assert!(map.contains("bomb.png"), "the map names its scan");
    std::fs::write(repo.path("maps/small.ron"), map).expect("write");
    // Every command that reads the scan's pixels reads them and skips the profile: the
    // picture is used, the run ends at once, within the address space `ulimit -v` gives it
    // (1.2 GB: inflating the profile would abort the run, its exit code not 0).
    for (args, out) in [
        (
            vec!["export", "--vassal", "scenarios/s.ron", "--out", "s.vmod"],
            "s.vmod",
        ),
        (
            vec!["export", "--tiled", "maps/small.ron", "--out", "m.tmx"],
            "m.tmx",
        ),
    ] {
        let run = repo.run(&args);
        // Said, with the file, not dropped silently.
        expect(
            &run,
            0,
            &[
                out,
                "note: maps/bomb.png: the scan's colour profile",
                "skipped",
            ],
        );
        assert!(repo.path(out).exists(), "{args:?} wrote no {out}");
    }
    // The Tiled export's board is the scan resampled: a picture of the scan's colour.
    let board = image::open(repo.path("m-scan.png"))
        .expect("the Tiled board")
        .to_rgba8();
    assert!(
        board.pixels().any(|p| p.0 == [200, 180, 140, 255]),
        "the board shows the scan"
    );
    let run = digitize(&repo, "maps/bomb.png");
    expect(
        &run,
        0,
        &["maps/bomb.png: the scan's colour profile", "skipped"],
    );
    assert!(repo.path("m.ron").exists(), "digitize wrote no map");
    // The commands that do not draw the scan do not read it: clean.
    expect(&repo.run(&["validate", "scenarios/s.ron"]), 0, &[]);
    expect(
        &repo.run(&["render", "maps/small.ron", "--out", "out.png"]),
        0,
        &[],
    );
}

/// A scan's colour profile is never applied: every command that reads the scan says so, with
/// the scan's path (a PNG's iCCP, a JPEG's embedded profile); a scan without one, nothing.
#[test]
fn a_scans_colour_profile_is_said_not_applied_by_every_command_that_reads_it() {
    use image::ImageEncoder as _;
    let repo = Repo::new();
    let pixels = image::RgbImage::from_pixel(16, 16, image::Rgb([200, 180, 140]));
    let mut with_png = Vec::new();
    let mut encoder = image::codecs::png::PngEncoder::new(&mut with_png);
    encoder
        .set_icc_profile(vec![7; 3000])
        .expect("PNG takes a profile");
    encoder
        .write_image(pixels.as_raw(), 16, 16, image::ExtendedColorType::Rgb8)
        .expect("png");
    let mut with_jpeg = Vec::new();
    let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut with_jpeg, 90);
    encoder
        .set_icc_profile(vec![7; 3000])
        .expect("JPEG takes a profile");
    encoder
        .write_image(pixels.as_raw(), 16, 16, image::ExtendedColorType::Rgb8)
        .expect("jpeg");
    let mut plain = Vec::new();
    pixels
        .write_to(
            &mut std::io::Cursor::new(&mut plain),
            image::ImageFormat::Png,
        )
        .expect("png");
    let original = std::fs::read_to_string(repo.path("maps/small.ron")).expect("map");
    for (name, bytes, said) in [
        ("profiled.png", &with_png, true),
        ("profiled.jpg", &with_jpeg, true),
        ("plain.png", &plain, false),
    ] {
        std::fs::write(repo.path(&format!("maps/{name}")), bytes).expect("write");
        let map = original.replacen(
            "    rows: [",
            &format!("    background: (image: \"{name}\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    rows: ["),
            1,
        );
        std::fs::write(repo.path("maps/small.ron"), map).expect("write");
        let note =
            format!("maps/{name}: the scan's colour profile (ICC, 3000 bytes) is not applied");
        let runs = [
            repo.run(&["export", "--vassal", "scenarios/s.ron", "--out", "s.vmod"]),
            repo.run(&["export", "--tiled", "maps/small.ron", "--out", "m.tmx"]),
            digitize(&repo, &format!("maps/{name}")),
        ];
        for run in runs {
            assert_eq!(run.code, 0, "{name}: {}", run.all());
            assert_eq!(run.all().contains(&note), said, "{name}: {}", run.all());
            assert_eq!(
                run.all().contains("colour profile"),
                said,
                "{name}: {}",
                run.all()
            );
        }
    }
}
