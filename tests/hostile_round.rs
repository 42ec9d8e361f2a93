//! A second round of hostile inputs (issue 19), written after the doors were built, against the
//! real `bataille` binary on a club's repository (Denain: its scenario, map, variants and both
//! miniatures systems). One test per class of the issue; each class is tried through several
//! surfaces, every run under an address-space limit (`ulimit -v`, 3 GB) and a time limit, and
//! every run must end inside the 0/1/2 contract with no panic or abort. The inputs are made here
//! (the big ones at test time); the round's tally is in the README ("Untrusted files"). The
//! club and its guarded runner are shared with the third round (`support/club.rs`).
//! Longer than 600 lines: one test per class of the issue, each a few surfaces long.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/club.rs"]
mod club;
mod support;

use std::path::Path;
use std::process::Command;

use club::{Club, MAP, Run, SCENARIO, SECRET};

/// OSC (window title) and CSI (clear screen) sequences.
const ESCAPES: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J";

/// Diagnostics of `validate --format json`.
fn diagnostics(run: &Run) -> Vec<serde_json::Value> {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}:\n{}", run.all()))
}

fn codes_about(run: &Run, subject: &str) -> Vec<String> {
    diagnostics(run)
        .iter()
        .filter(|d| d.to_string().contains(subject))
        .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Parses `xml` (well-formed or the test fails) and says whether any element is a `script`.
#[track_caller]
fn has_script(what: &str, xml: &str) -> bool {
    let document = roxmltree::Document::parse_with_options(
        xml,
        roxmltree::ParsingOptions {
            allow_dtd: false,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{what} is not well-formed XML: {e}"));
    document
        .descendants()
        .any(|n| n.tag_name().name().eq_ignore_ascii_case("script"))
}

fn build_file(module: &Path) -> String {
    let file = std::fs::File::open(module).expect("the module");
    let mut zip = zip::ZipArchive::new(file).expect("a zip");
    let mut entry = zip.by_name("buildFile.xml").expect("buildFile.xml");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut entry, &mut text).expect("UTF-8");
    text
}

const UNIT: &str = "(id: \"fr-gardes-francaises\", name: \"Gardes françaises\"";
const UNIT_KIND: &str = "kind: \"infantry\", corps: \"fr-maison-du-roi\", cp: 3";

fn unit_named(name: &str) -> String {
    format!(
        "(id: \"fr-gardes-francaises\", name: {}",
        serde_json::to_string(name).expect("quoted")
    )
}

#[test]
fn the_club_is_clean_to_start_with() {
    let club = Club::new();
    let run = club.run(&["validate", "scenarios", "maps", "systems"]);
    assert_eq!(run.code, 0, "{}", run.all());
}

/// Markup in names (a closing tag and a script, CDATA ends, comments, a DOCTYPE with an
/// entity, quotes) comes out of every markup export as text: well-formed, no element opened.
/// In a GitHub annotation a file name's commas, colons and `%` cannot add properties, and a
/// name's line feed cannot start a workflow command of its own.
#[test]
fn markup_in_shared_files_stays_text_in_every_export() {
    let club = Club::new();
    club.edit(
        SCENARIO,
        UNIT,
        &unit_named("</text></svg><script>alert(1)</script>"),
    );
    club.edit(
        SCENARIO,
        "name: \"Armée française (maréchal de Villars)\"",
        "name: \"]]><!-- <!DOCTYPE x [<!ENTITY e SYSTEM \\\"file:///etc/passwd\\\">]> &e;\"",
    );
    club.edit(
        MAP,
        "\"0609\": \"Abscon\"",
        "\"0609\": \"A\\\"b' <x y=\\\"1\\\"/> & {NEXT}\"",
    );
    assert_eq!(club.table("p.svg", &["--roster", "r.svg"]).code, 0);
    assert!(!has_script("plan", &club.read("p.svg")));
    assert!(!has_script("roster", &club.read("r.svg")));
    let run = club.run(&["export", "--vassal", SCENARIO, "--out", "m.vmod"]);
    assert_eq!(run.code, 0, "{}", run.all());
    let build = build_file(&club.path("m.vmod"));
    assert!(!has_script("buildFile.xml", &build));
    assert!(!build.contains("<!DOCTYPE") && !build.contains("<!ENTITY"));
    let run = club.run(&["export", "--tiled", SCENARIO, "--out", "t.tmx"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(!has_script("tmx", &club.read("t.tmx")));

    // GitHub annotations: the file name is percent-encoded, so it adds no property.
    let name = "scenarios/a,line=9,title=x::y%0Az.ron";
    let text = club.read(SCENARIO).replacen(
        UNIT_KIND,
        "kind: \"inf\\n::error file=x.ron,line=1::forged\", corps: \"fr-maison-du-roi\", cp: 3",
        1,
    );
    club.write(name, text);
    let run = club.run(&["validate", "--format", "github", name]);
    let annotations: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert!(!annotations.is_empty(), "{}", run.all());
    for line in annotations {
        let properties = line.split("::").nth(1).expect("properties");
        let keys: Vec<&str> = properties
            .split_once(' ')
            .map_or("", |(_, p)| p)
            .split(',')
            .map(|kv| kv.split('=').next().unwrap_or(""))
            .collect();
        for key in ["file", "line", "title"] {
            assert!(keys.iter().filter(|k| **k == key).count() <= 1, "{line}");
        }
        assert!(!line.starts_with("::error file=x.ron"), "forged: {line}");
    }
}

/// What XML 1.0 cannot hold is refused at load however it is written: raw, or as a RON escape
/// (`\u{1}`, `\u{ffff}`, `\0`), in a scenario, a map or a system; nothing is exported.
#[test]
fn characters_xml_cannot_hold_are_refused_however_written() {
    let club = Club::new();
    club.edit(
        SCENARIO,
        UNIT,
        "(id: \"fr-gardes-francaises\", name: \"x\\u{1}y\"",
    );
    let run = club.run(&["validate", "--format", "json", SCENARIO]);
    assert_eq!(codes_about(&run, "E0123").len(), 1, "{}", run.all());

    let club = Club::new();
    club.edit(MAP, "\"0609\": \"Abscon\"", "\"0609\": \"Ab\\u{ffff}scon\"");
    let run = club.run(&["export", "--tiled", MAP, "--out", "t.tmx"]);
    assert!(
        run.code == 1 && run.all().contains("E0123"),
        "{}",
        run.all()
    );
    assert!(!club.path("t.tmx").exists());

    let club = Club::new();
    club.edit(
        SCENARIO,
        "title: \"Denain 1712 — scénario historique\"",
        "title: \"Denain\\0 1712\"",
    );
    let run = club.run(&["export", "--vassal", SCENARIO, "--out", "m.vmod"]);
    assert!(
        run.code == 1 && run.all().contains("E0123"),
        "{}",
        run.all()
    );
    assert!(!club.path("m.vmod").exists());

    let club = Club::new();
    club.edit(
        "systems/louis-xiv.ron",
        "name: \"Louis XIV rules\"",
        "name: \"Louis\\u{1b}[2J XIV\"",
    );
    let run = club.run(&["validate", "systems"]);
    assert!(
        run.code == 1 && run.all().contains("E0123"),
        "{}",
        run.all()
    );
    assert!(!run.all().contains('\u{1b}'), "{}", run.all());
}

/// Every reference a document can make (a map, a miniatures system, a variant's base, a map's
/// scan) stays inside the repository whatever leads outside (a linked folder, `../..`, a link to
/// `/etc/passwd`), a FIFO is refused without waiting, and what is outside is never quoted.
#[test]
fn references_stay_inside_the_repository_by_every_way_out() {
    let club = Club::new();
    std::os::unix::fs::symlink(&club.outside, club.path("maps/ext")).expect("link");
    club.edit(
        SCENARIO,
        "map: \"../maps/denain-1712.ron\"",
        "map: \"../maps/ext/secret.ron\"",
    );
    let run = club.run(&["validate", SCENARIO]);
    assert!(
        run.all().contains("E0208") && !run.all().contains(SECRET),
        "{}",
        run.all()
    );

    let club = Club::new();
    club.edit(
        SCENARIO,
        "file: \"../systems/age-of-honor.ron\"",
        "file: \"../../secret.ron\"",
    );
    let run = club.table("p.svg", &[]);
    assert!(
        run.code != 0 && !run.all().contains(SECRET),
        "{}",
        run.all()
    );
    assert!(!club.path("p.svg").exists());

    let club = Club::new();
    let variant = "scenarios/denain-1712-tingry-tard.ron";
    let text = club.read(variant);
    let base = text.find("base: \"").expect("a base");
    let end = base + 7 + text[base + 7..].find('"').expect("quoted");
    club.write(
        variant,
        format!("{}base: \"../../secret.ron{}", &text[..base], &text[end..]),
    );
    let run = club.run(&["validate", variant]);
    assert!(
        run.all().contains("E1104") && !run.all().contains(SECRET),
        "{}",
        run.all()
    );

    let club = Club::new();
    std::os::unix::fs::symlink("/etc/passwd", club.path("maps/scan.png")).expect("link");
    club.edit(
        MAP,
        "    grid:",
        "    background: (image: \"scan.png\", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:",
    );
    let run = club.run(&["export", "--tiled", MAP, "--out", "t.tmx"]);
    assert!(
        run.all().contains("E0210") && !run.all().contains("root:x:0"),
        "{}",
        run.all()
    );
    assert!(!club.path("t-scan.png").exists());

    let club = Club::new();
    let fifo = club.path("systems/fifo.ron");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    club.edit(
        SCENARIO,
        "file: \"../systems/age-of-honor.ron\"",
        "file: \"../systems/fifo.ron\"",
    );
    let run = club.run(&["validate", SCENARIO]);
    assert!(run.all().contains("E1001"), "{}", run.all());
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(&body);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc.sum().to_be_bytes());
    out
}

/// A zlib stream of `mib` MiB of zeros, about 1 KB of file per MiB.
fn zlib_bomb(mib: usize) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    let mut deflater = Compress::new(Compression::best(), false);
    let mut block = Vec::with_capacity(8 << 10);
    deflater
        .compress_vec(&vec![0u8; 1 << 20], &mut block, FlushCompress::Sync)
        .expect("deflate");
    let mut end = Vec::with_capacity(64);
    deflater
        .compress_vec(&[], &mut end, FlushCompress::Finish)
        .expect("deflate");
    let n = (mib as u64) << 20;
    let mut out = vec![0x78, 0xda];
    for _ in 0..mib {
        out.extend_from_slice(&block);
    }
    out.extend_from_slice(&end);
    out.extend_from_slice(&((((n % 65521) as u32) << 16) | 1).to_be_bytes());
    out
}

/// A 16 × 16 RGB PNG with `extra` chunks after its header, and `idat` as its pixel data (its
/// own when `None`).
fn png(extra: &[Vec<u8>], idat: Option<Vec<u8>>) -> Vec<u8> {
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&16u32.to_be_bytes());
    ihdr.extend_from_slice(&16u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let rows: Vec<u8> = (0..16)
        .flat_map(|_| std::iter::once(0).chain([200u8, 180, 140].repeat(16)))
        .collect();
    let pixels = idat.unwrap_or_else(|| {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut z, &rows).expect("deflate");
        z.finish().expect("deflate")
    });
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(chunk(b"IHDR", &ihdr));
    for c in extra {
        out.extend_from_slice(c);
    }
    out.extend(chunk(b"IDAT", &pixels));
    out.extend(chunk(b"IEND", &[]));
    out
}

/// Metadata that inflates to 1.5 GiB in any compressed chunk of a PNG (zTXt, iTXt, the pixel
/// data itself), sizes claimed in a JPEG's or TIFF's header, formats that are not scans: the
/// commands that read a scan (`digitize`, the exports) stay inside their address space and end.
#[test]
fn metadata_bombs_in_any_chunk_or_format_cost_nothing() {
    let mut ztxt = b"Comment\0\0".to_vec();
    ztxt.extend(zlib_bomb(1536));
    let mut itxt = b"XML:com.adobe.xmp\0\x01\0\0\0".to_vec();
    itxt.extend(zlib_bomb(1536));
    let jpeg_sof = {
        let mut j = vec![
            0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0xff, 0xdc, 0xff, 0xdc, 1, 1, 0x11, 0,
        ];
        j.extend_from_slice(&[0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0]);
        j.extend_from_slice(&[0; 64]);
        j.extend_from_slice(&[0xff, 0xd9]);
        j
    };
    let tiff = {
        let mut t = b"II*\0".to_vec();
        t.extend_from_slice(&8u32.to_le_bytes());
        let entries: [(u16, u16, u32); 4] = [
            (256, 4, 100_000),
            (257, 4, 100_000),
            (273, 4, 8),
            (279, 4, 10),
        ];
        t.extend_from_slice(&(entries.len() as u16).to_le_bytes());
        for (tag, kind, value) in entries {
            t.extend_from_slice(&tag.to_le_bytes());
            t.extend_from_slice(&kind.to_le_bytes());
            t.extend_from_slice(&1u32.to_le_bytes());
            t.extend_from_slice(&value.to_le_bytes());
        }
        t.extend_from_slice(&0u32.to_le_bytes());
        t
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("ztxt.png", png(&[chunk(b"zTXt", &ztxt)], None)),
        ("itxt.png", png(&[chunk(b"iTXt", &itxt)], None)),
        ("idat.png", png(&[], Some(zlib_bomb(1536)))),
        ("huge.jpg", jpeg_sof),
        ("huge.tif", tiff),
        ("scan.gif", b"GIF89a\x01\0\x01\0\0\0\0;".to_vec()),
    ];
    for (name, bytes) in cases {
        assert!(bytes.len() < 4 << 20, "{name}: {} bytes", bytes.len());
        let club = Club::new();
        club.with_scan(name, &bytes);
        club.run(&["export", "--tiled", MAP, "--out", "t.tmx"]);
        club.run(&["export", "--vassal", SCENARIO, "--out", "m.vmod"]);
        club.write("c.ron", "Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: \"0101\", x: 10.0, y: 10.0), (hex: \"0401\", x: 70.0, y: 20.0), (hex: \"0104\", x: 10.0, y: 70.0), (hex: \"0404\", x: 70.0, y: 80.0)])");
        club.write("s.ron", "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]})");
        let path = format!("maps/{name}");
        club.run(&[
            "digitize",
            &path,
            "--calibration",
            "c.ron",
            "--samples",
            "s.ron",
            "--out",
            "d.ron",
        ]);
    }
}

/// A small file cannot buy unbounded work: 200 corps whose leaders claim a command radius of
/// 999 hexes (the bound is 50, E0105) on a 300 × 300 map searched each corps' whole map
/// before (70 s in a debug build); now the search stays within the shared bound. Absurd
/// scales, paper and table sizes are refused before anything is drawn.
#[test]
fn small_files_never_buy_unbounded_work() {
    let club = Club::new();
    let map = club.read(MAP);
    let start = map.find("    rows: [").expect("rows");
    let end = start + map[start..].find("    ],").expect("rows end") + "    ],".len();
    let rows: String = (0..300)
        .map(|_| format!("        \"{}\",\n", ".".repeat(300)))
        .collect();
    let map = format!("{}    rows: [\n{rows}    ],{}", &map[..start], &map[end..])
        .replacen("columns: 32, rows: 20", "columns: 300, rows: 300", 1)
        .replacen(
            "column_digits: 2, row_digits: 2",
            "column_digits: 3, row_digits: 3",
            1,
        );
    club.write(MAP, map);
    let mut scenario = club.read(SCENARIO);
    let corps_at = scenario.find("corps: [\n").expect("corps") + "corps: [\n".len();
    let corps: String = (0..200)
        .map(|i| format!("(id: \"c{i}\", name: \"C{i}\", colour: \"#123456\", leader: (id: \"l{i}\", name: \"L{i}\", activation: 3, radius_hexes: 999, placement: Hex(\"001001\"))),\n"))
        .collect();
    scenario.insert_str(corps_at, &corps);
    let unit_at = scenario.find(UNIT).expect("a unit");
    let line_end = unit_at + scenario[unit_at..].find('\n').expect("line");
    let line = scenario[unit_at..=line_end].to_owned();
    let units: String = (0..200)
        .map(|i| {
            line.replacen("\"fr-gardes-francaises\"", &format!("\"u{i}\""), 1)
                .replacen(
                    "corps: \"fr-maison-du-roi\"",
                    &format!("corps: \"c{i}\""),
                    1,
                )
                .replacen(
                    "Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")",
                    "Hex(\"300300\")",
                    1,
                )
        })
        .collect();
    scenario.insert_str(line_end + 1, &units);
    let commands = scenario.find("commands: [").expect("commands") + "commands: [".len();
    let named: String = (0..200).map(|i| format!("\"c{i}\", ")).collect();
    scenario.insert_str(commands, &named);
    club.write(SCENARIO, scenario);
    let run = club.run(&["validate", "--format", "json", SCENARIO]);
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(codes_about(&run, "radius_hexes").contains(&"E0105".to_owned()));

    let club = Club::new();
    for args in [
        &["render", MAP, "--out", "o.png", "--scale", "100000"][..],
        &["print", SCENARIO, "--out", "k.pdf", "--hex", "0.0001mm"],
        &["print", SCENARIO, "--out", "k.pdf", "--counter", "1e30in"],
        &[
            "table",
            SCENARIO,
            "--system",
            "age-of-honor",
            "--out",
            "p.pdf",
            "--table",
            "1000000x1000000cm",
        ],
    ] {
        let run = club.run(args);
        assert_ne!(run.code, 0, "{args:?} drew it:\n{}", run.all());
    }
}

/// No output replaces a file the command reads, however it is named: the systems file the
/// table reads, the map (as the roster), a link to the scenario, a variant read beside it, the
/// scan, calibration or samples of `digitize`; a folder is not replaced either. Nor does a
/// module, picture or schema replace a document the command does not read (another battle's
/// scenario, a system, a link to the scenario from the schemas' folder).
#[test]
fn no_output_replaces_what_the_command_reads_however_named() {
    let club = Club::new();
    std::os::unix::fs::symlink("denain-1712.ron", club.path("scenarios/k.pdf")).expect("link");
    std::fs::create_dir(club.path("out.vmod")).expect("mkdir");
    club.write("out.vmod/keep", "keep");
    let png = png(&[], None);
    club.write("x.png", &png);
    club.write("c.ron", "Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: \"0101\", x: 1.0, y: 1.0), (hex: \"0401\", x: 7.0, y: 2.0), (hex: \"0104\", x: 1.0, y: 7.0), (hex: \"0404\", x: 7.0, y: 8.0)])");
    club.write("s.ron", "Samples(terrain: {\"c\": (name: \"Clear\", colour: \"#ffffff\")}, samples: {\"c\": [\"0101\"]})");
    std::fs::copy(club.path(SCENARIO), club.path("scenarios/other.ron")).expect("copy");
    std::fs::copy(
        club.path("systems/louis-xiv.ron"),
        club.path("systems/other.ron"),
    )
    .expect("copy");
    std::fs::create_dir(club.path("schemas")).expect("mkdir");
    std::os::unix::fs::symlink(
        "../scenarios/other.ron",
        club.path("schemas/map.schema.json"),
    )
    .expect("link");
    let guarded = [
        "scenarios/other.ron",
        "systems/other.ron",
        SCENARIO,
        MAP,
        "systems/age-of-honor.ron",
        "scenarios/denain-1712-tingry-tard.ron",
        "x.png",
        "c.ron",
        "s.ron",
        "out.vmod/keep",
    ];
    let before: Vec<Vec<u8>> = guarded
        .iter()
        .map(|f| std::fs::read(club.path(f)).expect("read"))
        .collect();
    let digitize = |out: &'static str| -> Vec<&'static str> {
        vec![
            "digitize",
            "x.png",
            "--calibration",
            "c.ron",
            "--samples",
            "s.ron",
            "--out",
            out,
        ]
    };
    let tries: Vec<Vec<&str>> = vec![
        vec![
            "table",
            SCENARIO,
            "--system",
            "age-of-honor",
            "--out",
            "systems/age-of-honor.ron",
        ],
        vec![
            "table",
            SCENARIO,
            "--system",
            "age-of-honor",
            "--out",
            "p.svg",
            "--roster",
            MAP,
        ],
        vec!["print", SCENARIO, "--out", "scenarios/k.pdf"],
        vec![
            "export",
            "--vassal",
            SCENARIO,
            "--out",
            "scenarios/denain-1712-tingry-tard.ron",
        ],
        vec!["export", "--vassal", SCENARIO, "--out", "out.vmod"],
        vec![
            "render",
            SCENARIO,
            "--out",
            "scenarios/../scenarios/./denain-1712.ron",
        ],
        digitize("x.png"),
        digitize("c.ron"),
        digitize("s.ron"),
        vec!["render", MAP, "--out", "scenarios/other.ron"],
        vec!["export", "--vassal", SCENARIO, "--out", "systems/other.ron"],
        vec!["schema", "--out", "schemas"],
    ];
    for args in &tries {
        let run = club.run(args);
        assert_ne!(run.code, 0, "{args:?} wrote:\n{}", run.all());
        for (file, bytes) in guarded.iter().zip(&before) {
            assert_eq!(
                &std::fs::read(club.path(file)).expect("still there"),
                bytes,
                "{args:?} changed {file}"
            );
        }
    }
}

/// Links planted in the repository (an output's name, or a folder on its way, leading outside
/// it: to the runner's files) are not written through by any command; the file outside keeps
/// its bytes. A link inside the repository is still written through.
#[test]
fn no_output_is_written_through_a_link_leading_outside_the_repository() {
    let club = Club::new();
    let victim = club.outside.join("victim.txt");
    std::fs::write(&victim, "precious").expect("write");
    std::fs::create_dir(club.path("plans")).expect("mkdir");
    for name in [
        "plan.svg",
        "plan.pdf",
        "m.vmod",
        "t.tmx",
        "o.png",
        "map.schema.json",
    ] {
        std::os::unix::fs::symlink(&victim, club.path(&format!("plans/{name}"))).expect("link");
    }
    std::os::unix::fs::symlink(&club.outside, club.path("away")).expect("folder link");
    for args in [
        &[
            "table",
            SCENARIO,
            "--system",
            "age-of-honor",
            "--out",
            "plans/plan.svg",
        ][..],
        &["print", SCENARIO, "--out", "plans/plan.pdf"],
        &["export", "--vassal", SCENARIO, "--out", "plans/m.vmod"],
        &["export", "--tiled", MAP, "--out", "plans/t.tmx"],
        &["render", MAP, "--out", "plans/o.png"],
        &["schema", "--out", "plans"],
        &["render", MAP, "--out", "away/victim.txt"],
        &["render", MAP, "--out", "away/new.png"],
    ] {
        let run = club.run(args);
        assert_ne!(run.code, 0, "{args:?} wrote:\n{}", run.all());
        assert!(
            run.all().contains("outside its repository"),
            "{args:?}: {}",
            run.all()
        );
        assert_eq!(
            std::fs::read_to_string(&victim).expect("there"),
            "precious",
            "{args:?}"
        );
    }
    assert!(!club.outside.join("new.png").exists());
    // Inside the repository a link is written through, the link kept.
    std::os::unix::fs::symlink("../o.png", club.path("plans/inside.png")).expect("link");
    let run = club.run(&["render", MAP, "--out", "plans/inside.png"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(club.path("o.png").is_file());
}

/// A miniatures system's own tables are checked (E1011, located in the system file): a rating
/// no value can take, a troop type needing an undefined rating or standing on a base a figure
/// scale does not size. `validate systems/` says so, a scenario naming the system is refused
/// (E1001), and the table is not laid out from it.
#[test]
fn a_systems_own_tables_are_checked_where_written() {
    let club = Club::new();
    let system = "systems/age-of-honor.ron";
    club.edit(
        system,
        "values: Range(min: 1, max: 24)",
        "values: Range(min: 24, max: 1)",
    );
    club.edit(
        system,
        "values: OneOf([\"fresh\", \"spent\"])",
        "values: OneOf([])",
    );
    club.edit(
        system,
        "needs: [\"stands\", \"fire_type\", \"quality\"]",
        "needs: [\"stands\", \"fire_kind\", \"quality\"]",
    );
    club.edit(
        system,
        "base: \"light\", figures_per_base: 2",
        "base: \"skirmish\", figures_per_base: 2",
    );
    let text = club.read(system);
    let line = |needle: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .map(|i| (i + 1) as u64)
            .expect("there")
    };
    let run = club.run(&["validate", "--format", "json", "systems"]);
    assert_eq!(run.code, 1, "{}", run.all());
    let found: Vec<(u64, String)> = diagnostics(&run)
        .iter()
        .filter(|d| d["code"] == "E1011")
        .map(|d| {
            (
                d["line"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    for (needle, says) in [
        ("Range(min: 24, max: 1)", "from 24 to 1"),
        ("OneOf([])", "no words"),
        ("fire_kind", "`fire_kind`"),
        ("\"skirmish\"", "`skirmish`"),
    ] {
        assert!(
            found
                .iter()
                .any(|(l, m)| *l == line(needle) && m.contains(says)),
            "{needle}: {found:?}"
        );
    }
    let run = club.run(&["validate", SCENARIO]);
    assert!(
        run.code == 1 && run.all().contains("E1001"),
        "{}",
        run.all()
    );
    let run = club.table("p.svg", &[]);
    assert_ne!(run.code, 0);
    assert!(!club.path("p.svg").exists());
}

/// Escape sequences reach no terminal, from any path or message: a file name, an argument
/// clap rejects, an `--out` path in the `wrote` line, a missing scan, raw control bytes in the
/// source line a report shows, names with bidi overrides in the table's own output.
#[test]
fn escapes_reach_no_terminal_from_any_path_or_message() {
    let club = Club::new();
    let file = format!("scenarios/x{ESCAPES}.ron");
    std::fs::copy(club.path(SCENARIO), club.path(&file)).expect("copy");
    club.edit(
        SCENARIO,
        "name: \"Valenciennes 1/\"",
        "name: \"Valen\u{202e}ciennes\u{200d} 1/\"",
    );
    club.edit(
        "scenarios/denain-1712-camp-renforce.ron",
        "Variant(",
        "Variant(\x1b[2J\r\u{9b}31m",
    );
    let scale = format!("--scale={ESCAPES}");
    let flag = format!("--{ESCAPES}");
    let outputs: Vec<String> = ["o.png", "k.pdf", "v.vmod", "t.tmx", "p.svg"]
        .iter()
        .map(|f| format!("{ESCAPES}{f}"))
        .collect();
    let runs = [
        vec!["validate", "scenarios"],
        vec!["validate", "--format", "github", "scenarios"],
        vec!["validate", &flag],
        vec!["render", MAP, "--out", "o.png", &scale],
        vec!["render", MAP, "--out", &outputs[0]],
        vec!["print", SCENARIO, "--out", &outputs[1]],
        vec!["export", "--vassal", SCENARIO, "--out", &outputs[2]],
        vec!["export", "--tiled", MAP, "--out", &outputs[3]],
        vec![
            "table",
            SCENARIO,
            "--system",
            "age-of-honor",
            "--out",
            &outputs[4],
        ],
        vec![
            "digitize",
            &file,
            "--calibration",
            &file,
            "--samples",
            &file,
            "--out",
            "d.ron",
        ],
        vec!["fmt", "--check", "scenarios"],
    ];
    for args in &runs {
        let run = club.run(args);
        let raw = run.all().chars().find(|&c| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{200b}'..='\u{200f}')
        });
        assert_eq!(raw, None, "{args:?}:\n{}", run.all());
    }
}

/// A cause is reported once: a unit in a corps, a zone or of a kind that does not exist gets
/// the reference error alone, not what follows from it (another corps' zone, out of command,
/// outside its zone, its miniatures ratings).
#[test]
fn a_cause_is_reported_once() {
    for (old, new, code) in [
        (
            "corps: \"fr-maison-du-roi\", cp: 3",
            "corps: \"fr-nowhere\", cp: 3",
            "E0202",
        ),
        (
            "Free(zone: \"fr-zone-maison-du-roi\", at: \"1608\")",
            "Free(zone: \"fr-zone-nowhere\", at: \"1608\")",
            "E0203",
        ),
        (
            UNIT_KIND,
            "kind: \"musketeers\", corps: \"fr-maison-du-roi\", cp: 3",
            "E0204",
        ),
    ] {
        let club = Club::new();
        let text = club.read(SCENARIO);
        let at = text.find(UNIT).expect("the unit");
        let end = at + text[at..].find('\n').expect("line");
        let line = text[at..end].replacen(old, new, 1);
        assert_ne!(line, text[at..end], "{old}");
        club.write(SCENARIO, format!("{}{line}{}", &text[..at], &text[end..]));
        let run = club.run(&["validate", "--format", "json", SCENARIO]);
        assert_eq!(
            codes_about(&run, "`fr-gardes-francaises`"),
            vec![code.to_owned()],
            "{}",
            run.all()
        );
    }
}

/// A reader that goes away (`| head -c 1`) ends every printing command quietly.
#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let club = Club::new();
    for args in [
        "validate --format json scenarios",
        "validate --format sarif scenarios",
        "validate --format github scenarios",
        "validate scenarios maps systems",
        "export --json scenarios/denain-1712.ron",
        "schema",
        "table scenarios/denain-1712.ron --system age-of-honor --out p.svg",
        "--help",
    ] {
        let run = club.shell(&format!("\"$B\" {args} | head -c 1 >/dev/null"));
        assert!(!run.stderr.contains("panicked"), "{args}: {}", run.all());
        assert!(!run.stderr.contains("Broken pipe"), "{args}: {}", run.all());
    }
}
