#!/usr/bin/env python3
"""The fifth round of hostile inputs (issue 19) against the real bataille binary and editor.

New inputs aimed at what was added since round 4 and never attacked: the digitize samples
file's `overlay_types` / `path_samples` (unknown, duplicate, huge counts, crossings off the map,
NaN, a crossing given twice), roads in the written map (`paths`), two-click calibration (two
identical clicks, collinear clicks, clicks off the scan), `schema --out`, the editor's settings
and recovery files, the editor's digitise panel with a hostile background and paths, variants
beside a scenario, and every export of a map with hostile paths and overlays. Each case: a
fresh copy of a club's repository (tests/hostile/club.py), a mutation, one or more runs under
`timeout` and `ulimit -v`, and what must hold. Prints one line per case (HELD / HOLE, class,
surface, what) and the tally. Run from the repository after `cargo build -p bataille -p
bataille-editor`:

    python3 tests/hostile/round5.py
    BATAILLE=/path/to/bataille HOSTILE_DISPLAY=:61 python3 tests/hostile/round5.py

The editor's cases run `target/debug/bataille-editor` (BATAILLE_EDITOR) on the X display
HOSTILE_DISPLAY (default :47; start one with `Xvfb :47`); without it they are holes marked
"harness".

The end-to-end tests that keep each class from coming back: tests/hostile_round5.rs.
"""
import os, re, json, zipfile, struct, zlib, subprocess, sys, shutil, math, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club import *  # noqa: F401,F403 (the shared club, runner and checks)

GRID4 = '(orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2))'
CAL = 'Calibration(grid: ' + GRID4 + ', fit: Affine, points: [(hex: "0101", x: 10.0, y: 10.0), (hex: "0401", x: 70.0, y: 20.0), (hex: "0104", x: 10.0, y: 70.0), (hex: "0404", x: 70.0, y: 80.0)])'
SAM = 'Samples(terrain: {"c": (name: "Clear", colour: "#ffffff")}, samples: {"c": ["0101"]})'
ROAD = '"road": (name: "Road", symbol: Road, colour: "#8b6f47")'
V = "scenarios/denain-1712-tingry-tard.ron"
W = "maps/napoleon-at-waterloo.ron"


def with_roads(paths_text, extra_legend=""):
    """Samples with a road legend and `path_samples` given as RON text."""
    return SAM[:-1] + ', overlay_types: {' + ROAD + extra_legend + '}, path_samples: ' + paths_text + ')'


def written_map_ok(r, what=""):
    """When digitize wrote a map: validate takes it, with no NaN or inf in it."""
    if not os.path.exists(path("dm.ron")):
        return []
    p = []
    if re.search(r"\b(NaN|inf)\b", read("dm.ron")):
        p.append(f"{what}NaN/inf written into the map")
    v = run("validate", "dm.ron")
    if v.code != 0:
        p.append(f"{what}digitize wrote a map validate refuses: {v.all[-300:]}")
    return p


def located_refusal(r, file="s.ron"):
    if r.code in (1, 2) and re.search(re.escape(file) + r":\d+:\d+", r.all):
        return []
    return [f"not refused with a place in {file}: exit {r.code}: {r.all[-300:]}"]


# ------------------------------------------------------------------ samples: overlays and crossings
@case("samples", "digitize", "path_samples naming an overlay not in overlay_types, and overlay_types absent")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for sam in [with_roads('{"rail": ["0101/S"]}'),
                SAM[:-1] + ', path_samples: {"road": ["0101/S"]})']:
        r = digitize("x.png", CAL, sam)
        p += sane(r) + raw_controls(r) + located_refusal(r)
        if os.path.exists(path("dm.ron")):
            p.append("a map written")
    return p


@case("samples", "digitize", "a crossing given twice in one line, and the same crossing for two lines")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for paths in ['{"road": ["0202/S", "0202/S", "0203/N"]}',
                  '{"road": ["0202/S"], "rail": ["0202/S"]}']:
        r = digitize("x.png", CAL, with_roads(paths, ', "rail": (name: "Rail", symbol: Road, colour: "#000000")'))
        p += sane(r) + raw_controls(r) + written_map_ok(r)
        if r.code == 2 and not re.search(r"s\.ron:\d+:\d+", r.all):
            p.append(f"refused without a place: {r.all[-300:]}")
    return p


@case("samples", "digitize", "200,000 path samples on one road and 20,000 overlay types each with a sample")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    many = '{"road": [' + ", ".join('"0202/S"' for _ in range(200000)) + ']}'
    r = digitize("x.png", CAL, with_roads(many), timeout=60)
    p += sane(r) + written_map_ok(r, "200,000 samples: ")
    legend = "".join(f', "r{i}": (name: "R", symbol: Road, colour: "#8b6f47")' for i in range(20000))
    paths = "{" + ", ".join(f'"r{i}": ["0202/S"]' for i in range(20000)) + "}"
    r = digitize("x.png", CAL, with_roads(paths, legend), timeout=60)
    p += sane(r) + written_map_ok(r, "20,000 overlays: ")
    if len(r.all) > 200000:
        p.append(f"{len(r.all)} bytes of report")
    return p


@case("samples", "digitize", "crossings off the map: a hex beyond the grid, a side leaving the map, side Q, 0000/N")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for cross in ['"9999/N"', '"0101/N"', '"0101/Q"', '"0000/N"', '"0101/"', '"/N"', '"0101/N/S"', '"01 01/N"']:
        r = digitize("x.png", CAL, with_roads('{"road": [' + cross + ']}'))
        p += sane(r) + raw_controls(r) + written_map_ok(r, f"{cross}: ")
        if r.code == 2 and "s.ron" not in r.all:
            p.append(f"{cross}: refused without naming the samples file: {r.all[-200:]}")
    return p


@case("samples", "digitize", "NaN, inf and numbers where crossings and overlay fields belong")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for sam in [with_roads('{"road": [NaN]}'),
                with_roads('{"road": [1e999]}'),
                SAM[:-1] + ', overlay_types: {"road": (name: "Road", symbol: Road, colour: "#8b6f47", effects: (protection: NaN))}, path_samples: {"road": ["0202/S"]})',
                SAM[:-1] + ', overlay_types: {"road": (name: "Road", symbol: Road, colour: "#8b6f47", effects: (road_bonus_mp: 4294967296))}, path_samples: {"road": ["0202/S"]})']:
        r = digitize("x.png", CAL, sam)
        p += sane(r) + located_refusal(r)
        if os.path.exists(path("dm.ron")):
            p.append(f"{sam[-80:]}: a map written")
    return p


@case("samples", "digitize", "a duplicate key in overlay_types and in path_samples, and path_samples given twice")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for sam in [SAM[:-1] + ', overlay_types: {' + ROAD + ', ' + ROAD + '}, path_samples: {"road": ["0202/S"]})',
                with_roads('{"road": ["0202/S"], "road": ["0203/S"]}'),
                with_roads('{"road": ["0202/S"]}')[:-1] + ', path_samples: {"road": ["0203/S"]})']:
        r = digitize("x.png", CAL, sam)
        p += sane(r) + located_refusal(r)
    return p


@case("samples", "digitize", "overlay legend with markup colour, a 1 MB name, bidi and ESC in a name, a refused id")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for legend in ['"road": (name: "Road", symbol: Road, colour: "#8b6f47\\"/><script>x</script>")',
                   '"road": (name: "' + "R" * 1_000_000 + '", symbol: Road, colour: "#8b6f47")',
                   '"road": (name: "Ro\u202ead\u200d", symbol: Road, colour: "#8b6f47")',
                   '"road": (name: "Ro\\u{1b}[2Jad", symbol: Road, colour: "#8b6f47")',
                   '"BAD X": (name: "Road", symbol: Road, colour: "#8b6f47")']:
        sam = SAM[:-1] + ', overlay_types: {' + legend + '}, path_samples: {"road": ["0202/S"]})'
        r = digitize("x.png", CAL, sam)
        p += sane(r) + raw_controls(r) + written_map_ok(r)
        if r.code == 0 and not os.path.exists(path("dm.ron")):
            p.append("exit 0 without a map")
        if len(r.all) > 20000:
            p.append(f"{len(r.all)} bytes of output for {legend[:30]}")
    return p


@case("samples", "digitize", "an empty list of crossings, an empty overlay legend with samples of nothing")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for sam in [with_roads('{"road": []}'), SAM[:-1] + ', overlay_types: {}, path_samples: {})']:
        r = digitize("x.png", CAL, sam)
        p += sane(r) + raw_controls(r) + written_map_ok(r)
    return p


# ------------------------------------------------------------------ roads traced on a real render
def waterloo_scan():
    """Napoleon at Waterloo rendered at 48 px a hex, and a calibration of its four corners'
    hex centres computed from the renderer's layout (flat hexes, unit radius)."""
    shutil.copy(os.path.join(REPO, W), path(W))
    r = run("render", W, "--out", "naw.png", "--scale", "48", "--no-hex-names", "--no-labels", timeout=120)
    assert r.code == 0, r.all[-300:]
    radius = 48 / math.sqrt(3)
    margin = 24.0
    cols, rows = 23, 17
    s3 = math.sqrt(3)

    def centre(c, r):  # 0-based; shifted: Even -> even-numbered columns (0-based odd) down
        y = s3 * (r + (0.5 if (c + 1) % 2 == 0 else 0.0))
        return 1.5 * c, y

    xs, ys = [], []
    for c in range(cols):
        for r in range(rows):
            x, y = centre(c, r)
            xs += [x - 1, x + 1]
            ys += [y - s3 / 2, y + s3 / 2]
    mx, my = min(xs), min(ys)

    def px(c, r):
        x, y = centre(c, r)
        return (x - mx) * radius + margin, (y - my) * radius + margin
    grid = '(orientation: Flat, shifted: Even, first_column: 1, first_row: 1, columns: 23, rows: 17, hex_names: (column_digits: 2, row_digits: 2))'
    return grid, px


def waterloo_samples(paths, extra=""):
    m = read(W)
    terrain = re.search(r"    terrain: \{\n(.*?)\n    \},", m, re.S).group(1)
    overlays = re.search(r"    overlay_types: \{\n(.*?)\n    \},", m, re.S).group(1)
    return 'Samples(terrain: {' + terrain + '}, samples: {".": ["0102", "0503"]}, overlay_types: {' + overlays + '}, path_samples: ' + paths + extra + ')'


@case("roads", "digitize", "Waterloo rendered, two clicks, roads marked with a crossing twice and one off the print")
def _():
    grid, px = waterloo_scan()
    (x1, y1), (x2, y2) = px(0, 0), px(22, 16)
    write("c.ron", f'Calibration(grid: {grid}, fit: Affine, points: [(hex: "0101", x: {x1}, y: {y1}), (hex: "2317", x: {x2}, y: {y2})])')
    assert '1003 1004' in read(W) and '"0103/SW 0202 0302' in read(W), "harness: Waterloo's roads changed"
    # 0202 -> 0302 leaves by NE, 1003 -> 1004 by S; 1003/S twice, 0101/N off the print.
    write("s.ron", waterloo_samples('{"road": ["0202/NE", "1003/S", "1003/S", "0101/N", "2317/S"]}'))
    r = run("digitize", "naw.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron", timeout=180)
    p = sane(r) + raw_controls(r)
    if r.code == 0:
        p += written_map_ok(r)
        for fmt in [["export", "--tiled", "dm.ron", "--out", "t.tmx"], ["render", "dm.ron", "--out", "r.png"]]:
            e = run(*fmt, timeout=120)
            p += sane(e)
            if e.code != 0:
                p.append(f"{fmt[0]} of the digitised map: exit {e.code}: {e.all[-200:]}")
        if os.path.exists(path("t.tmx")):
            p += well_formed_xml(read("t.tmx", "rb"), "t.tmx")
    return p


# ------------------------------------------------------------------ two clicks
TWO = 'Calibration(grid: ' + GRID4 + ', fit: %s, points: [%s])'


@case("two clicks", "digitize", "two identical clicks (same hex, same pixel) and two hexes at one pixel")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for pts in ['(hex: "0202", x: 50.0, y: 50.0), (hex: "0202", x: 50.0, y: 50.0)',
                '(hex: "0101", x: 50.0, y: 50.0), (hex: "0404", x: 50.0, y: 50.0)',
                '(hex: "0202", x: 10.0, y: 10.0), (hex: "0202", x: 90.0, y: 90.0)']:
        for fit in ["Affine", "Projective", "Similarity"]:
            r = digitize("x.png", TWO % (fit, pts), SAM)
            p += sane(r) + raw_controls(r) + written_map_ok(r, f"{fit} {pts[:30]}: ")
            if r.code == 0:
                p.append(f"{fit}: degenerate clicks accepted: {pts}")
            elif "c.ron" not in r.all:
                p.append(f"{fit}: refused without naming the calibration: {r.all[-200:]}")
    return p


@case("two clicks", "digitize", "three and four collinear clicks (one line), with and without --no-refine")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for pts in ['(hex: "0101", x: 10.0, y: 10.0), (hex: "0202", x: 30.0, y: 30.0), (hex: "0303", x: 50.0, y: 50.0)',
                '(hex: "0101", x: 10.0, y: 10.0), (hex: "0201", x: 30.0, y: 10.0), (hex: "0301", x: 50.0, y: 10.0), (hex: "0401", x: 70.0, y: 10.0)']:
        for extra in [[], ["--no-refine"]]:
            r = digitize("x.png", TWO % ("Projective", pts), SAM, *extra)
            p += sane(r) + raw_controls(r) + written_map_ok(r)
    return p


@case("two clicks", "digitize", "two clicks off the scan: negative, 1e12 px, and 1e-9 px apart")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for pts in ['(hex: "0101", x: -5000.0, y: -5000.0), (hex: "0404", x: -4000.0, y: -4000.0)',
                '(hex: "0101", x: 1e12, y: 1e12), (hex: "0404", x: 2e12, y: 1e12)',
                '(hex: "0101", x: 50.0, y: 50.0), (hex: "0404", x: 50.000000001, y: 50.0)',
                '(hex: "0101", x: 0.0, y: 0.0), (hex: "0102", x: 0.0, y: 100000.0)']:
        r = digitize("x.png", TWO % ("Affine", pts), SAM, timeout=60)
        p += sane(r) + raw_controls(r) + written_map_ok(r, f"{pts[:40]}: ")
    return p


@case("two clicks", "digitize", "two clicks on a 999 x 999 grid whose hexes are 2 px across (millions of sides to probe)")
def _():
    write("x.png", plain_png(2000, 2000), "wb")
    g = GRID4.replace("columns: 4, rows: 4", "columns: 999, rows: 999").replace("column_digits: 2, row_digits: 2", "column_digits: 3, row_digits: 3")
    cal = f'Calibration(grid: {g}, fit: Projective, points: [(hex: "001001", x: 1.0, y: 1.0), (hex: "999999", x: 1500.0, y: 1730.0)])'
    r = digitize("x.png", cal, SAM.replace('"0101"', '"001001"'), timeout=120)
    return sane(r) + written_map_ok(r)


@case("two clicks", "digitize", "200,000 clicks (the same two repeated): the check stays linear")
def _():
    write("x.png", plain_png(), "wb")
    pts = ", ".join(['(hex: "0101", x: 10.0, y: 10.0), (hex: "0404", x: 70.0, y: 80.0)'] * 100000)
    r = digitize("x.png", TWO % ("Affine", pts), SAM, timeout=60)
    return sane(r) + raw_controls(r) + written_map_ok(r)


@case("two clicks", "digitize", "a click naming a hex of another grid (0505 on 4 x 4, 1e3 digits, empty)")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for bad in ['"0505"', '"' + "9" * 1000 + '"', '""', '"01\u202e01"']:
        pts = f'(hex: "0101", x: 10.0, y: 10.0), (hex: {bad}, x: 70.0, y: 80.0)'
        r = digitize("x.png", TWO % ("Affine", pts), SAM)
        p += sane(r) + raw_controls(r) + located_refusal(r, "c.ron")
        if len(r.all) > 5000:
            p.append(f"{len(r.all)} bytes of output")
    return p


# ------------------------------------------------------------------ roads in a map, and every export
def map_with_paths(paths, overlays=""):
    m = read("maps/denain-1712.ron")
    m = m.replace("    rows: [", "    paths: {\n" + paths + "\n    },\n    rows: [", 1)
    if overlays:
        m = m.replace("    overlays: {\n", "    overlays: {\n" + overlays, 1)
    write("maps/denain-1712.ron", m)


def every_export(p, timeout=120):
    for args in [["validate", M], ["validate", "--format", "sarif", M], ["render", M, "--out", "r.png"], ["render", S, "--out", "rs.png"],
                 ["print", S, "--out", "k.pdf"], ["export", "--tiled", M, "--out", "t.tmx"],
                 ["export", "--vassal", S, "--out", "out.vmod"], ["export", "--json", S],
                 ["table", S, "--system", "age-of-honor", "--out", "p.svg"], ["fmt", "--check", M]]:
        r = run(*args, timeout=timeout)
        p += sane(r) + raw_controls(r)
        if len(r.all) > 2_000_000:
            p.append(f"{args[0]}: {len(r.all)} bytes of output")
    if os.path.exists(path("t.tmx")):
        p += well_formed_xml(read("t.tmx", "rb"), "t.tmx")
    if os.path.exists(path("out.vmod")):
        p += well_formed_xml(zipfile.ZipFile(path("out.vmod")).read("buildFile.xml"), "buildFile.xml")
    if os.path.exists(path("p.svg")):
        p += well_formed_xml(read("p.svg", "rb"), "p.svg")
    return p


@case("paths", "every command", "a road path of 400,000 hexes going back and forth between two neighbours")
def _():
    walk = " ".join(["0101", "0102"] * 200000)
    map_with_paths(f'        "route": ["{walk}"],')
    return every_export([], timeout=120)


@case("paths", "every command", "100,000 one-hex paths, a path of one hexside, paths for an unknown overlay")
def _():
    many = ", ".join('"0101"' for _ in range(100000))
    map_with_paths(f'        "route": [{many}, "0101/N", "0101/N 0102/S", "/N", ""],\n        "nope": ["0101 0102"],')
    p = every_export([])
    v = run("validate", "--format", "json", M)
    try:
        codes = [d["code"] for d in json.loads(v.out)]
    except Exception as e:  # noqa
        return p + [f"json: {e}"]
    if "E0604" not in codes:
        p.append(f"the unknown overlay's paths not reported: {sorted(set(codes))}")
    return p


@case("paths", "every command", "path tokens with bidi, zero-width, markup, {NEXT} and a 100 KB token")
def _():
    toks = ["0101\u202e", "01\u200b01", "<script>x</script>", "{NEXT}$PlayerName$", "1" * 100_000, "0101/\u202eN"]
    map_with_paths("        \"route\": [" + ", ".join(json.dumps(t + " 0102", ensure_ascii=False) for t in toks) + "],")
    p = every_export([])
    v = run("validate", M)
    if v.code != 1:
        p.append(f"validate exit {v.code}")
    if len(v.all) > 50_000:
        p.append(f"validate printed {len(v.all)} bytes for six bad tokens")
    return p


@case("paths", "every command", "paths for 5,000 overlay ids, and the road overlay on every hex of the map")
def _():
    legend = "".join(f'        "r{i}": (name: "R{i}", symbol: Road, colour: "#8b6f47"),\n' for i in range(5000))
    edit(M, "    overlay_types: {\n", "    overlay_types: {\n" + legend)
    map_with_paths("\n".join(f'        "r{i}": ["0101 0102 0103"],' for i in range(5000)))
    return every_export([], timeout=180)


@case("paths", "export --vassal / --tiled", "a road path leaving the map through a hexside, ending at a hexside of no neighbour")
def _():
    map_with_paths('        "route": ["0101/N 0101 0102", "0102 0101 0101/NW", "0101/S 0101/N"],')
    return every_export([])


# ------------------------------------------------------------------ schema --out
@case("schema --out", "schema", "map.schema.json a link to the scenario, to a file outside, to /dev/null")
def _():
    p = []
    os.makedirs(path("schemas"), exist_ok=True)
    before = read(S)
    for target in ["../scenarios/denain-1712.ron", "../../outside/secret.ron", "/dev/null"]:
        link = path("schemas/map.schema.json")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(target, link)
        r = run("schema", "--out", "schemas")
        p += sane(r) + raw_controls(r)
        if read(S) != before:
            p.append(f"{target}: the scenario was written over")
            write(S, before)
        outside = os.path.join(os.path.dirname(WORK), "outside/secret.ron")
        if open(outside).read() != "Map(SECRET_TOKEN_42)\n":
            p.append(f"{target}: a file outside the repository written over")
    return p


@case("schema --out", "schema", "--out a FIFO, a file, an ESC name, a folder link outside")
def _():
    p = []
    os.mkfifo(path("fifo"))
    write("afile", "keep")
    os.symlink("../outside", path("outlink"))
    for out in ["fifo", "afile", "sch\x1b[2Jemas", "outlink", "afile/sub"]:
        r = run("schema", "--out", out, timeout=20)
        p += sane(r) + raw_controls(r)
        if out in ("fifo", "afile", "afile/sub") and r.code == 0:
            p.append(f"{out!r}: exit 0")
    if read("afile") != "keep":
        p.append("a file given as the folder was replaced")
    if os.path.exists(os.path.join(os.path.dirname(WORK), "outside/map.schema.json")):
        p.append("schemas written outside the repository through a link")
    return p


@case("schema --out", "schema", "four runs at once into one folder: four whole schemas, no temporary left")
def _():
    procs = [subprocess.Popen(["bash", "-c", f"ulimit -v {LIMIT_KB}; exec timeout -s KILL 30 {B} schema --out schemas"], cwd=WORK,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    p = []
    for q in procs:
        out, err = q.communicate()
        if q.returncode not in (0, 2) or b"panicked" in err:
            p.append(f"exit {q.returncode}: {err[-200:]}")
    names = sorted(os.listdir(path("schemas")))
    if names != ["map.schema.json", "scenario.schema.json", "system.schema.json", "variant.schema.json"]:
        p.append(f"left: {names}")
    for n in names:
        try:
            json.loads(read("schemas/" + n))
        except Exception as e:  # noqa
            p.append(f"{n}: {e}")
    return p


# ------------------------------------------------------------------ variants beside a scenario
@case("variants", "validate / export --vassal", "a variant beside whose base is a link to itself, and one of 10,000 unit changes")
def _():
    os.symlink("loop.ron", path("scenarios/loop.ron"))
    body = "".join(f'        "fr-gardes-francaises": (cp: {i % 5 + 1}),\n' for i in range(2))
    write("scenarios/v2.ron", read(V).replace("    units: {\n", "    units: {\n" + body))
    write("scenarios/v3.ron", read(V).replace(re.search(r'base: "[^"]*"', read(V)).group(0), 'base: "loop.ron"'))
    p = []
    for args in [["validate", "scenarios/"], ["export", "--vassal", S, "--out", "out.vmod"], ["print", "scenarios/v3.ron", "--out", "k.pdf"]]:
        r = run(*args, timeout=60)
        p += sane(r) + raw_controls(r)
    return p


@case("variants", "export --vassal", "a variant beside the scenario whose name is 1 MB, whose file name holds ESC and a newline")
def _():
    write("scenarios/v\x1b[2J\nx.ron", read(V).replace('name: "Tingry sort trop tard"', 'name: "' + "N" * 1_000_000 + '"'))
    r = run("export", "--vassal", S, "--out", "out.vmod", timeout=60)
    p = sane(r) + raw_controls(r)
    if r.code == 0:
        p += well_formed_xml(zipfile.ZipFile(path("out.vmod")).read("buildFile.xml"), "buildFile.xml")
    return p


# ------------------------------------------------------------------ the editor (its real binary)
# (`editor`, `xdg` and `rss_tree` are in club.py.)
def background(points, image="x.png"):
    edit(M, '    grid:', f'    background: (image: "{image}", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0), control_points: [{points}]),\n    grid:')


@case("editor", "digitise panel", "a map whose control points are two identical clicks, clicks at 1e300 and 100,000 clicks")
def _():
    write("maps/x.png", plain_png(), "wb")
    p = []
    for pts in ['(hex: "0101", x: 5.0, y: 5.0), (hex: "0101", x: 5.0, y: 5.0)',
                '(hex: "0101", x: 1e300, y: -1e300), (hex: "0202", x: 1e-300, y: 5.0), (hex: "0303", x: 5.0, y: 5.0)',
                ", ".join('(hex: "0101", x: 5.0, y: 5.0)' for _ in range(100000))]:
        write(M, read("maps/denain-1712.ron") if False else open(os.path.join(BASE, M)).read())
        background(pts)
        # The Digitise menu opened, its page shown (the calibration's table of clicks).
        p += editor(M, seconds=25, keys=[["mousemove", "400", "12"], ["key", "alt+d"], ["key", "Return"]])
    return p


@case("editor", "open", "a map with a road path of 400,000 hexes and 100,000 one-hex paths")
def _():
    walk = " ".join(["0101", "0102"] * 200000)
    many = ", ".join('"0101"' for _ in range(100000))
    map_with_paths(f'        "route": ["{walk}", {many}],')
    return editor(M, seconds=40, rss_mb=2500)


@case("editor", "open", "a map whose repair notes are 999 lines (999 rows, each the wrong length)")
def _():
    m = read(M)
    rows = re.search(r"    rows: \[\n(.*?)\n    \]", m, re.S).group(1)
    n = len(rows.splitlines())
    grid = re.search(r"rows: (\d+), hex_names", m)
    cols = re.search(r"columns: (\d+)", m).group(1)
    new_grid = m.replace(f"columns: {cols}, rows: {grid.group(1)}", f"columns: {cols}, rows: 999", 1)
    new_rows = "\n".join('        "c",' for _ in range(999))
    new = new_grid.replace(rows, new_rows)
    write("maps/rep.ron", new)
    return editor("maps/rep.ron", seconds=30, rss_mb=2500)


@case("editor", "open", "a scenario whose map fails with a message quoting 100 KB (an unknown field name)")
def _():
    edit(M, "    grid:", "    " + "z" * 100_000 + ": 1,\n    grid:")
    return editor(S, seconds=20, rss_mb=1500)


@case("editor", "open", "a scenario beside 40 variants each opening with 100 KB of comments, and 256 big junk files")
def _():
    v = read(V)
    pad = "".join("// " + "c" * 1000 + "\n" for _ in range(100))
    for i in range(40):
        write(f"scenarios/v{i:03}.ron", pad + v.replace('name: "Tingry sort trop tard"', f'name: "V{i}"'))
    big = "// " + "x" * (4 * 1024 * 1024) + "\nVariant(\n"
    for i in range(256):
        write(f"scenarios/a{i:03}.ron", big)
    return editor(S, seconds=40, rss_mb=2000)


# (cases run as they are declared: what they call is declared above them)
def stat_is_fifo(p):
    import stat
    try:
        return stat.S_ISFIFO(os.lstat(p).st_mode)
    except OSError:
        return False


@case("editor", "settings", "the settings file a FIFO, a folder, a link to /dev/zero, 70 MB of spaces")
def _():
    d = os.path.join(WORK, "../xdg-config/bataille-editor")
    os.makedirs(d, exist_ok=True)
    s = os.path.join(d, "settings.ron")
    p = []
    for make in [lambda: os.mkfifo(s), lambda: os.makedirs(s), lambda: os.symlink("/dev/zero", s),
                 lambda: open(s, "w").write("(" + " " * (70 * 1024 * 1024) + ")")]:
        if os.path.islink(s) or os.path.isfile(s) or stat_is_fifo(s):
            os.remove(s)
        elif os.path.isdir(s):
            shutil.rmtree(s)
        make()
        p += editor(S, seconds=15, rss_mb=1500)
    return p


@case("editor", "recovery", "recovery files: a FIFO, a folder, a link to /dev/zero named .recovery.ron, and 5,000 small ones")
def _():
    d = os.path.join(WORK, "../xdg-cache/bataille-editor/recovery")
    os.makedirs(d, exist_ok=True)
    os.mkfifo(os.path.join(d, "a-0000000000000001-1.recovery.ron"))
    os.makedirs(os.path.join(d, "b-0000000000000002-1.recovery.ron"))
    os.symlink("/dev/zero", os.path.join(d, "c-0000000000000003-1.recovery.ron"))
    for i in range(5000):
        with open(os.path.join(d, f"d{i}-{i:016x}-1.recovery.ron"), "w") as f:
            f.write('(written_at: 1, map_path: Some("/dev/zero"), scenario_path: Some("/etc/passwd"), map: (format_version: 1, name: "x", grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 1, rows: 1, hex_names: (column_digits: 2, row_digits: 2)), terrain: {".": (name: "C", colour: "#ffffff")}, rows: ["."]), pid: 1)')
    return editor(S, seconds=40, rss_mb=2500)


@case("editor", "recovery", "a recovery file whose map names a scan outside, with markup and ESC in its name, written_at 2^64-1")
def _():
    d = "xdg-cache/bataille-editor/recovery/"
    xdg(d + "e-0000000000000009-1.recovery.ron",
        '(written_at: 18446744073709551615, map_path: Some("maps/\\u{1b}[2Jm.ron"), scenario_path: None, map: (format_version: 1, name: "<b>x</b>\\u{202e}", grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 2, rows: 2, hex_names: (column_digits: 2, row_digits: 2)), terrain: {".": (name: "C", colour: "#ffffff")}, rows: ["..", ".."], background: (image: "/etc/passwd", fit: Affine, grid_to_image: (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0))), pid: 1)')
    return editor(S, seconds=20, keys=[["key", "Return"]])


if __name__ == "__main__":
    held = sum(1 for r in results if r[0])
    print(f"\n{held} held of {len(results)}")
    print(f"(every run's output: {LOG})")
