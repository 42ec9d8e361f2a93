//! The exports end to end through the real binary, on the bundled battles, each checked
//! against the real format's own rules: the VASSAL module's grid against VASSAL's formulas
//! (HexGrid.java, HexGridNumbering.java) for every hex; the Tiled map loaded by the real
//! `tiled` (installed by ./run) and by the `tiled` crate, terrain for every hex; the PDF kit
//! measured with poppler's `pdfinfo` and `pdftoppm`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
mod support;

use std::process::{Command, Output};
use std::time::Duration;

use bataille_export::vassal::{VassalOptions, board_layout};
use bataille_schema::{HexIndex, Map, load_map, load_scenario};

const BATTLES: [(&str, &str); 2] = [
    ("scenarios/denain-1712.ron", "maps/denain-1712.ron"),
    ("scenarios/fontenoy-1745.ron", "maps/fontenoy-1745.ron"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a program from the repository root with a time limit (killed past it).
fn run_with_timeout(mut command: Command, limit: Duration) -> Output {
    command.current_dir(root());
    support::output_within(command, limit)
}

fn bataille(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.args(args);
    let output = run_with_timeout(command, Duration::from_secs(240));
    assert!(
        output.status.success(),
        "bataille {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn tool(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|path| path.is_file())
    })
}

fn read_zip(path: &Path) -> BTreeMap<String, Vec<u8>> {
    let file = std::fs::File::open(path).expect("module");
    let mut archive = zip::ZipArchive::new(file).expect("a zip");
    let mut out = BTreeMap::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("entry");
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("read");
        out.insert(entry.name().expect("entry name").into_owned(), bytes);
    }
    out
}

/// VASSAL's `RegularGridNumbering.getName` for a number: zero-padded while below 10^leading.
fn vassal_name(value: i64, mut leading: u32) -> String {
    let mut out = if value < 0 {
        "-".to_owned()
    } else {
        String::new()
    };
    let v = value.abs();
    while leading > 0 && (v as f64) < 10f64.powi(leading as i32) {
        out.push('0');
        leading -= 1;
    }
    out.push_str(&v.to_string());
    out
}

/// Splits a hex name as VASSAL's location regex does: `(-?[0-9]{h+1,})SEP(-?[0-9]{v+1,})`,
/// the first group greedy.
fn vassal_parse(name: &str, h_leading: usize, v_leading: usize, sep: &str) -> Option<(i64, i64)> {
    for split in (h_leading + 1..name.len()).rev() {
        let (a, rest) = name.split_at(split);
        let Some(b) = rest.strip_prefix(sep) else {
            continue;
        };
        let digits = |s: &str, min: usize| s.len() >= min && s.bytes().all(|c| c.is_ascii_digit());
        if digits(a, h_leading + 1) && digits(b, v_leading + 1) {
            return Some((a.parse().ok()?, b.parse().ok()?));
        }
    }
    None
}

/// VASSAL's `SequenceEncoder.Decoder`: tokens split at the delimiter, a backslash before it
/// escaping it; a token wrapped in single quotes unwrapped.
fn vassal_decode(value: &str, delim: char) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut token = String::new();
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&delim) {
            token.push(delim);
            chars.next();
        } else if c == delim {
            tokens.push(std::mem::take(&mut token));
        } else {
            token.push(c);
        }
    }
    tokens.push(token);
    tokens
        .into_iter()
        .map(|t| {
            if t.len() > 1 && t.starts_with('\'') && t.ends_with('\'') {
                t[1..t.len() - 1].to_owned()
            } else {
                t
            }
        })
        .collect()
}

/// The traits of a piece definition (`+/id/type/state`), outermost first, each split at `;`,
/// with the state of each.
fn vassal_traits(definition: &str) -> Vec<(Vec<String>, String)> {
    let command = definition.strip_prefix("+/").expect("an AddPiece command");
    let parts = vassal_decode(command, '/');
    assert_eq!(parts.len(), 3, "id, type, state: {definition}");
    let (mut types, mut states) = (parts[1].clone(), parts[2].clone());
    let mut out = Vec::new();
    loop {
        let t = vassal_decode(&types, '\t');
        let st = vassal_decode(&states, '\t');
        out.push((vassal_decode(&t[0], ';'), st[0].clone()));
        if t.len() < 2 {
            break;
        }
        types = t[1].clone();
        states = st.get(1).cloned().unwrap_or_default();
    }
    out
}

/// The board's pixel, RGB.
fn pixel(image: &image::RgbImage, x: i64, y: i64) -> Option<[u8; 3]> {
    (x >= 0 && y >= 0 && (x as u32) < image.width() && (y as u32) < image.height())
        .then(|| image.get_pixel(x as u32, y as u32).0)
}

/// Where the hex's corner is met walking from `(x, y)` by `step`: the pixel nearest the grid
/// lines' colour (the lines meeting) between 0.75 and 1.25 circumradius, if it is near. (Not
/// the darkest pixel: a forest's green is as dark as the lines.)
fn grid_line(image: &image::RgbImage, x: i64, y: i64, step: (i64, i64), r: f64) -> Option<f64> {
    const LINE: [i64; 3] = [0x5b, 0x55, 0x48];
    let mut best: Option<(i64, i64)> = None;
    for k in (0.75 * r) as i64..=(1.25 * r) as i64 {
        let p = pixel(image, x + step.0 * k, y + step.1 * k)?;
        let far: i64 = p
            .iter()
            .zip(LINE)
            .map(|(c, l)| (i64::from(*c) - l).abs())
            .sum();
        if best.is_none_or(|(b, _)| far < b) {
            best = Some((far, k));
        }
    }
    best.filter(|(far, _)| *far < 90).map(|(_, k)| k as f64)
}

#[test]
fn vassal_module_puts_every_hex_centre_where_the_board_has_it() {
    let dir = tempfile::tempdir().unwrap();
    for (scenario_path, map_path) in BATTLES {
        let out = dir.path().join("battle.vmod");
        bataille(&[
            "export",
            "--vassal",
            scenario_path,
            "--out",
            out.to_str().unwrap(),
        ]);
        let files = read_zip(&out);
        assert!(
            files.contains_key("buildFile.xml"),
            "buildFile.xml at the root"
        );
        assert!(files.contains_key("moduledata"));
        assert!(
            files
                .keys()
                .filter(|k| k.contains('/'))
                .all(|k| k.starts_with("images/"))
        );
        let text = String::from_utf8(files["buildFile.xml"].clone()).unwrap();
        let doc = roxmltree::Document::parse(&text).expect("buildFile.xml is XML");
        let rootel = doc.root_element();
        assert_eq!(rootel.tag_name().name(), "VASSAL.build.GameModule");
        let find = |tag: &str| {
            doc.descendants()
                .find(|n| n.tag_name().name() == tag)
                .unwrap_or_else(|| panic!("{tag} in buildFile.xml"))
        };
        let board = find("VASSAL.build.module.map.boardPicker.Board");
        let grid_el = find("VASSAL.build.module.map.boardPicker.board.HexGrid");
        let numbering = find("VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering");
        assert_eq!(
            grid_el.parent().unwrap().tag_name().name(),
            "VASSAL.build.module.map.boardPicker.Board"
        );
        // HexGrid.setAttribute: x0/y0 through Integer.valueOf, dx/dy through Double.valueOf.
        let int = |n: roxmltree::Node, a: &str| -> i64 {
            n.attribute(a)
                .unwrap_or_else(|| panic!("{a}"))
                .parse()
                .unwrap_or_else(|_| panic!("{a} is an integer"))
        };
        let x0 = int(grid_el, "x0");
        let y0 = int(grid_el, "y0");
        let dx: f64 = grid_el.attribute("dx").unwrap().parse().unwrap();
        let dy: f64 = grid_el.attribute("dy").unwrap().parse().unwrap();
        assert_eq!(
            grid_el.attribute("sideways"),
            Some("false"),
            "flat hexes: columns"
        );
        assert_eq!(numbering.attribute("stagger"), Some("false"));
        assert_eq!(numbering.attribute("first"), Some("H"));
        let h_off = int(numbering, "hOff");
        let v_off = int(numbering, "vOff");
        let h_leading = int(numbering, "hLeading") as u32;
        let v_leading = int(numbering, "vLeading") as u32;
        let sep = numbering.attribute("sep").unwrap_or("");
        let image_name = board.attribute("image").unwrap();
        let board_png = &files[&format!("images/{image_name}")];
        let image = image::load_from_memory(board_png).unwrap().to_rgb8();
        assert_eq!(image.width() as i64, int(board, "width"));
        assert_eq!(image.height() as i64, int(board, "height"));

        let map: Map = load_map(&root().join(map_path)).unwrap().map;
        let (layout, _) = board_layout(&map, &VassalOptions::default()).unwrap();
        let r = f64::from(layout.radius_px);
        // Hexes whose drawing is only terrain and grid (no overlay, no hexside feature on any of
        // their sides): there the darkest pixels along the middle are the corners.
        let mut busy = std::collections::BTreeSet::new();
        for refs in map.hexsides.values() {
            for hexside in refs {
                if let Ok((index, side)) = map.grid.parse_hexside(hexside.as_str()) {
                    busy.insert(index);
                    busy.extend(map.grid.neighbour(index, side));
                }
            }
        }
        for hex in map.overlays.keys() {
            busy.extend(map.grid.lookup(hex));
        }
        let plain = map.grid.indices().filter(|i| !busy.contains(i)).count();
        let mut measured = 0;
        for index in map.grid.indices() {
            let name = map.grid.name(index);
            // RegularGridNumbering.getLocation → getCenterPoint(col - hOff, row - vOff).
            let (col_n, row_n) =
                vassal_parse(name.as_str(), h_leading as usize, v_leading as usize, sep)
                    .unwrap_or_else(|| panic!("VASSAL reads {name}"));
            let (col, row) = (col_n - h_off, row_n - v_off);
            // And names the hex back as the map does (getName(row, column)).
            assert_eq!(
                format!(
                    "{}{sep}{}",
                    vassal_name(col + h_off, h_leading),
                    vassal_name(row + v_off, v_leading)
                ),
                name.as_str()
            );
            let x = (col as f64 * dx) as i64 + x0;
            let y = if col % 2 == 0 {
                (row as f64 * dy) as i64
            } else {
                (row as f64 * dy + dy / 2.0) as i64
            } + y0;
            let c = layout.to_image(map.grid.centre(index));
            assert!(
                (x as f64 - f64::from(c[0])).abs() <= 1.0
                    && (y as f64 - f64::from(c[1])).abs() <= 1.0,
                "{scenario_path}: hex {name} centred at ({x}, {y}) by VASSAL, ({}, {}) on the board",
                c[0],
                c[1]
            );
            // On the image itself: the hex's left and right corners (grid lines meeting) are
            // equally far from VASSAL's centre.
            if busy.contains(&index) {
                continue;
            }
            if let (Some(left), Some(right)) = (
                grid_line(&image, x, y, (-1, 0), r),
                grid_line(&image, x, y, (1, 0), r),
            ) {
                assert!(
                    (right - left).abs() / 2.0 <= 1.5,
                    "{scenario_path}: hex {name}: corners {left} px left and {right} px right of VASSAL's centre"
                );
                measured += 1;
            }
        }
        assert!(
            measured * 10 >= plain * 8 && plain * 2 > map.grid.hex_count(),
            "{scenario_path}: only {measured} of {plain} plain hexes measured on the image"
        );

        // Pieces: an at-start stack at each placed counter's hex, by grid location.
        let loaded = load_scenario(&root().join(scenario_path)).unwrap();
        let mut placed: BTreeMap<String, usize> = BTreeMap::new();
        for army in &loaded.scenario.armies {
            let hexes = army
                .units
                .iter()
                .map(|u| &u.placement)
                .chain(
                    army.corps
                        .iter()
                        .filter_map(|c| c.leader.as_ref())
                        .map(|l| &l.placement),
                )
                .chain(army.commanders.iter().map(|c| &c.placement));
            for placement in hexes {
                if let Some(hex) = placement.hex() {
                    *placed.entry(hex.as_str().to_owned()).or_default() += 1;
                }
            }
        }
        // The dead pile: a second map with a board of its own, opened from the toolbar.
        let maps: Vec<roxmltree::Node> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "VASSAL.build.module.Map")
            .collect();
        assert_eq!(maps.len(), 2, "the board and the dead pile");
        let dead_pile = maps[1].attribute("mapName").unwrap();
        assert_eq!(maps[1].attribute("launch"), Some("true"));
        assert!(maps[1].descendants().any(|n| {
            n.tag_name().name() == "VASSAL.build.module.map.boardPicker.Board"
                && n.attribute("width") == Some("600")
        }));
        // The sides: one per army (PlayerRoster.build reads each child's text).
        let sides: Vec<&str> = find("VASSAL.build.module.PlayerRoster")
            .children()
            .filter(|n| n.is_element())
            .filter_map(|n| n.text())
            .collect();
        let armies: Vec<&str> = loaded
            .scenario
            .armies
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(sides, armies);
        // The rules' die: a button rolling one six-sided die.
        let dice = find("VASSAL.build.module.DiceButton");
        assert_eq!(dice.attribute("nDice"), Some("1"));
        assert_eq!(dice.attribute("nSides"), Some("6"));
        assert!(dice.attribute("reportFormat").unwrap().contains("$result$"));
        let (mut flippable, mut blank) = (0, 0);
        let mut stacked: BTreeMap<String, usize> = BTreeMap::new();
        for stack in doc
            .descendants()
            .filter(|n| n.tag_name().name() == "VASSAL.build.module.map.SetupStack")
        {
            assert_eq!(stack.attribute("useGridLocation"), Some("true"));
            assert_eq!(stack.attribute("owningBoard"), board.attribute("name"));
            let location = stack.attribute("location").unwrap().to_owned();
            let slots: Vec<_> = stack
                .children()
                .filter(|n| n.tag_name().name() == "VASSAL.build.widget.PieceSlot")
                .collect();
            for slot in &slots {
                let definition = slot.text().unwrap();
                assert!(definition.starts_with("+/null/"), "{definition}");
                // Decoded as VASSAL does: [FreeRotator,] Embellishment, BasicPiece.
                let traits = vassal_traits(definition);
                let (basic, basic_state) = traits.last().unwrap();
                // BasicPiece.mySetType: id, clone key, delete key, image, name.
                assert_eq!(basic.len(), 5, "{basic:?}");
                assert_eq!(basic[0], "piece");
                assert!(
                    files.contains_key(&format!("images/{}", basic[3])),
                    "{} in {definition}",
                    basic[3]
                );
                assert_eq!(basic[4], slot.attribute("entryName").unwrap());
                // BasicPiece.setState: map, x, y, gpid, property count.
                let state = vassal_decode(basic_state, ';');
                assert_eq!(state.len(), 5, "{state:?}");
                assert_eq!(state[3], slot.attribute("gpid").unwrap());
                // A counter with a back (not one a first loss eliminates) has a layer to flip.
                if let Some((layer, layer_state)) = traits.iter().find(|(t, _)| t[0] == "emb2") {
                    // Embellishment.mySetType (emb2, version 1): 33 fields; the back exists.
                    assert_eq!(
                        &traits[traits.len() - 2].0,
                        layer,
                        "the layer over the piece"
                    );
                    assert_eq!(layer.len(), 34, "{layer:?}");
                    assert_eq!(layer[25], "1", "version");
                    assert!(
                        files.contains_key(&format!("images/{}", layer[16])),
                        "{layer:?}"
                    );
                    assert_eq!(layer_state, "-1", "the front up at the start");
                    flippable += 1;
                } else {
                    // A blank back: no other side, and no image of one.
                    let back = basic[3].replace(".png", ".back.png");
                    assert!(!files.contains_key(&format!("images/{back}")), "{back}");
                    blank += 1;
                }
                if let Some((rotator, index)) = traits.iter().find(|(t, _)| t[0] == "rotate") {
                    // The rotator is outermost: the whole counter turns.
                    assert_eq!(&traits[0].0, rotator);
                    assert_eq!(rotator[1], "12");
                    let index: u32 = index.parse().unwrap();
                    assert!(index < 12);
                }
                // SendToLocation.mySetType: "Eliminate" sends the counter to the dead pile's
                // map (by name, as VASSAL's editor writes it) at a point; "Return to the map"
                // brings it back (its state: no map or point to go back to at the start).
                let (send, send_state) = traits
                    .iter()
                    .find(|(t, _)| t[0] == "sendto")
                    .unwrap_or_else(|| panic!("an Eliminate command: {definition}"));
                assert_eq!(send.len(), 19, "{send:?}");
                assert_eq!(send[1], "Eliminate");
                assert_eq!(send[3], dead_pile, "{send:?}");
                assert_eq!(send[7], "Return to the map");
                assert_eq!(send[14], "L", "destination: a location");
                let x: i64 = send[5].parse().unwrap();
                let y: i64 = send[6].parse().unwrap();
                assert!((0..600).contains(&x) && (0..400).contains(&y));
                assert_eq!(vassal_decode(send_state, ';').len(), 3);
            }
            *stacked.entry(location).or_default() += slots.len();
        }
        assert_eq!(
            stacked, placed,
            "{scenario_path}: every placed counter stacked at its hex"
        );
        assert!(flippable > 0);
        // Denain's 1-CP units have a blank back (a first loss eliminates them), and its 3-CP
        // units a replacement counter (Denain 1) in their army's tray.
        if scenario_path.contains("denain") {
            assert!(blank > 0, "{scenario_path}: no blank back");
            assert!(
                doc.descendants()
                    .filter(|n| n.tag_name().name() == "VASSAL.build.widget.PanelWidget"
                        && n.attribute("entryName") == Some("Replacements"))
                    .count()
                    >= 1
            );
        }
        // Facing: units with a facing carry a 12-angle rotator.
        assert!(text.contains("+/null/rotate;12;"));
        // The trays: counters by army and corps, reinforcements by turn.
        let windows: Vec<_> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "VASSAL.build.module.PieceWindow")
            .filter_map(|n| n.attribute("name"))
            .collect();
        assert!(windows.contains(&"Counters"), "{windows:?}");
        let has_reinforcements = loaded.scenario.armies.iter().any(|a| {
            a.units.iter().any(|u| {
                matches!(
                    u.placement,
                    bataille_schema::scenario::Placement::Reinforcement { .. }
                )
            })
        });
        assert_eq!(windows.contains(&"Reinforcements"), has_reinforcements);
        for army in &loaded.scenario.armies {
            assert!(
                doc.descendants()
                    .any(|n| n.tag_name().name() == "VASSAL.build.widget.ListWidget"
                        && n.attribute("entryName") == Some(army.name.as_str())),
                "a tray for {}",
                army.name
            );
        }
    }
}

/// A map that states where its roads run (`paths`, Napoleon at Waterloo): each path is one
/// polyline through its hexes in the written order, out through the side it names.
#[test]
fn tiled_roads_follow_the_paths_the_map_states() {
    let dir = tempfile::tempdir().unwrap();
    let map_path = "maps/napoleon-at-waterloo.ron";
    let map = load_map(&root().join(map_path)).unwrap().map;
    assert!(!map.paths.is_empty());
    let out = dir.path().join("waterloo.tmx");
    bataille(&[
        "export",
        "--tiled",
        map_path,
        "--out",
        out.to_str().unwrap(),
    ]);
    let loaded = tiled::Loader::new().load_tmx_map(&out).unwrap();
    let mut roads: Vec<(String, usize)> = Vec::new();
    for layer in loaded.layers() {
        if layer.name != "roads" {
            continue;
        }
        for object in layer.as_object_layer().unwrap().objects() {
            let Some(tiled::PropertyValue::StringValue(hexes)) = object.properties.get("hexes")
            else {
                panic!("a road names its hexes");
            };
            let points = match &object.shape {
                tiled::ObjectShape::Polyline { points } => points.len(),
                _ => 1,
            };
            roads.push((hexes.clone(), points));
        }
    }
    for paths in map.paths.values() {
        for path in paths {
            let tokens: Vec<&str> = path.split_whitespace().collect();
            let hexes: Vec<&str> = tokens
                .iter()
                .map(|t| t.split_once('/').map_or(*t, |(h, _)| h))
                .collect();
            let exits = tokens.iter().filter(|t| t.contains('/')).count();
            assert!(
                roads
                    .iter()
                    .any(|(h, n)| *h == hexes.join(" ") && *n == hexes.len() + exits),
                "{path} not a road line of its own: {roads:?}"
            );
        }
    }
}

/// Tiled's JSON export of the map: for each cell the terrain code its tile carries.
fn tiled_json_codes(json: &serde_json::Value) -> Vec<Vec<Option<String>>> {
    let width = json["width"].as_u64().unwrap() as usize;
    let tileset = &json["tilesets"][0];
    let first = tileset["firstgid"].as_u64().unwrap();
    let mut code_of: BTreeMap<u64, String> = BTreeMap::new();
    for tile in tileset["tiles"].as_array().expect("tiles with properties") {
        let id = tile["id"].as_u64().unwrap();
        let code = tile["properties"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "code")
            .and_then(|p| p["value"].as_str())
            .unwrap()
            .to_owned();
        code_of.insert(id + first, code);
    }
    let layer = json["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "terrain")
        .expect("terrain layer");
    let data: Vec<u64> = layer["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    data.chunks(width)
        .map(|row| row.iter().map(|gid| code_of.get(gid).cloned()).collect())
        .collect()
}

#[test]
fn tiled_map_round_trips_through_the_real_tiled() {
    let dir = tempfile::tempdir().unwrap();
    for (scenario_path, map_path) in BATTLES {
        let map = load_map(&root().join(map_path)).unwrap().map;
        for (input, with_units) in [(map_path, false), (scenario_path, true)] {
            let out = dir.path().join("battle.tmx");
            bataille(&["export", "--tiled", input, "--out", out.to_str().unwrap()]);
            assert!(dir.path().join("battle-terrain.png").is_file());
            // rs-tiled, stricter about attributes than Tiled.
            let loaded = tiled::Loader::new()
                .load_tmx_map(&out)
                .expect("the tiled crate loads it");
            assert_eq!(loaded.width, map.grid.columns);
            assert_eq!(loaded.height, map.grid.rows);
            assert_eq!(loaded.orientation, tiled::Orientation::Hexagonal);
            let tileset = &loaded.tilesets()[0];
            assert_eq!(tileset.tilecount as usize, map.terrain.len());
            let hexsides: usize = map.hexsides.values().map(Vec::len).sum();
            let mut layers = BTreeMap::new();
            let mut roads_seen = std::collections::BTreeSet::new();
            let road_hexes: std::collections::BTreeSet<HexIndex> = map
                .overlays
                .iter()
                .filter(|(_, ids)| {
                    ids.iter().any(|id| {
                        map.overlay_types
                            .get(id)
                            .is_some_and(|o| o.symbol == bataille_schema::map::OverlaySymbol::Road)
                    })
                })
                .filter_map(|(hex, _)| map.grid.lookup(hex))
                .collect();
            for layer in loaded.layers() {
                if let Some(objects) = layer.as_object_layer() {
                    layers.insert(layer.name.clone(), objects.objects().count());
                    if layer.name == "hexsides" {
                        for object in objects.objects() {
                            assert!(
                                map.hexside_types
                                    .keys()
                                    .any(|k| k.as_str() == object.user_type)
                            );
                            assert!(matches!(object.shape, tiled::ObjectShape::Polyline { .. }));
                        }
                    }
                    if layer.name == "labels" {
                        for object in objects.objects() {
                            let tiled::ObjectShape::Text { width, height, .. } = object.shape
                            else {
                                panic!("a label is a text object");
                            };
                            // Inside the map: no name overhangs its edge.
                            let (w, h) = (
                                (loaded.width * 48 + 16) as f32,
                                (loaded.height * 56 + 28) as f32,
                            );
                            assert!(
                                object.x >= 0.0
                                    && object.y >= 0.0
                                    && object.x + width <= w + 0.01
                                    && object.y + height <= h + 0.01,
                                "{input}: label {} at ({}, {}) on a {w} × {h} map",
                                object.name,
                                object.x,
                                object.y
                            );
                        }
                    }
                    if layer.name == "roads" {
                        for object in objects.objects() {
                            assert!(
                                map.overlay_types
                                    .get(object.user_type.as_str())
                                    .is_some_and(
                                        |o| o.symbol == bataille_schema::map::OverlaySymbol::Road
                                    ),
                                "{}",
                                object.user_type
                            );
                            let Some(tiled::PropertyValue::StringValue(hexes)) =
                                object.properties.get("hexes")
                            else {
                                panic!("a road names its hexes");
                            };
                            let hexes: Vec<HexIndex> = hexes
                                .split(' ')
                                .map(|h| map.grid.lookup(&h.into()).unwrap())
                                .collect();
                            for pair in hexes.windows(2) {
                                assert!(
                                    map.grid.neighbours(pair[0]).any(|(_, n)| n == pair[1]),
                                    "{input}: a road leaps between hexes that do not touch"
                                );
                            }
                            for hex in &hexes {
                                roads_seen.insert(*hex);
                            }
                            if hexes.len() > 1 {
                                let tiled::ObjectShape::Polyline { points } = &object.shape else {
                                    panic!("a road is a polyline");
                                };
                                // A vertex per hex centre, and one where it leaves the map.
                                assert!(
                                    (hexes.len()..=hexes.len() + 2).contains(&points.len()),
                                    "{} points for {} hexes",
                                    points.len(),
                                    hexes.len()
                                );
                            }
                        }
                    }
                    if layer.name == "units" {
                        for object in objects.objects() {
                            for value in ["cp", "mp", "morale"] {
                                if let Some(v) = object.properties.get(value) {
                                    assert!(
                                        matches!(v, tiled::PropertyValue::IntValue(_)),
                                        "{value} of {} is {v:?}, not a number",
                                        object.name
                                    );
                                }
                            }
                        }
                    }
                }
            }
            assert_eq!(layers.get("hexsides"), Some(&hexsides));
            // Every road hex lies on a road line, and the roads are lines, not pins.
            assert!(!road_hexes.is_empty());
            assert_eq!(
                roads_seen, road_hexes,
                "{input}: road hexes on the road lines"
            );
            assert!(layers.get("roads").is_some_and(|n| *n < road_hexes.len()));
            assert_eq!(layers.get("labels"), Some(&map.labels.len()));
            assert_eq!(layers.contains_key("units"), with_units);

            let Some(tiled_bin) = tool("tiled") else {
                eprintln!(
                    "\n!!! SKIPPED the round trip through the real Tiled: no `tiled` binary on PATH (./run installs Debian's tiled) !!!\n"
                );
                continue;
            };
            let json_path = dir.path().join("battle.json");
            let mut command = Command::new(tiled_bin);
            command
                .env("QT_QPA_PLATFORM", "offscreen")
                .arg("--export-map")
                .arg("json")
                .arg(&out)
                .arg(&json_path);
            let output = run_with_timeout(command, Duration::from_secs(120));
            assert!(
                output.status.success() && json_path.is_file(),
                "tiled could not export {input}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
            assert_eq!(json["orientation"], "hexagonal");
            let codes = tiled_json_codes(&json);
            let mut hexes = 0;
            for index in map.grid.indices() {
                let HexIndex { col, row } = index;
                let expected = map.rows[row as usize]
                    .chars()
                    .nth(col as usize)
                    .map(String::from);
                assert_eq!(
                    codes[row as usize][col as usize],
                    expected,
                    "{input}: hex {} in Tiled",
                    map.grid.name(index)
                );
                hexes += 1;
            }
            assert_eq!(hexes, map.grid.hex_count());
        }
    }
}

fn pdfinfo(pdf: &Path, args: &[&str]) -> String {
    let mut command = Command::new("pdfinfo");
    command.args(args).arg(pdf);
    let output = run_with_timeout(command, Duration::from_secs(60));
    assert!(output.status.success(), "pdfinfo failed");
    String::from_utf8(output.stdout).unwrap()
}

/// One page rasterised by pdftoppm at `dpi`.
fn page_image(pdf: &Path, page: usize, dpi: u32, dir: &Path) -> image::RgbImage {
    let prefix = dir.join(format!("page{page}-{dpi}"));
    let mut command = Command::new("pdftoppm");
    command
        .args(["-png", "-singlefile", "-r", &dpi.to_string()])
        .args(["-f", &page.to_string(), "-l", &page.to_string()])
        .arg(pdf)
        .arg(&prefix);
    let output = run_with_timeout(command, Duration::from_secs(120));
    assert!(
        output.status.success(),
        "pdftoppm failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    image::open(prefix.with_extension("png")).unwrap().to_rgb8()
}

/// Centroids (mm) of the clusters of pure red pixels (the alignment marks).
fn red_marks(image: &image::RgbImage, dpi: f64) -> Vec<[f64; 2]> {
    let (w, h) = image.dimensions();
    let mut seen = vec![false; (w * h) as usize];
    let red = |p: &image::Rgb<u8>| p.0[0] > 200 && p.0[1] < 80 && p.0[2] < 80;
    let mut marks = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if seen[(y * w + x) as usize] || !red(image.get_pixel(x, y)) {
                continue;
            }
            let mut stack = vec![(x, y)];
            seen[(y * w + x) as usize] = true;
            let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
            while let Some((px, py)) = stack.pop() {
                sx += f64::from(px) + 0.5;
                sy += f64::from(py) + 0.5;
                n += 1.0;
                for (nx, ny) in [
                    (px.wrapping_sub(1), py),
                    (px + 1, py),
                    (px, py.wrapping_sub(1)),
                    (px, py + 1),
                ] {
                    if nx < w
                        && ny < h
                        && !seen[(ny * w + nx) as usize]
                        && red(image.get_pixel(nx, ny))
                    {
                        seen[(ny * w + nx) as usize] = true;
                        stack.push((nx, ny));
                    }
                }
            }
            if n > 20.0 {
                let mm = 25.4 / dpi;
                marks.push([sx / n * mm, sy / n * mm]);
            }
        }
    }
    marks
}

/// The distance between hex centres the marks show: the smallest vertical step between marks
/// in one column (flat hexes: a column's hexes are one hex apart).
fn hex_size_from_marks(marks: &[[f64; 2]]) -> f64 {
    let mut best = f64::INFINITY;
    for a in marks {
        for b in marks {
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            if dx.abs() < 0.5 && dy > 1.0 {
                best = best.min(dy);
            }
        }
    }
    best
}

#[test]
fn print_kit_pages_counters_and_hex_size() {
    if tool("pdfinfo").is_none() || tool("pdftoppm").is_none() {
        eprintln!(
            "\n!!! SKIPPED the print kit checks: no pdfinfo/pdftoppm on PATH (./run installs poppler-utils) !!!\n"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "scenarios/denain-1712.ron",
            "a4",
            "16mm",
            "1/2in",
            16.0,
            (595.276, 841.89),
        ),
        (
            "scenarios/fontenoy-1745.ron",
            "letter",
            "5/8in",
            "15mm",
            15.875,
            (612.0, 792.0),
        ),
    ];
    for (scenario, paper, hex, counter, hex_mm, (w_pt, h_pt)) in cases {
        let pdf = dir.path().join("kit.pdf");
        let output = bataille(&[
            "print",
            scenario,
            "--out",
            pdf.to_str().unwrap(),
            "--paper",
            paper,
            "--hex",
            hex,
            "--counter",
            counter,
        ]);
        let summary = String::from_utf8(output.stdout).unwrap();
        // "wrote …: N pages: 1 overview, M map (a×b), S counter sheet(s) …"
        let number_before = |word: &str| -> usize {
            let at = summary
                .find(word)
                .unwrap_or_else(|| panic!("{word} in {summary}"));
            summary[..at]
                .split_whitespace()
                .last()
                .unwrap()
                .parse()
                .unwrap()
        };
        let pages = number_before(" pages");
        let map_pages = number_before(" map");
        let sheets = number_before(" counter sheet");
        assert!(map_pages >= 2 && sheets >= 1, "{summary}");
        let info = pdfinfo(&pdf, &[]);
        assert!(
            info.contains(&format!("Pages:           {pages}")),
            "{info}"
        );
        // Every page the paper's size.
        let sizes = pdfinfo(&pdf, &["-f", "1", "-l", &pages.to_string()]);
        let page_lines: Vec<&str> = sizes
            .lines()
            .filter(|l| l.starts_with("Page") && l.contains("size:"))
            .collect();
        assert_eq!(page_lines.len(), pages);
        for (i, line) in page_lines.iter().enumerate() {
            let numbers: Vec<f64> = line
                .split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            let upright = (numbers[0] - w_pt).abs() < 0.5 && (numbers[1] - h_pt).abs() < 0.5;
            let turned = (numbers[0] - h_pt).abs() < 0.5 && (numbers[1] - w_pt).abs() < 0.5;
            // Map sheets (pages 2 to 1 + map_pages) may be turned to landscape.
            let map_sheet = (1..=map_pages).contains(&i);
            assert!(upright || (map_sheet && turned), "page {}: {line}", i + 1);
        }
        // No map sheet is left mostly blank: the map covers most of each one's area.
        for page in 2..2 + map_pages {
            let image = page_image(&pdf, page, 20, dir.path());
            let inked = image
                .pixels()
                .filter(|p| p.0.iter().any(|c| *c < 245))
                .count();
            let share = inked as f64 / (image.width() * image.height()) as f64;
            assert!(
                share > 0.35,
                "{scenario}: map sheet {page} is {share:.2} map"
            );
        }
        // Page 1's words stay on the page: nothing in its right-hand margin.
        let first = page_image(&pdf, 1, 100, dir.path());
        let edge = first.width() - (5.0 / 25.4 * 100.0) as u32;
        let off = (edge..first.width())
            .flat_map(|x| (0..first.height()).map(move |y| (x, y)))
            .filter(|&(x, y)| first.get_pixel(x, y).0.iter().any(|c| *c < 200))
            .count();
        assert_eq!(off, 0, "{scenario}: page 1 runs into its right margin");
        kit_text_checks(scenario, &pdf);
        // The map's hex size, from the alignment marks on the hex centres (first section).
        let dpi = 300.0;
        let section = page_image(&pdf, 2, dpi as u32, dir.path());
        let marks = red_marks(&section, dpi);
        assert!(marks.len() >= 4, "{} alignment marks", marks.len());
        let measured = hex_size_from_marks(&marks);
        assert!(
            (measured - hex_mm).abs() <= 0.2,
            "{scenario}: hexes {measured:.3} mm apart on paper, asked {hex_mm} mm"
        );
        // Counter fronts and backs: turned over on the long edge, each back lands on its front.
        let fronts_page = 2 + map_pages;
        let dpi = 100;
        let front = page_image(&pdf, fronts_page, dpi, dir.path());
        let back = page_image(&pdf, fronts_page + 1, dpi, dir.path());
        assert_eq!(front.dimensions(), back.dimensions());
        let (w, h) = front.dimensions();
        let top = ((10.0 + 14.0 - 0.5) / 25.4 * f64::from(dpi)) as u32;
        let ink = |p: &image::Rgb<u8>| p.0.iter().any(|c| *c < 200);
        let (mut both, mut either, mut unmirrored_both) = (0u32, 0u32, 0u32);
        for y in top..h {
            for x in 0..w {
                let f = ink(front.get_pixel(x, y));
                let b = ink(back.get_pixel(w - 1 - x, y));
                both += u32::from(f && b);
                either += u32::from(f || b);
                unmirrored_both += u32::from(f && ink(back.get_pixel(x, y)));
            }
        }
        let iou = f64::from(both) / f64::from(either.max(1));
        assert!(
            iou > 0.85,
            "{scenario}: fronts and turned backs overlap {iou:.3}"
        );
        assert!(
            unmirrored_both < both,
            "{scenario}: the backs are mirrored (not laid out as the fronts)"
        );
    }
}

/// The kit's text is text (fonts embedded, searchable), in the scenario's one language, every
/// name of the legend printed whole, and no word of the developers on any page.
fn kit_text_checks(scenario: &str, pdf: &Path) {
    let (Some(pdftotext), Some(pdffonts)) = (tool("pdftotext"), tool("pdffonts")) else {
        eprintln!("\n!!! SKIPPED the kit's text checks: no pdftotext/pdffonts on PATH !!!\n");
        return;
    };
    let mut command = Command::new(pdffonts);
    command.arg(pdf);
    let fonts =
        String::from_utf8(run_with_timeout(command, Duration::from_secs(60)).stdout).unwrap();
    assert!(
        fonts
            .lines()
            .any(|l| l.contains("DejaVuSans") && l.contains(" yes ")),
        "{scenario}: no embedded DejaVu Sans:\n{fonts}"
    );
    // In the content's order: the lines of a wrapped cell follow one another.
    let mut command = Command::new(pdftotext);
    command.arg("-raw").arg(pdf).arg("-");
    let output = run_with_timeout(command, Duration::from_secs(60));
    assert!(output.status.success());
    let raw = String::from_utf8(output.stdout).unwrap();
    // Wrapped lines joined: a name split over two lines of a cell reads as one.
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let loaded = load_scenario(&root().join(scenario)).unwrap();
    let map = &loaded.map.map;
    for name in map
        .terrain
        .values()
        .map(|t| &t.name)
        .chain(map.overlay_types.values().map(|o| &o.name))
        .chain(map.hexside_types.values().map(|h| &h.name))
        .chain(
            loaded
                .scenario
                .rules
                .unit_kinds
                .values()
                .filter(|k| !k.immobile)
                .map(|k| &k.name),
        )
    {
        let words = name.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains(&words),
            "{scenario}: «{name}» not printed whole"
        );
    }
    for word in ["expressible", "reconstructed", "not available", "(data)"] {
        assert!(
            !text.contains(word),
            "{scenario}: «{word}» printed in the kit"
        );
    }
    let french = loaded.scenario.language.as_deref() == Some("fr");
    let (own, other) = if french {
        (
            vec![
                "Table des effets du terrain",
                "Conditions de victoire",
                "brèche obligatoire",
                "DÉSORGANISATION",
                "DÉROUTE",
            ],
            vec![
                "Terrain effects chart",
                "Victory conditions",
                "counter sheet",
                "DISORDER",
                "ACTIVATED",
            ],
        )
    } else {
        (
            vec![
                "Terrain effects chart",
                "Victory conditions",
                "counter sheet",
                "DISORDER",
                "ROUT",
            ],
            vec![
                "Table des effets du terrain",
                "Conditions de victoire",
                "planche de pions",
                "ACTIVATED",
                "DÉSORGANISATION",
            ],
        )
    };
    for phrase in own {
        assert!(text.contains(phrase), "{scenario}: «{phrase}» missing");
    }
    for phrase in other {
        assert!(
            !text.contains(phrase),
            "{scenario}: «{phrase}» in the other language"
        );
    }
    // The units and leaders are named (the set-up), searchable.
    for army in &loaded.scenario.armies {
        for unit in army.units.iter().take(3) {
            assert!(
                text.contains(unit.name.as_str()),
                "{scenario}: {} not in the text",
                unit.name
            );
        }
    }
}

/// A counter larger than the hex is printed, with a warning saying so.
#[test]
fn print_warns_when_counters_do_not_fit_the_hexes() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("kit.pdf");
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.current_dir(root()).args([
        "print",
        "scenarios/denain-1712.ron",
        "--out",
        pdf.to_str().unwrap(),
        "--hex",
        "12mm",
        "--counter",
        "5/8in",
    ]);
    let output = run_with_timeout(command, Duration::from_secs(240));
    assert!(output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("warning") && said.contains("15.9 mm") && said.contains("12.0 mm"),
        "{said}"
    );
    let mut command = Command::new(env!("CARGO_BIN_EXE_bataille"));
    command.current_dir(root()).args([
        "print",
        "scenarios/denain-1712.ron",
        "--out",
        pdf.to_str().unwrap(),
    ]);
    let output = run_with_timeout(command, Duration::from_secs(240));
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stderr).contains("warning"));
}

/// A digitised map: its scan (here the map rendered to a PNG, with the exact fit) comes out as
/// Tiled's image layer resampled into Tiled's pixels, every hex's scan under its tile.
#[test]
fn tiled_scan_layer_lines_up_with_the_tiles() {
    use bataille_export::tiled::TiledGeometry;
    use bataille_render::{Layout, RenderOptions, render_map};
    use bataille_schema::map::{Background, FitKind};
    let dir = tempfile::tempdir().unwrap();
    let mut map = load_map(&root().join("maps/denain-1712.ron")).unwrap().map;
    let options = RenderOptions {
        px_per_hex: 40.0,
        hex_names: false,
        labels: false,
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &options).unwrap();
    let scan = render_map(&map, &options).unwrap();
    bataille_render::save_png(&scan, &dir.path().join("scan.png")).unwrap();
    map.background = Some(Background {
        image: "scan.png".to_owned(),
        fit: FitKind::Affine,
        grid_to_image: layout.grid_to_image(),
        control_points: Vec::new(),
    });
    let map_path = dir.path().join("digitised.ron");
    bataille_schema::io::save_map(&map_path, &map).unwrap();
    let out = dir.path().join("digitised.tmx");
    bataille(&[
        "export",
        "--tiled",
        map_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let geometry = TiledGeometry::of(&map);
    let resampled = image::open(dir.path().join("digitised-scan.png"))
        .unwrap()
        .to_rgb8();
    assert_eq!(
        resampled.dimensions(),
        (geometry.width_px, geometry.height_px)
    );
    let loaded = tiled::Loader::new()
        .load_tmx_map(&out)
        .expect("the tiled crate loads it");
    assert!(
        loaded
            .layers()
            .any(|l| l.name == "scan" && l.as_image_layer().is_some())
    );
    // Sample both pictures at the same point of each hex that is not open ground (forest,
    // town, river, heights: their neighbours mostly differ, so a shifted layer disagrees).
    let (mut agree, mut sampled) = (0, 0);
    for index in map.grid.indices() {
        let code = map.rows[index.row as usize].chars().nth(index.col as usize);
        if code == Some('.') {
            continue;
        }
        sampled += 1;
        let c = map.grid.centre(index);
        let p = [c[0] - 0.3, c[1] + 0.35];
        let s = layout.to_image(p);
        let t = geometry.to_tiled(p);
        let a = scan.pixel(s[0] as u32, s[1] as u32).unwrap().demultiply();
        let b = resampled.get_pixel(t[0] as u32, t[1] as u32).0;
        let close = [a.red(), a.green(), a.blue()]
            .iter()
            .zip(b)
            .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= 40);
        agree += usize::from(close);
    }
    assert!(
        sampled > 50 && agree * 100 >= sampled * 90,
        "only {agree} of {sampled} hexes agree between the scan and Tiled's image layer"
    );
    if let Some(tiled_bin) = tool("tiled") {
        let json_path = dir.path().join("digitised.json");
        let mut command = Command::new(tiled_bin);
        command
            .env("QT_QPA_PLATFORM", "offscreen")
            .arg("--export-map")
            .arg("json")
            .arg(&out)
            .arg(&json_path);
        let output = run_with_timeout(command, Duration::from_secs(120));
        assert!(
            output.status.success(),
            "tiled could not load the map with its scan"
        );
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        assert!(
            json["layers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["type"] == "imagelayer")
        );
    } else {
        eprintln!(
            "\n!!! SKIPPED loading the scan layer in the real Tiled: no `tiled` binary on PATH !!!\n"
        );
    }
}

/// A digitised map's VASSAL board is its scan, resampled through the fit so that VASSAL's grid
/// (from buildFile.xml) lands on the scan's hexes.
#[test]
fn vassal_board_of_a_digitised_map_is_its_scan_under_the_grid() {
    use bataille_render::{Layout, RenderOptions, render_map};
    use bataille_schema::map::{Background, FitKind};
    let dir = tempfile::tempdir().unwrap();
    let mut map = load_map(&root().join("maps/denain-1712.ron")).unwrap().map;
    // The "scan": the map drawn at another scale, without names, in inverted colours (so it
    // cannot pass for the rendered board), with its exact fit.
    let options = RenderOptions {
        px_per_hex: 40.0,
        hex_names: false,
        labels: false,
        ..RenderOptions::default()
    };
    let layout = Layout::new(&map.grid, &options).unwrap();
    let mut scan = render_map(&map, &options).unwrap();
    for pixel in scan.pixels_mut() {
        let c = pixel.demultiply();
        *pixel = bataille_render::tiny_skia::PremultipliedColorU8::from_rgba(
            255 - c.red(),
            255 - c.green(),
            255 - c.blue(),
            255,
        )
        .unwrap();
    }
    bataille_render::save_png(&scan, &dir.path().join("scan.png")).unwrap();
    map.background = Some(Background {
        image: "scan.png".to_owned(),
        fit: FitKind::Affine,
        grid_to_image: layout.grid_to_image(),
        control_points: Vec::new(),
    });
    bataille_schema::io::save_map(&dir.path().join("digitised.ron"), &map).unwrap();
    let mut scenario = load_scenario(&root().join("scenarios/denain-1712.ron"))
        .unwrap()
        .scenario;
    scenario.map = "digitised.ron".to_owned();
    // Its miniatures systems are not copied beside it (the door would refuse a scenario whose
    // systems are missing); the board is what this test is about.
    scenario.miniatures.clear();
    let scenario_path = dir.path().join("battle.ron");
    bataille_schema::io::save_scenario(&scenario_path, &scenario).unwrap();
    let out = dir.path().join("battle.vmod");
    bataille(&[
        "export",
        "--vassal",
        scenario_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = read_zip(&out);
    let text = String::from_utf8(files["buildFile.xml"].clone()).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let grid_el = doc
        .descendants()
        .find(|n| n.tag_name().name() == "VASSAL.build.module.map.boardPicker.board.HexGrid")
        .unwrap();
    let attr = |a: &str| -> f64 { grid_el.attribute(a).unwrap().parse().unwrap() };
    let (x0, y0, dx, dy) = (attr("x0") as i64, attr("y0") as i64, attr("dx"), attr("dy"));
    let board = image::load_from_memory(&files["images/board.png"])
        .unwrap()
        .to_rgba8();
    // At VASSAL's centre of each hex that is not open ground, plus a fixed offset in hexes, the
    // board shows what the scan shows at the same place of the same hex.
    let r_board = dx / 1.5;
    let (mut agree, mut sampled) = (0, 0);
    for index in map.grid.indices() {
        if map.rows[index.row as usize].chars().nth(index.col as usize) == Some('.') {
            continue;
        }
        sampled += 1;
        // Denain: first column shifted, so raw column = index + 1 (the module's hOff says so).
        let col = i64::from(index.col) + 1;
        let row = i64::from(index.row);
        let x = (col as f64 * dx) as i64 + x0;
        let y = if col % 2 == 0 {
            (row as f64 * dy) as i64
        } else {
            (row as f64 * dy + dy / 2.0) as i64
        } + y0;
        let (ox, oy) = (-0.3, 0.35);
        let b = board
            .get_pixel(
                (x as f64 + ox * r_board) as u32,
                (y as f64 + oy * r_board) as u32,
            )
            .0;
        let c = map.grid.centre(index);
        let s = layout.to_image([c[0] + ox as f32, c[1] + oy as f32]);
        let a = scan.pixel(s[0] as u32, s[1] as u32).unwrap().demultiply();
        let close = [a.red(), a.green(), a.blue()]
            .iter()
            .zip(b)
            .all(|(p, q)| (i32::from(*p) - i32::from(q)).abs() <= 40);
        agree += usize::from(close);
    }
    assert!(
        sampled > 50 && agree * 100 >= sampled * 90,
        "only {agree} of {sampled} hexes of the scan under VASSAL's grid"
    );
}

/// The runner these tests share reads a program's output while it runs: 200,000 bytes (three
/// times what a pipe holds) come back whole, well inside the limit, instead of the program
/// blocking on a full pipe until the limit kills it.
#[test]
fn the_test_runner_reads_more_than_a_pipe_holds() {
    let mut head = Command::new("head");
    head.args(["-c", "200000", "/dev/zero"]);
    let output = run_with_timeout(head, Duration::from_secs(30));
    assert!(output.status.success());
    assert_eq!(output.stdout.len(), 200_000);
}
