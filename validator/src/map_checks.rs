//! Map checks: the terrain rows fill the grid with codes of the legend, overlays and hexside
//! features name types of the legend and lie on the map (hexsides between two of its hexes),
//! bridges stand on water, labels, checked hexes and control points lie on the map, half-hexes
//! on its edge, and the map's `allow` names codes.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use bataille_schema::{HexIndex, HexName, Map, Side};

use crate::codes::Code;
use crate::context::{MAP, key_pointer};
use crate::diagnostic::Diagnostic;
use crate::sink::Sink;

/// At most this many E0603 per unknown code: a map painted with a wrong code would otherwise
/// give one diagnostic per hex.
const MAX_PER_UNKNOWN_CODE: usize = 20;

/// The map's checks, one per code or tight family, in the order a reader meets the file.
pub(crate) fn check_map(map: &Map, out: &mut Sink<'_>) {
    terrain_codes(map, out);
    rows(map, out);
    let water = hexsides(map, out);
    overlays(map, &water, out);
    places_on_the_map(map, out);
    half_hexes(map, out);
    check_paths(map, out);
    allow_list(map, out);
}

/// E0610: a terrain code is one character (each hex of a row is one character).
fn terrain_codes(map: &Map, out: &mut Sink<'_>) {
    for code in map.terrain.keys() {
        if code.chars().count() != 1 {
            out.push(
                Diagnostic::new(
                    Code::E0610,
                    MAP,
                    key_pointer("/terrain", code),
                    format!("terrain code `{code}` is not one character, so no hex can use it"),
                )
                .help("use a single character as the code (each hex of a row is one character)"),
            );
        }
    }
}

/// E0601, E0602, E0603: exactly `rows` rows of terrain, each of `columns` codes of the legend
/// (at most [`MAX_PER_UNKNOWN_CODE`] reported per unknown code, then how many more).
fn rows(map: &Map, out: &mut Sink<'_>) {
    let grid = &map.grid;
    let legend = || {
        let mut codes: Vec<String> = map.terrain.keys().map(|k| format!("`{k}`")).collect();
        codes.truncate(20);
        codes.join(", ")
    };
    // Rows: exactly `rows` of them, each with exactly `columns` codes.
    let rows = grid.rows as usize;
    let columns = grid.columns as usize;
    if map.rows.len() != rows {
        let (pointer, fix) = if map.rows.len() > rows {
            (
                format!("/rows/{rows}"),
                "remove the extra rows or raise grid.rows",
            )
        } else {
            (
                "/rows".to_owned(),
                "add the missing rows or lower grid.rows",
            )
        };
        out.push(
            Diagnostic::new(
                Code::E0601,
                MAP,
                pointer,
                format!(
                    "the map has {} rows of terrain, but grid.rows is {rows}",
                    map.rows.len()
                ),
            )
            .help(fix),
        );
    }
    // The legend's one-character codes, scanned for each hex (a few dozen characters compare
    // faster than the string-keyed legend: this runs for every hex of the map).
    let known: Vec<char> = map
        .terrain
        .keys()
        .filter_map(|code| {
            let mut chars = code.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        })
        .collect();
    // A legend code of more than one character (E0610) may be the one the unknown codes
    // meant (`"ee"` for `e`): the hexes are not each said to use a code not in the legend.
    let legend_broken = known.len() < map.terrain.len();
    let mut unknown_seen: HashMap<char, usize> = HashMap::new();
    for (r, row) in map.rows.iter().enumerate() {
        let printed_row = grid.first_row as usize + r;
        let length = row.chars().count();
        if length != columns {
            let mut d = Diagnostic::new(
                Code::E0602,
                MAP,
                format!("/rows/{r}"),
                format!(
                    "row {printed_row} has {length} terrain codes, but grid.columns is {columns}"
                ),
            )
            .help(if length > columns {
                "remove the extra codes at the end of the row (one code per column)"
            } else {
                "add the missing codes (one code per column)"
            });
            if length > columns {
                d = d.chars(columns..length);
            }
            out.push(d);
        }
        if r >= rows {
            continue;
        }
        for (c, code) in row.chars().enumerate().take(columns) {
            if known.contains(&code)
                || legend_broken
                || map.is_absent(HexIndex::new(c as u32, r as u32))
            {
                continue;
            }
            let seen = unknown_seen.entry(code).or_default();
            *seen += 1;
            if *seen > MAX_PER_UNKNOWN_CODE {
                continue;
            }
            let hex = grid.name(HexIndex::new(c as u32, r as u32));
            out.push(
                Diagnostic::new(
                    Code::E0603,
                    MAP,
                    format!("/rows/{r}"),
                    format!(
                        "hex {hex} has terrain code `{}`, which is not in the terrain legend",
                        code.escape_debug()
                    ),
                )
                .help(format!(
                    "use a code of the legend ({}) or add `{}` to `terrain`",
                    legend(),
                    code.escape_debug()
                ))
                .chars(c..c + 1)
                .hex(hex.as_str()),
            );
        }
    }
    for (code, count) in unknown_seen {
        if count > MAX_PER_UNKNOWN_CODE {
            // Say how many more, on the last one reported.
            if let Some(last) = out.kept_mut().iter_mut().rev().find(|d| {
                d.code == Code::E0603 && d.message.contains(&format!("`{}`", code.escape_debug()))
            }) {
                last.message.push_str(&format!(
                    " ({} more hexes use `{}`)",
                    count - MAX_PER_UNKNOWN_CODE,
                    code.escape_debug()
                ));
            }
        }
    }
}

/// E0606, E0607, E0608: each hexside feature is of a known type and between two hexes of the
/// map; a bridge hexside spans water (Denain 7.5). Returns the water hexsides, for the bridge
/// overlays.
fn hexsides(map: &Map, out: &mut Sink<'_>) -> HashSet<(HexIndex, Side)> {
    let grid = &map.grid;
    // Hexside features: each between two map hexes, of a known type; water ones noted for bridges.
    let mut water: HashSet<(HexIndex, Side)> = HashSet::new();
    let mut parsed: Vec<(&str, usize, (HexIndex, Side))> = Vec::new();
    for (type_id, sides) in &map.hexsides {
        let base = key_pointer("/hexsides", type_id.as_str());
        let feature = map.hexside_types.get(type_id);
        if feature.is_none() {
            let mut known: Vec<String> =
                map.hexside_types.keys().map(|k| format!("`{k}`")).collect();
            known.truncate(20);
            out.push(
                Diagnostic::new(
                    Code::E0607,
                    MAP,
                    base.clone(),
                    format!("hexside feature `{type_id}` is not in hexside_types"),
                )
                .help(if known.is_empty() {
                    format!("add `{type_id}` to hexside_types")
                } else {
                    format!(
                        "use a type of hexside_types ({}) or add `{type_id}`",
                        known.join(", ")
                    )
                }),
            );
        }
        for (k, side) in sides.iter().enumerate() {
            let pointer = format!("{base}/{k}");
            match grid.parse_hexside(side.as_str()) {
                // The JSON Schema's E0105 says it, at this place (issue 19).
                Err(_) if side.is_refused() => {}
                Err(error) => out.push(
                    Diagnostic::new(
                        Code::E0606,
                        MAP,
                        pointer,
                        format!("hexside `{side}` of `{type_id}`: {error}"),
                    )
                    .help("name a hexside between two hexes of the map, such as `2213/SE`"),
                ),
                Ok((index, s)) => {
                    if grid.neighbour(index, s).is_none() {
                        out.push(
                            Diagnostic::new(
                                Code::E0606,
                                MAP,
                                pointer,
                                format!("hexside `{side}` of `{type_id}` lies on the map's edge, not between two hexes"),
                            )
                            .help("name a hexside between two hexes of the map")
                            .hex(grid.name(index).as_str()),
                        );
                        continue;
                    }
                    let canonical = grid.canonical_hexside(index, s);
                    // A feature of an unknown type (E0607) may be water: a bridge over it
                    // is not said to cross none.
                    if feature.is_none_or(|f| f.water) {
                        water.insert(canonical);
                    }
                    parsed.push((type_id.as_str(), k, canonical));
                }
            }
        }
    }
    // 7.5: a bridge hexside spans water.
    for (type_id, k, canonical) in &parsed {
        let Some(feature) = map.hexside_types.get(*type_id) else {
            continue;
        };
        if feature.bridge && !water.contains(canonical) {
            let name = grid.hexside_ref(canonical.0, canonical.1);
            out.push(
                Diagnostic::new(
                    Code::E0608,
                    MAP,
                    format!("{}/{k}", key_pointer("/hexsides", type_id)),
                    format!("bridge `{type_id}` at {name} does not cross a water hexside"),
                )
                .help("put the bridge on a river or stream hexside, or add that hexside to a water feature")
                .hex(grid.name(canonical.0).as_str()),
            );
        }
    }
    water
}

/// E0604, E0605, E0609: overlays are of known types, on the map; a bridge overlay stands on
/// water terrain or beside a water hexside.
fn overlays(map: &Map, water: &HashSet<(HexIndex, Side)>, out: &mut Sink<'_>) {
    let grid = &map.grid;
    // Overlays: of known types, on the map; bridge overlays where water is.
    for (hex, overlays) in &map.overlays {
        let base = key_pointer("/overlays", hex.as_str());
        let index = match parse_hex(map, hex) {
            Ok(index) => Some(index),
            Err(error) => {
                off_map(
                    out,
                    base.clone(),
                    hex,
                    &format!("overlays at {hex}"),
                    &error.to_string(),
                );
                None
            }
        };
        for (k, id) in overlays.iter().enumerate() {
            let Some(overlay) = map.overlay_types.get(id) else {
                let mut known: Vec<String> =
                    map.overlay_types.keys().map(|k| format!("`{k}`")).collect();
                known.truncate(20);
                out.push(
                    Diagnostic::new(
                        Code::E0604,
                        MAP,
                        format!("{base}/{k}"),
                        format!("overlay `{id}` at {hex} is not in overlay_types"),
                    )
                    .help(if known.is_empty() {
                        format!("add `{id}` to overlay_types")
                    } else {
                        format!(
                            "use a type of overlay_types ({}) or add `{id}`",
                            known.join(", ")
                        )
                    })
                    .hex(hex.as_str()),
                );
                continue;
            };
            let Some(index) = index else { continue };
            if overlay.bridge {
                let on_water_terrain = map
                    .rows
                    .get(index.row as usize)
                    .and_then(|row| row.chars().nth(index.col as usize))
                    .and_then(|code| {
                        let mut buf = [0u8; 4];
                        map.terrain.get(&*code.encode_utf8(&mut buf))
                    })
                    // A code not in the legend (E0603, E0610) may be water's.
                    .is_none_or(|t| t.water);
                let by_water_side = grid
                    .neighbours(index)
                    .any(|(side, _)| water.contains(&grid.canonical_hexside(index, side)));
                if !on_water_terrain && !by_water_side {
                    out.push(
                        Diagnostic::new(
                            Code::E0609,
                            MAP,
                            format!("{base}/{k}"),
                            format!("bridge `{id}` at {hex} stands on no water: its terrain is not water and no side of the hex is a water hexside"),
                        )
                        .help("move the bridge to a water hex or beside a river or stream hexside")
                        .hex(hex.as_str()),
                    );
                }
            }
        }
    }
}

/// E0605: labels, checked hexes and the background's control points lie on the map.
fn places_on_the_map(map: &Map, out: &mut Sink<'_>) {
    let grid = &map.grid;
    // Labels, checked hexes and control points lie on the map.
    for hex in map.labels.keys() {
        if let Err(error) = parse_hex(map, hex) {
            off_map(
                out,
                key_pointer("/labels", hex.as_str()),
                hex,
                &format!("label at {hex}"),
                &error.to_string(),
            );
        }
    }
    for (k, hex) in map.checked.iter().enumerate() {
        if let Err(error) = parse_hex(map, hex) {
            off_map(
                out,
                format!("/checked/{k}"),
                hex,
                &format!("checked hex {hex}"),
                &error.to_string(),
            );
        }
    }
    if let Some(background) = &map.background {
        for (k, point) in background.control_points.iter().enumerate() {
            if let Err(error) = grid.parse(point.hex.as_str()) {
                off_map(
                    out,
                    format!("/background/control_points/{k}/hex"),
                    &point.hex,
                    &format!("control point at {}", point.hex),
                    &error.to_string(),
                );
            }
        }
    }
}

/// E0611 (and E0605): a half-hex is on the map's edge (a hex with a side off the map), where
/// the printed frame cuts it.
fn half_hexes(map: &Map, out: &mut Sink<'_>) {
    let grid = &map.grid;
    // Half-hexes: the frame cuts only hexes on the map's edge (a hex with a side off the map).
    for (k, hex) in map.half_hexes.iter().enumerate() {
        match parse_hex(map, hex) {
            Err(error) => off_map(
                out,
                format!("/half_hexes/{k}"),
                hex,
                &format!("half-hex {hex}"),
                &error.to_string(),
            ),
            Ok(index) if grid.neighbours(index).count() == 6 => out.push(
                Diagnostic::new(
                    Code::E0611,
                    MAP,
                    format!("/half_hexes/{k}"),
                    format!("half-hex {hex} is not on the edge of the map: all six of its neighbours are on it, so no frame can cut it"),
                )
                .help("list only hexes of the first or last row or column that the printed frame cuts")
                .hex(hex.as_str()),
            ),
            Ok(_) => {}
        }
    }
}

/// W0107: the map's `allow` names codes, or it silently suppresses nothing.
fn allow_list(map: &Map, out: &mut Sink<'_>) {
    // Suppressions must name codes, or they silently suppress nothing.
    for (k, code) in map.allow.iter().enumerate() {
        if code.parse::<Code>().is_err() {
            out.push(crate::suppressions::unknown_code(
                MAP,
                format!("/allow/{k}"),
                code,
            ));
        }
    }
}

/// A hex of the map by name, with why not: off the grid, malformed, or an absent cell of a
/// short line (`short_lines`).
fn parse_hex(map: &Map, hex: &HexName) -> Result<HexIndex, String> {
    match map.grid.parse(hex.as_str()) {
        Ok(index) if map.is_absent(index) => Err(format!(
            "{hex} is not a hex: the map's short lines (`short_lines`) have no hex there"
        )),
        Ok(index) => Ok(index),
        Err(error) => Err(error.to_string()),
    }
}

/// The paths of linear overlays (roads): of a known overlay type, each token a hex of the map
/// (or, at either end, a hexside the road leaves by), each hex next to the one before (E0612).
fn check_paths(map: &Map, out: &mut Sink<'_>) {
    let grid = &map.grid;
    for (id, paths) in &map.paths {
        let base = key_pointer("/paths", id.as_str());
        if !map.overlay_types.contains_key(id) {
            out.push(
                Diagnostic::new(
                    Code::E0604,
                    MAP,
                    base.clone(),
                    format!("paths are given for overlay `{id}`, which is not in `overlay_types`"),
                )
                .help("name an overlay type of the legend (a road)"),
            );
        }
        for (p, path) in paths.iter().enumerate() {
            let pointer = format!("{base}/{p}");
            let tokens: Vec<&str> = path.split_whitespace().collect();
            let mut previous: Option<(HexIndex, &str)> = None;
            for (t, token) in tokens.iter().enumerate() {
                let at_end = t == 0 || t + 1 == tokens.len();
                let (hex, side) = match token.split_once('/') {
                    Some(_) if !at_end => {
                        out.push(path_break(&pointer, format!("road path {p} of `{id}`: the hexside `{token}` is in the middle of the path; a hexside may only begin or end it")));
                        continue;
                    }
                    Some((hex, _)) => (hex, true),
                    None => (*token, false),
                };
                let index = match parse_hex(map, &HexName::from(hex)) {
                    Ok(index) => index,
                    Err(why) => {
                        out.push(path_break(
                            &pointer,
                            format!("road path {p} of `{id}`: `{token}`: {why}"),
                        ));
                        previous = None;
                        continue;
                    }
                };
                if side && grid.parse_hexside(token).is_err() {
                    out.push(path_break(
                        &pointer,
                        format!("road path {p} of `{id}`: `{token}` is not a hexside of this grid"),
                    ));
                }
                if let Some((before, name)) = previous
                    && before != index
                    && grid.side_between(before, index).is_none()
                {
                    out.push(path_break(&pointer, format!("road path {p} of `{id}` jumps from {name} to {hex}, which are not neighbours")));
                }
                previous = Some((index, hex));
            }
        }
    }
}

fn path_break(pointer: &str, message: String) -> Diagnostic {
    Diagnostic::new(Code::E0612, MAP, pointer.to_owned(), message)
        .help("write the path as neighbouring hexes, one after the other (`\"0901 1002 1102\"`)")
}

/// E0605 at a hex name of no hex of the map, unless the JSON Schema refuses the name itself:
/// its E0105 says so at this place, and nothing is counted here for it (issue 19).
fn off_map(out: &mut Sink<'_>, pointer: String, hex: &HexName, what: &str, why: &str) {
    if hex.is_refused() {
        return;
    }
    out.push(
        Diagnostic::new(Code::E0605, MAP, pointer, format!("{what}: {why}"))
            .help("name a hex of the map, or remove the entry")
            .hex(hex.as_str()),
    );
}
