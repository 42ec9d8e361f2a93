#!/usr/bin/env python3
"""The sixth round of hostile inputs (issue 19) against the real bataille binary and editor.

New inputs aimed at what the last two sessions added and no round has tried. Each case: a
fresh copy of a club's repository (tests/hostile/club.py), a mutation, one or more runs under
`timeout` and `ulimit -v`, and what must hold (the 0/1/2 contract, no panic or abort, no raw
control on a terminal, well-formed XML, JSON that parses, a file's text back literally).
Prints one line per case (HELD / HOLE, class, surface, what) and the tally. Run from the
repository after `cargo build -p bataille -p bataille-editor`, with absolute paths:

    python3 tests/hostile/round6.py
    BATAILLE=$PWD/target/debug/bataille HOSTILE_DISPLAY=:66 python3 tests/hostile/round6.py
    ONLY="some words of a case" python3 tests/hostile/round6.py

The editor's cases run `target/debug/bataille-editor` (BATAILLE_EDITOR) on the X display
HOSTILE_DISPLAY (default :47; start one with `Xvfb :66 -screen 0 1600x1000x24 &`).

What each class aims at:
- `short text`: the 16-byte `ShortStr` (schema/src/short.rs) every id, hex name, colour, code
  and unit name now is: texts of 13-17 bytes (inline up to 14, then the heap), multibyte
  characters across the inline boundary, RON escapes, raw and byte strings spelling them, ids
  equal in their first 14 bytes, a long text repeated 100,000 times (shared) and 64 long texts
  alternating (the recent-texts table's slots); through validate, fmt, export --json / --vassal
  / --tiled, render, print and table, each name back literally.
- `thin`: what a unit holds behind one pointer (`Thin`, schema/src/thin.rs): `allow: []`,
  `ratings: {}`, a reinforcement's `entry: []` (the schema's minimum of one), repeated and
  huge lists, `Some(...)` around them; fmt must be stable and the refusals located.
- `exits`: road paths ending with the hexside a road leaves by (`"1001/N 1002"`): every side
  of every edge hex, sides of the other orientation, sides facing a neighbour, hexsides in the
  middle, `/` games, a megabyte side; through every command and export, reports bounded.
- `digitize json`: `--format json` with hostile file names and values, a closed pipe.
- `trace`: road tracing on hostile scans: one row, one column, all ink, stripes and a
  checkerboard of the road's ink, thousands of short separate roads (each its own path), a
  scan at the pixel limit; the command must end, within its memory, and write a map validate
  takes.
- `editor`: recovery files holding the new types at their edges and maps the door refuses, a
  settings file with hostile table text; the editor must stay up.
- `paths`: the crossing review's library side (cutting a path at a crossing, paths from
  crossings) on hostile paths, through the command that uses it.

The end-to-end tests that keep each class from coming back: tests/hostile_round6.rs.
"""
import os, re, json, zipfile, struct, zlib, subprocess, sys, shutil, math, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club import *  # noqa: F401,F403 (the shared club, runner and checks)

V = "scenarios/denain-1712-tingry-tard.ron"
GARDES = '(id: "fr-gardes-francaises", name: "Gardes françaises", kind: "infantry", corps: "fr-maison-du-roi", cp: 3, mp: 4, morale: 5, facing: SE, placement: Free(zone: "fr-zone-maison-du-roi", at: "1608")),\n'


def add_units(lines):
    """Units beside the Gardes françaises (`lines`: the RON of each)."""
    edit(S, GARDES, GARDES + "".join("                " + l + ",\n" for l in lines))


def unit(uid, name="U", extra=""):
    return f'(id: "{uid}", name: {json.dumps(name, ensure_ascii=False)}, kind: "infantry", corps: "fr-maison-du-roi", cp: 1, mp: 4, morale: 3, facing: SE, placement: Free(zone: "fr-zone-maison-du-roi"){extra})'


def codes_of(r):
    try:
        return [d["code"] for d in json.loads(r.out)]
    except Exception as e:  # noqa
        return [f"(json: {e}: {r.all[-200:]})"]


def json_of(r):
    try:
        return json.loads(r.out)
    except Exception as e:  # noqa
        return None


def every_command(p, timeout=120, scenario=S, mapfile=M):
    """Every command on the club's battle: the contract, no raw control, well-formed XML."""
    for f in ["r.png", "rs.png", "k.pdf", "t.tmx", "out.vmod", "p.svg"]:
        if os.path.exists(path(f)):
            os.remove(path(f))
    for args in [["validate", mapfile, scenario], ["validate", "--format", "sarif", scenario],
                 ["validate", "--format", "github", scenario],
                 ["render", mapfile, "--out", "r.png"], ["render", scenario, "--out", "rs.png"],
                 ["print", scenario, "--out", "k.pdf"], ["export", "--tiled", scenario, "--out", "t.tmx"],
                 ["export", "--vassal", scenario, "--out", "out.vmod"], ["export", "--json", scenario],
                 ["table", scenario, "--system", "age-of-honor", "--out", "p.svg"], ["fmt", "--check", mapfile, scenario]]:
        r = run(*args, timeout=timeout)
        p += [f"{args[0]}: {x}" for x in sane(r) + raw_controls(r)]
        if len(r.all) > 2_000_000:
            p.append(f"{args[0]}: {len(r.all)} bytes of output")
    if os.path.exists(path("t.tmx")):
        p += well_formed_xml(read("t.tmx", "rb"), "t.tmx")
    if os.path.exists(path("out.vmod")):
        p += well_formed_xml(zipfile.ZipFile(path("out.vmod")).read("buildFile.xml"), "buildFile.xml")
    if os.path.exists(path("p.svg")):
        p += well_formed_xml(read("p.svg", "rb"), "p.svg")
    return p


def fmt_stable(p, files):
    """fmt rewrites the files, then has nothing to change, and the JSON is the same as before."""
    before = [run("export", "--json", f).out for f in files]
    r = run("fmt", *files)
    p += sane(r)
    c = run("fmt", "--check", *files)
    if c.code != 0:
        p.append(f"fmt is not stable: {c.all[-300:]}")
    after = [run("export", "--json", f).out for f in files]
    if before != after:
        p.append("fmt changed the document's meaning (export --json differs)")
    return p


# ------------------------------------------------------------------ short text (ShortStr)
NAMES = ["a" * 13 + "é", "a" * 12 + "é", "a" * 11 + "😀", "a" * 10 + "😀", "a" * 13 + "😀", "é" * 7, "é" * 8,
         "a" * 14, "a" * 15, "a" * 16, "a" * 13 + "e\u0301", "\u202eb" * 4, "<b>&amp;" * 2, "x" * 80]


@case("short text", "every command", "unit names of 13-17 bytes with é / 😀 across the 14-byte inline boundary, back literally")
def _():
    add_units([unit(f"fr-n{i}", n) for i, n in enumerate(NAMES)])
    p = every_command([])
    doc = json_of(run("export", "--json", S))
    if doc is None:
        return p + ["export --json did not parse"]
    got = {u["id"]: u["name"] for a in doc["armies"] for u in a["units"] if u["id"].startswith("fr-n")}
    for i, n in enumerate(NAMES):
        if got.get(f"fr-n{i}") != n:
            p.append(f"name {n!r} came back as {got.get(f'fr-n{i}')!r}")
    if os.path.exists(path("out.vmod")):
        build = zipfile.ZipFile(path("out.vmod")).read("buildFile.xml").decode()
        for n in NAMES[:11]:
            if n not in build:
                p.append(f"{n!r} not in the module literally")
    return fmt_stable(p, [S])


@case("short text", "validate", "ids of 14, 15 and 16 bytes equal in their first 14 bytes, each given twice")
def _():
    ids = ["fr-abcdefghijk", "fr-abcdefghijkl", "fr-abcdefghijkm", "fr-abcdefghijklm"]
    add_units([unit(i) for i in ids] + [unit(i) for i in ids])
    r = run("validate", "--format", "json", S)
    p = sane(r)
    try:
        diags = json.loads(r.out)
    except Exception as e:  # noqa
        return p + [f"json: {e}"]
    dup = [d for d in diags if "fr-abcdefghijk" in d.get("message", "")]
    named = sorted({i for d in dup for i in ids if f"`{i}`" in d["message"]})
    if named != sorted(ids):
        p.append(f"the repeated ids reported: {named} of {ids}: {[d['message'] for d in dup][:6]}")
    if len(dup) != len(ids):
        p.append(f"{len(dup)} diagnostics for {len(ids)} repeated ids")
    # Each once, distinct: no false repeat.
    edit(S, "".join("                " + unit(i) + ",\n" for i in ids), "", 1)
    r = run("validate", "--format", "json", S)
    if any("fr-abcdefghijk" in d.get("message", "") for d in json.loads(r.out)):
        p.append("distinct ids sharing 14 bytes reported as repeats")
    return p


@case("short text", "validate / fmt", "RON escapes, raw strings and byte strings spelling ids, codes, colours and names")
def _():
    add_units([
        '(id: "fr-\\u{65}sc-1", name: "\\u{e9}\\u{e9}\\u{e9}\\u{e9}\\u{e9}\\u{e9}\\u{e9}x", kind: "infantry", corps: "fr-maison-du-roi", cp: 1, mp: 4, morale: 3, placement: Hex("\\x30\\x31\\x30\\x31"))',
        '(id: r#"fr-raw-1"#, name: r#"Raw "quoted" \\ name"#, kind: "infantry", corps: "fr-maison-du-roi", cp: 1, mp: 4, morale: 3, allow: ["W\\u{30}801"])',
    ])
    p = []
    r = run("validate", S)
    p += sane(r) + raw_controls(r)
    if r.code != 0:
        p.append(f"escaped spellings of valid text refused: {r.all[-400:]}")
    doc = json_of(run("export", "--json", S))
    if doc:
        names = {u["id"]: u["name"] for a in doc["armies"] for u in a["units"]}
        if names.get("fr-esc-1") != "éééééééx" or names.get("fr-raw-1") != 'Raw "quoted" \\ name':
            p.append(f"escapes read wrong: {names.get('fr-esc-1')!r} {names.get('fr-raw-1')!r}")
    p = fmt_stable(p, [S])
    # Byte strings (RON's bytes are not a string), invalid UTF-8 as bytes, and escapes of
    # controls: located refusals.
    for bad in ['b"fr-bytes-1"', 'b"fr-\\xff\\xfe"', '"fr-\\u{1b}[2J"', '"fr-\\u{0}"', '"fr-\\u{202e}x"']:
        fresh()
        add_units([unit("PLACEHOLDER")])
        edit(S, '"PLACEHOLDER"', bad)
        r = run("validate", S)
        p += sane(r) + raw_controls(r)
        if r.code != 1 or not re.search(r"denain-1712\.ron:\d+:\d+", r.all):
            p.append(f"{bad}: not refused with a place: exit {r.code}: {r.all[-200:]}")
    return p


@case("short text", "validate / export", "100,000 units of one 64-byte kind, and of one 65-byte kind (shared / not shared)")
def _():
    p = []
    for n in (64, 65):
        fresh()
        kind = ("k" * n)
        edit(S, '            "infantry": (', f'            "{kind}": (name: "K", symbol: Infantry, combat: true, front_hexsides: 2, flank_hexsides: 2),\n            "infantry": (')
        add_units([unit(f"fr-m{i}").replace('"infantry"', f'"{kind}"').replace('at: "1608"', 'at: "0101"') for i in range(100000)])
        size = os.path.getsize(path(S))
        for args in [["validate", "--format", "json", S], ["export", "--json", S]]:
            r = run(*args, timeout=180)
            p += [f"{n} bytes: {args[0]}: {x}" for x in sane(r)]
        doc = json_of(r)
        if doc is not None:
            kinds = {u["kind"] for a in doc["armies"] for u in a["units"] if u["id"].startswith("fr-m")}
            if kinds != {kind}:
                p.append(f"{n} bytes: kinds read back: {[k[:20] for k in kinds]}")
    return p


@case("short text", "export --json", "64 long kinds alternating unit by unit (the recent-texts table's slots), each unit's kind back")
def _():
    kinds = [f"kind-{i:02}-" + "q" * 20 for i in range(64)]
    legend = "".join(f'            "{k}": (name: "K{i}", symbol: Infantry, combat: true, front_hexsides: 2, flank_hexsides: 2),\n' for i, k in enumerate(kinds))
    edit(S, '            "infantry": (', legend + '            "infantry": (')
    add_units([unit(f"fr-alt{i}").replace('"infantry"', f'"{kinds[(i * 7) % 64]}"') for i in range(5000)])
    r = run("export", "--json", S, timeout=60)
    p = sane(r)
    doc = json_of(r)
    if doc is None:
        return p + ["export --json did not parse"]
    for a in doc["armies"]:
        for u in a["units"]:
            if u["id"].startswith("fr-alt"):
                i = int(u["id"][6:])
                if u["kind"] != kinds[(i * 7) % 64]:
                    p.append(f"{u['id']}: kind {u['kind']} (wrote {kinds[(i * 7) % 64]})")
                    break
    v = run("validate", S, timeout=60)
    if v.code == 2 or "E0204" in v.all:
        p.append(f"validate: {v.all[-300:]}")
    return p


@case("short text", "validate", "colours and hex names of 15-16 bytes and multibyte where 7 ASCII bytes belong")
def _():
    p = []
    for old, new in [('colour: "#1a1a1a"', 'colour: "#1a1a1a1a1a1a1a1"'), ('colour: "#1a1a1a"', 'colour: "#1a1a1é"'),
                     ('at: "1608"', 'at: "16080000000000"'), ('at: "1608"', 'at: "160800000000000"'), ('at: "1608"', 'at: "１６０８"')]:
        fresh()
        edit(S, old, new)
        r = run("validate", S)
        p += sane(r) + raw_controls(r)
        if r.code != 1 or not re.search(r"denain-1712\.ron:\d+:\d+", r.all):
            p.append(f"{new}: exit {r.code}, not located: {r.all[-200:]}")
        for args in [["render", S, "--out", "r.png"], ["export", "--vassal", S, "--out", "o.vmod"], ["table", S, "--system", "age-of-honor", "--out", "p.svg"]]:
            q = run(*args)
            p += sane(q) + raw_controls(q)
            if q.code == 0:
                p.append(f"{new}: {args[0]} drew a battle validate refuses")
    return p


# ------------------------------------------------------------------ thin (Thin)
@case("thin", "validate / fmt", "allow: [], ratings: {}, entry: [] and Some(...) around them")
def _():
    p = []
    add_units([unit("fr-t1", extra=", allow: []"), unit("fr-t2", extra=", ratings: {}")])
    r = run("validate", S)
    p += sane(r)
    if r.code != 0:
        p.append(f"empty allow / ratings refused: {r.all[-300:]}")
    p = fmt_stable(p, [S])
    for old, new, want in [('entry: ["3211", "3212"]', 'entry: []', 1), ('entry: ["3211", "3212"]', 'entry: Some(["3211"])', None),
                           ('cp: 1, mp: 4, morale: 3, facing: SE, placement: Free(zone: "fr-zone-maison-du-roi"), allow: []', 'cp: 1, mp: 4, morale: 3, allow: Some(["W0801"])', None),
                           ('entry: ["3211", "3212"]', 'entry: ["3211", "3211"]', None)]:
        fresh()
        add_units([unit("fr-t1", extra=", allow: []")])
        edit(S, old, new)
        r = run("validate", S)
        p += sane(r) + raw_controls(r)
        if want is not None and r.code != want:
            p.append(f"{new}: exit {r.code} (want {want}): {r.all[-300:]}")
        if r.code == 1 and not re.search(r"denain-1712\.ron:\d+:\d+", r.all):
            p.append(f"{new}: refused without a place: {r.all[-300:]}")
        if r.code == 1:
            for args in [["render", S, "--out", "r.png"], ["print", S, "--out", "k.pdf"], ["export", "--vassal", S, "--out", "o.vmod"]]:
                q = run(*args)
                p += sane(q)
                if q.code == 0:
                    p.append(f"{new}: {args[0]} went on with a battle validate refuses")
    return p


@case("thin", "every command", "a reinforcement entering by 100,000 hexes, a unit allowing 10,000 codes, ratings for 10,000 systems")
def _():
    entry = ", ".join(f'"{c:02}{r:02}"' for c in range(1, 33) for r in range(1, 21))
    entry = ", ".join([entry] * (100000 // 640))
    codes = ", ".join(f'"W{i % 10000:04}"' for i in range(10000))
    ratings = ", ".join(f'"sys-{i}": {{"q": Number({i})}}' for i in range(10000))
    add_units([unit("fr-e1", extra="").replace('placement: Free(zone: "fr-zone-maison-du-roi")', f'placement: Reinforcement(turn: 1, entry: [{entry}])'),
               unit("fr-e2", extra=f", allow: [{codes}]"), unit("fr-e3", extra=f", ratings: {{{ratings}}}")])
    p = every_command([], timeout=180)
    r = run("validate", S, timeout=120)
    if len(r.all) > 200_000:
        p.append(f"validate printed {len(r.all)} bytes")
    return p


# ------------------------------------------------------------------ exits (paths ending by a hexside)
def map_with_paths(paths):
    m = read(M)
    m = m.replace("    rows: [", "    paths: {\n" + paths + "\n    },\n    rows: [", 1)
    write(M, m)


def route_on(hexes):
    """The road overlay on these hexes of Denain's map."""
    m = read(M)
    names = "".join(f'        "{h}": ["route"],\n' for h in hexes if f'"{h}":' not in m.split("overlays:")[-1])
    m = m.replace("    overlays: {\n", "    overlays: {\n" + names, 1)
    write(M, m)


EDGE = sorted(set([f"{c:02}01" for c in range(1, 33)] + [f"{c:02}20" for c in range(1, 33)] + [f"01{r:02}" for r in range(1, 21)] + [f"32{r:02}" for r in range(1, 21)]))


@case("exits", "every command", "every side of every edge hex as an exit (sides facing neighbours too), and pointy sides on a flat grid")
def _():
    paths = []
    for h in EDGE:
        for s in ["N", "NE", "SE", "S", "SW", "NW", "E", "W"]:
            paths.append(f"{h}/{s}")
    map_with_paths('        "route": [' + ", ".join(f'"{t}"' for t in paths) + "],")
    route_on(EDGE)
    p = every_command([])
    v = run("validate", "--format", "json", M)
    codes = codes_of(v)
    if "E0612" not in codes:
        p.append(f"E and W on a flat grid not refused: {sorted(set(codes))}")
    return p


@case("exits", "every command", "exits at both ends and on a one-hex path, a path out and back by one side, 50,000 exits")
def _():
    many = ", ".join('"0101/N 0102 0103 0102 0101/N"' for _ in range(50000))
    map_with_paths(f'        "route": ["0101/N 0102 0103/S", "0101/NW", "0101/N 0101/N", {many}],')
    route_on(["0101", "0102", "0103"])
    return every_command([], timeout=180)


@case("exits", "validate", "hexsides with a megabyte side, 10,000 bad sides, '//', a trailing '/', and sides in the middle")
def _():
    toks = ["0101/" + "N" * 1_000_000 + " 0102", "0101//N 0102", "0101/ 0102", "0102 0101/", "0101 0101/N 0102",
            "0101/N/S 0102", "0101/\u202eN 0102", "0101/N\u200b 0102", "0101/<b> 0102"]
    toks += [f"0101/Q{i} 0102" for i in range(10000)]
    map_with_paths('        "route": [' + ", ".join(json.dumps(t, ensure_ascii=False) for t in toks) + "],")
    route_on(["0101", "0102"])
    p = []
    for args in [["validate", M], ["validate", "--format", "json", M], ["validate", "--format", "sarif", M], ["validate", "--format", "github", M]]:
        r = run(*args, timeout=120)
        p += sane(r) + raw_controls(r)
        if r.code != 1:
            p.append(f"{args}: exit {r.code}")
        if len(r.all) > 3_000_000:
            p.append(f"{args[1:]}: {len(r.all)} bytes for a 1 MB token and 10,000 bad ones")
    return every_command(p, timeout=180)


@case("exits", "digitize json", "a map with exits digitised again from its own render, --format json, paths back")
def _():
    map_with_paths('        "route": ["0101/N 0102 0103 0104 0105/S", "3201/N 3202 3203/SE"],')
    route_on(["0101", "0102", "0103", "0104", "0105", "3201", "3202", "3203"])
    r = run("render", M, "--out", "scan.png", "--scale", "40")
    p = sane(r)
    if r.code != 0:
        return p + [f"render: {r.all[-300:]}"]
    return p


# ------------------------------------------------------------------ digitize --format json
@case("digitize json", "digitize", "--format json with a scan, calibration and out named with ESC, C1, bidi, a newline")
def _():
    p = []
    for stem in ["x\x1b[2Jy", "x\u009b31mz", "x\u202ey", "x\ny"]:
        write(stem + ".png", plain_png(), "wb")
        write("c" + stem + ".ron", CAL)
        write("s.ron", SAM)
        r = run("digitize", stem + ".png", "--calibration", "c" + stem + ".ron", "--samples", "s.ron", "--out", "m" + stem + ".ron", "--format", "json")
        p += sane(r) + raw_controls(r)
        if r.code == 0 and json_of(r) is None:
            p.append(f"{stem!r}: stdout is not JSON: {r.out[:200]!r}")
        # A missing scan by such a name: the error.
        r = run("digitize", "no" + stem + ".png", "--calibration", "c" + stem + ".ron", "--samples", "s.ron", "--out", "m.ron", "--format", "json")
        p += sane(r) + raw_controls(r)
    return p


@case("digitize json", "digitize", "--format json into a closed pipe, and with NaN-making clicks (1e308 apart)")
def _():
    write("x.png", plain_png(), "wb")
    write("c.ron", CAL)
    write("s.ron", SAM)
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "m.ron", "--format", "json", shell_tail="| head -c 1")
    p = sane(r)
    if "Broken pipe" in r.all or "panicked" in r.all:
        p.append(r.all[-200:])
    big = CAL.replace("x: 70.0, y: 80.0", "x: 1e308, y: -1e308")
    write("c.ron", big)
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "m2.ron", "--format", "json")
    p += sane(r) + raw_controls(r)
    if r.code == 0 and json_of(r) is None:
        p.append(f"stdout not JSON: {r.out[:300]!r}")
    return p


# ------------------------------------------------------------------ variants
@case("short text", "validate / print", "a variant changing a unit whose id is a real 16-byte id's first 15 bytes, and one with an id 1 byte longer")
def _():
    add_units([unit("fr-abcdefghijklm"), unit("fr-abcdefghijk")])
    edit(V, '        "fr-valenciennes-1": (turn: 4),\n', '        "fr-valenciennes-1": (turn: 4),\n        "fr-abcdefghijkl": (cp: 5),\n        "fr-abcdefghijklmn": (cp: 5),\n')
    r = run("validate", "--format", "json", V)
    p = sane(r)
    msgs = [d["message"] for d in (json_of(r) or [])]
    for missing in ["fr-abcdefghijkl", "fr-abcdefghijklmn"]:
        if not any(f"`{missing}`" in m for m in msgs):
            p.append(f"the variant's unknown unit {missing} not reported: {msgs[:5]}")
    q = run("print", V, "--out", "k.pdf", timeout=120)
    p += sane(q)
    if q.code == 0:
        p.append("print went on with a variant validate refuses")
    return p


# ------------------------------------------------------------------ trace (roads on hostile scans)
S3 = math.sqrt(3)


def png_of(w, h, row):
    """A PNG of w x h RGB pixels, `row(y)` giving each row's bytes (streamed)."""
    c = zlib.compressobj(6)
    body = b"".join(c.compress(b"\x00" + row(y)) for y in range(h)) + c.flush()
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + png_chunk(b"IDAT", body) + png_chunk(b"IEND", b"")


PAPER, INK = bytes([230, 220, 190]), bytes([150, 30, 30])


class Sheet:
    """A synthetic printed map: flat hexes of `radius` px, columns x rows (shifted: Even, as
    the renderer lays them out), paper, road segments drawn as thick lines."""
    def __init__(self, cols, rows, radius, margin=20):
        self.cols, self.rows, self.r, self.m = cols, rows, radius, margin
        self.w = int((1.5 * (cols - 1) + 2) * radius + 2 * margin)
        self.h = int(S3 * (rows + 0.5) * radius + 2 * margin)
        self.px = bytearray(PAPER * (self.w * self.h))

    def centre(self, c, r):  # 0-based
        x = 1.5 * c + 1
        y = S3 * (r + (0.5 if (c + 1) % 2 == 0 else 0.0)) + S3 / 2
        return x * self.r + self.m, y * self.r + self.m

    def rect(self, x0, y0, x1, y1, colour=INK):
        x0, x1 = max(0, int(x0)), min(self.w, int(x1))
        for y in range(max(0, int(y0)), min(self.h, int(y1))):
            self.px[(y * self.w + x0) * 3:(y * self.w + x1) * 3] = colour * (x1 - x0)

    def vertical(self, c, r, over=0.3, width=3):
        """A road from hex (c, r) down into (c, r + 1), a little past both centres."""
        x, y = self.centre(c, r)
        self.rect(x - width / 2, y - over * self.r, x + width / 2, y + (S3 + over) * self.r)

    def png(self):
        return png_of(self.w, self.h, lambda y: bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3]))

    def grid(self):
        d = lambda n: max(2, len(str(max(self.cols, self.rows))))
        return f"(orientation: Flat, shifted: Even, first_column: 1, first_row: 1, columns: {self.cols}, rows: {self.rows}, hex_names: (column_digits: {d(0)}, row_digits: {d(0)}))"

    def name(self, c, r):
        d = max(2, len(str(max(self.cols, self.rows))))
        return f"{c + 1:0{d}}{r + 1:0{d}}"

    def calibration(self):
        pts = []
        for c, r in [(0, 0), (self.cols - 1, 0), (0, self.rows - 1), (self.cols - 1, self.rows - 1)]:
            x, y = self.centre(c, r)
            pts.append(f'(hex: "{self.name(c, r)}", x: {x}, y: {y})')
        return f"Calibration(grid: {self.grid()}, fit: Affine, points: [{', '.join(pts)}])"


def road_samples(sheet, crossings, clear):
    return ('Samples(terrain: {"c": (name: "Clear", colour: "#e6dcbe")}, samples: {"c": [' + ", ".join(f'"{h}"' for h in clear)
            + ']}, overlay_types: {"road": (name: "Road", symbol: Road, colour: "#961e1e")}, path_samples: {"road": ['
            + ", ".join(f'"{x}"' for x in crossings) + ']})')


def trace_run(sheet, crossings, clear, timeout=300, extra=("--no-refine",)):
    write("x.png", sheet.png(), "wb")
    write("c.ron", sheet.calibration())
    write("s.ron", road_samples(sheet, crossings, clear))
    if os.path.exists(path("dm.ron")):
        os.remove(path("dm.ron"))
    return run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron", "--format", "json", *extra, timeout=timeout)


def written_map_ok(r, what=""):
    if not os.path.exists(path("dm.ron")):
        return []
    p = []
    if re.search(r"\b(NaN|inf)\b", read("dm.ron")):
        p.append(f"{what}NaN/inf written into the map")
    v = run("validate", "dm.ron", timeout=120)
    if v.code != 0:
        p.append(f"{what}digitize wrote a map validate refuses: {v.all[-300:]}")
    return p


@case("trace", "digitize", "thousands of short separate roads, each crossing one hexside (each its own path)")
def _():
    p = []
    times = []
    for n in (60, 120):
        fresh()
        sheet = Sheet(n, n, 9)
        for c in range(0, n, 3):
            for r in range(0, n - 1, 3):
                sheet.vertical(c, r)
        marked = [f"{sheet.name(c, r)}/S" for c, r in [(0, 0), (3, 3), (6, 6)]]
        t = time.time()
        r = trace_run(sheet, marked, [sheet.name(1, 1)], timeout=600)
        times.append(time.time() - t)
        p += sane(r) + raw_controls(r) + written_map_ok(r, f"{n}x{n}: ")
        doc = json_of(r)
        if r.code == 0 and doc is None:
            p.append(f"{n}: the JSON report did not parse")
        elif doc and doc.get("paths"):
            print(f"      ({n}x{n}: {doc['paths']['crossed']} crossed, {doc['paths']['paths']} paths, {times[-1]:.1f} s)", flush=True)
    return p


@case("trace", "digitize", "scans of one row, one column and one pixel, roads marked on them")
def _():
    p = []
    for w, h in [(12000, 1), (1, 12000), (1, 1), (3, 12000)]:
        write("x.png", png_of(w, h, lambda y: INK * w if y % 2 else PAPER * w), "wb")
        write("c.ron", CAL)
        write("s.ron", 'Samples(terrain: {"c": (name: "Clear", colour: "#e6dcbe")}, samples: {"c": ["0101"]}, overlay_types: {"road": (name: "Road", symbol: Road, colour: "#961e1e")}, path_samples: {"road": ["0202/S", "0303/N"]})')
        r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron", timeout=120)
        p += [f"{w}x{h}: {x}" for x in sane(r) + raw_controls(r) + written_map_ok(r)]
    return p


@case("trace", "digitize", "all ink, 1-px stripes and a checkerboard of the road's ink and the paper, every hexside marked")
def _():
    p = []
    sheet = Sheet(12, 12, 20)
    every = [f"{sheet.name(c, r)}/S" for c in range(12) for r in range(11)]
    for kind in ["all", "rows", "cols", "checker"]:
        fresh()
        if kind == "all":
            sheet.px = bytearray(INK * (sheet.w * sheet.h))
        elif kind == "rows":
            sheet.px = bytearray(b"".join((INK if y % 2 else PAPER) * sheet.w for y in range(sheet.h)))
        elif kind == "cols":
            sheet.px = bytearray((INK + PAPER) * (sheet.w // 2) + PAPER * (sheet.w % 2)) * sheet.h
        else:
            a = (INK + PAPER) * (sheet.w // 2) + PAPER * (sheet.w % 2)
            b = (PAPER + INK) * (sheet.w // 2) + PAPER * (sheet.w % 2)
            sheet.px = bytearray(b"".join(a if y % 2 else b for y in range(sheet.h)))
        for marked in [every[:3], every]:
            r = trace_run(sheet, marked, [sheet.name(5, 5)], timeout=300)
            p += [f"{kind}, {len(marked)} marked: {x}" for x in sane(r) + raw_controls(r) + written_map_ok(r)]
            if r.code == 0 and json_of(r) is None:
                p.append(f"{kind}: the JSON report did not parse")
    return p


@case("trace", "digitize", "a scan at the pixel limit (12,000 x 12,000), one road across it")
def _():
    sheet = Sheet(4, 4, 10)
    w = h = 12000
    write("x.png", png_of(w, h, lambda y: (PAPER * 5990 + INK * 20 + PAPER * (w - 6010))), "wb")
    r_ = 12000 / 8
    pts = []
    for c, r in [(0, 0), (3, 0), (0, 3), (3, 3)]:
        x = (1.5 * c + 1) * r_
        y = (S3 * (r + (0.5 if (c + 1) % 2 == 0 else 0.0)) + S3 / 2) * r_ * 0.8
        pts.append(f'(hex: "{sheet.name(c, r)}", x: {x}, y: {y})')
    write("c.ron", f"Calibration(grid: {sheet.grid()}, fit: Affine, points: [{', '.join(pts)}])")
    write("s.ron", road_samples(sheet, ["0201/S", "0202/S"], ["0101"]))
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron", "--no-refine", timeout=600)
    return sane(r) + raw_controls(r) + written_map_ok(r)


# ------------------------------------------------------------------ the editor (its real binary)
REC = "xdg-cache/bataille-editor/recovery/"
TINY = '(format_version: 1, name: "x", grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 2, rows: 2, hex_names: (column_digits: 2, row_digits: 2)), terrain: {".": (name: "C", colour: "#ffffff")}, rows: ["..", ".."]%s)'


@case("editor", "recovery", "recovery files whose map is 100,000 x 100,000, has a 16-byte colour, exits off its grid, a 1 MB path")
def _():
    maps = [TINY.replace("columns: 2, rows: 2", "columns: 100000, rows: 100000") % "",
            TINY.replace('"#ffffff"', '"#ffffffffffffff"') % "",
            TINY % ', overlay_types: {"r": (name: "R", symbol: Road, colour: "#8b6f47")}, overlays: {"0101": ["r"]}, paths: {"r": ["0101/N 0102/S", "0101/E", "9999/N 0101"]}',
            TINY % (', overlay_types: {"r": (name: "R", symbol: Road, colour: "#8b6f47")}, overlays: {"0101": ["r"], "0102": ["r"]}, paths: {"r": ["' + " ".join(["0101", "0102"] * 100000) + '"]}')]
    for i, m in enumerate(maps):
        xdg(REC + f"h{i}-{i:016x}-1.recovery.ron", f'(written_at: 1, map_path: None, scenario_path: None, map: {m}, pid: 1)')
    return editor(S, seconds=30, rss_mb=2500)


@case("editor", "recovery", "a recovery file whose scenario holds 15-byte ids, entry: [], allow: [], and names a map outside")
def _():
    sc = read(S)
    sc = sc.replace('"fr-gardes-francaises"', '"fr-gardes-franc"').replace('entry: ["3211", "3212"]', "entry: []", 1)
    sc = sc.replace('map: "../maps/denain-1712.ron"', 'map: "../../outside/secret.ron"')
    body = sc[sc.index("Scenario(") + len("Scenario"):]
    xdg(REC + "s-00000000000000aa-1.recovery.ron", f'(written_at: 1, map_path: None, scenario_path: Some("{path(S)}"), map: {TINY % ""}, scenario: Some({body.rstrip()}), pid: 1)')
    return editor(S, seconds=30, rss_mb=2500)


@case("editor", "settings", "a settings file with a table of 1e308 x 1e308 cm, a 60 KB figure scale, ESC in a system, 10 recent FIFOs")
def _():
    d = os.path.join(WORK, "../xdg-config/bataille-editor")
    os.makedirs(d, exist_ok=True)
    fifos = []
    for i in range(10):
        f = os.path.join(WORK, f"fifo{i}.ron")
        os.mkfifo(f)
        fifos.append(f)
    with open(os.path.join(d, "settings.ron"), "w") as f:
        f.write('(recent: [' + ", ".join(json.dumps(x) for x in fifos) + '], table: (system: Some("age\\u{1b}[2J"), figures: "' + "9" * 60000 + 'mm", table: "1e308x1e308cm", turned: true))')
    return editor(S, seconds=25, rss_mb=1500)


if __name__ == "__main__":
    held = sum(1 for r in results if r[0])
    print(f"\n{held} held of {len(results)}")
    print(f"(every run's output: {LOG})")
