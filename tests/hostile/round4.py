#!/usr/bin/env python3
"""The fourth round of hostile inputs (issue 19) against the real bataille binary.

New inputs, as the kept-aside set would try them, aimed where the first three rounds did not
look: names made inside archives and beside outputs (one name per id?), variants and systems
as documents of their own, the table, print and render on crowded battles, digitize's
calibration and samples files, scans in other formats, and the commands' outputs beside
links. Each case: a fresh copy of a club's repository (tests/hostile/club.py), a mutation,
one or more runs under `timeout` and `ulimit -v`, and what must hold. Prints one line per
case (HELD / HOLE, class, surface, what) and the tally. Run from the repository after
`cargo build -p bataille`:

    python3 tests/hostile/round4.py            # the cases (about 10 minutes, debug)
    python3 tests/hostile/round4.py --sweeps   # and the refused-names sweep (a few minutes)
    BATAILLE=/path/to/bataille python3 tests/hostile/round4.py

The editor's cases run `target/debug/bataille-editor` (BATAILLE_EDITOR) on the X display
HOSTILE_DISPLAY (default :47; start one with `Xvfb :47`); without it they are holes marked
"harness".

The end-to-end tests that keep each class from coming back: tests/hostile_round4.rs (image
names per id, table sizes, --doubtful-below, schema --out all or none), tests/refused_values.rs
(refused names not counted), digitize/tests/metadata_bombs.rs (a profile held once),
editor/src/services/save.rs (a save all or none), tests/doors.rs (the editor through the doors).
"""
import os, re, json, zipfile, struct, zlib, subprocess, sys, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club import *  # noqa: F401,F403 (the shared club, runner and checks)

V = "scenarios/denain-1712-tingry-tard.ron"
GARDES = '                (id: "fr-gardes-francaises", name: "Gardes françaises", kind: "infantry", corps: "fr-maison-du-roi", cp: 3, mp: 4, morale: 5, facing: SE, placement: Free(zone: "fr-zone-maison-du-roi", at: "1608")),\n'


def add_unit_like_gardes(new_id, values="cp: 3, mp: 4, morale: 5"):
    """A second unit beside the Gardes françaises (other values, so another counter)."""
    twin = GARDES.replace('"fr-gardes-francaises"', f'"{new_id}"').replace("cp: 3, mp: 4, morale: 5", values)
    edit(S, GARDES, GARDES + twin)


def vmod_images():
    z = zipfile.ZipFile(path("out.vmod"))
    return {n: z.read(n) for n in z.namelist() if n.startswith("images/")}, z.read("buildFile.xml").decode()


def counter_images_of(unit_name):
    """The image names of the piece slots named `unit_name`."""
    _, build = vmod_images()
    out = []
    for slot in re.findall(r'<VASSAL\.build\.widget\.PieceSlot entryName="([^"]*)"[^>]*>([^<]*)', build):
        if slot[0] == unit_name:
            out.append(sorted(set(re.findall(r'([A-Za-z0-9_.\-]+\.png)', slot[1]))))
    return out


def shared_counter_images(name_a, name_b):
    a = {n for imgs in counter_images_of(name_a) for n in imgs}
    b = {n for imgs in counter_images_of(name_b) for n in imgs}
    if not a or not b:
        return [f"pieces not found: {name_a}: {a}, {name_b}: {b}"]
    both = a & b
    return [f"one image for two units: {sorted(both)}"] if both else []


# ------------------------------------------------------------------ names inside archives
@case("names", "export --vassal", "a unit `X-back` beside a unit X whose counter has a back")
def _():
    add_unit_like_gardes("fr-gardes-francaises-back", "cp: 2, mp: 3, morale: 4")
    edit(S, 'id: "fr-gardes-francaises-back", name: "Gardes françaises"', 'id: "fr-gardes-francaises-back", name: "Gardes arrière"')
    r = run("export", "--vassal", S, "--out", "out.vmod")
    return sane(r) + ([f"exit {r.code}"] if r.code != 0 else []) + (shared_counter_images("Gardes françaises", "Gardes arrière") if r.code == 0 else [])


@case("names", "export --vassal", "a unit `replacement-X` beside a unit X that has a replacement counter")
def _():
    # Which units have replacement counters is the rules' business: the module names them.
    ids = re.findall(r'\(id: "([a-z0-9\-]+)", name: "([^"]+)", kind:', read(S))
    base = run("export", "--vassal", S, "--out", "out.vmod")
    _, build = vmod_images()
    replaced = [i for i, name in ids if f'entryName="{name} (replacement)"' in build]
    if not replaced:
        return ["harness: no replacement counter in Denain"]
    victim = replaced[0]
    victim_name = dict(ids)[victim]
    line = next(l for l in read(S).splitlines(keepends=True) if f'(id: "{victim}",' in l)
    twin = line.replace(f'(id: "{victim}"', f'(id: "replacement-{victim}"').replace('name: "', 'name: "Twin ', 1)
    edit(S, line, line + twin)
    r = run("export", "--vassal", S, "--out", "out.vmod")
    if r.code != 0:
        return sane(r) + [f"exit {r.code}"]
    return sane(r) + shared_counter_images(f"{victim_name} (replacement)", f"Twin {victim_name}")


@case("names", "export --vassal", "a unit `X--setup-1` beside X, whose counter a variant changes")
def _():
    add_unit_like_gardes("fr-gardes-francaises--setup-1", "cp: 2, mp: 3, morale: 4")
    edit(S, 'id: "fr-gardes-francaises--setup-1", name: "Gardes françaises"', 'id: "fr-gardes-francaises--setup-1", name: "Gardes doublées"')
    edit(V, "    units: {\n", '    units: {\n        "fr-gardes-francaises": (cp: 1),\n')
    r = run("export", "--vassal", S, "--out", "out.vmod")
    if r.code != 0:
        return sane(r) + [f"exit {r.code}: {r.all[-300:]}"]
    return sane(r) + shared_counter_images("Gardes françaises", "Gardes doublées")


def fnv(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


@case("names", "export --vassal", "two ids, one long, whose image names are made equal on purpose (the long id's hash)")
def _():
    long_id = "aaaa" + "." * 40
    short_id = "aaaa" + "." * 24 + "-" + f"{fnv(long_id):016x}"
    add_unit_like_gardes(long_id, "cp: 2, mp: 3, morale: 4")
    edit(S, f'id: "{long_id}", name: "Gardes françaises"', f'id: "{long_id}", name: "Long"')
    add_unit_like_gardes(short_id, "cp: 1, mp: 2, morale: 3")
    edit(S, f'id: "{short_id}", name: "Gardes françaises"', f'id: "{short_id}", name: "Short"')
    r = run("export", "--vassal", S, "--out", "out.vmod")
    if r.code != 0:
        return sane(r) + [f"exit {r.code}: {r.all[-300:]}"]
    return sane(r) + shared_counter_images("Long", "Short")


@case("names", "export --vassal", "two variants of one name, and a variant named like the published set-up")
def _():
    write("scenarios/v2.ron", read(V))
    write("scenarios/v3.ron", read(V).replace('name: "Tingry sort trop tard"', 'name: "Denain"'))
    r = run("export", "--vassal", S, "--out", "out.vmod")
    if r.code != 0:
        return sane(r) + [f"exit {r.code}"]
    z = zipfile.ZipFile(path("out.vmod"))
    names = z.namelist()
    return sane(r) + ([f"duplicate entries: {names}"] if len(names) != len(set(names)) else [])


# ------------------------------------------------------------------ variants as documents
@case("variants", "table / render / export --tiled", "a variant given where a scenario is expected")
def _():
    p = []
    for args in [["table", V, "--system", "age-of-honor", "--out", "p.svg"], ["render", V, "--out", "r.png"],
                 ["export", "--tiled", V, "--out", "t.tmx"], ["export", "--json", V]]:
        r = run(*args)
        p += sane(r) + raw_controls(r)
        if r.code == 2 and "variant" not in r.all.lower():
            p.append(f"{args[0]}: refused without saying it is a variant: {r.all[-200:]}")
    return p


@case("variants", "validate / print", "a variant changing 200,000 units that do not exist")
def _():
    body = "".join(f'        "nope-{i}": (turn: 2),\n' for i in range(200000))
    edit(V, "    units: {\n", "    units: {\n" + body)
    v = run("validate", V, timeout=60)
    p = sane(v) + ([] if v.code == 1 else [f"validate exit {v.code}"])
    if len(v.all) > 200000:
        p.append(f"validate printed {len(v.all)} bytes")
    pr = run("print", V, "--out", "k.pdf", timeout=60)
    return p + sane(pr)


@case("variants", "validate / print", "a variant whose base is absolute, empty, a FIFO, a folder, outside through ..")
def _():
    os.mkfifo(path("scenarios/fifo.ron"))
    p = []
    for base in ["/etc/passwd", "", "fifo.ron", ".", "../../secret.ron", "../../outside/secret.ron"]:
        write(V, read(V).replace(re.search(r'base: "[^"]*"', read(V)).group(0), f'base: "{base}"'))
        for args in [["validate", V], ["print", V, "--out", "k.pdf"]]:
            r = run(*args, timeout=20)
            p += sane(r) + ([f"{base!r}: {args[0]} exit {r.code}"] if r.code not in (1, 2) else [])
            p += ["secret quoted"] if "SECRET_TOKEN" in r.all or "root:x:0" in r.all else []
    return p


@case("variants", "print / export --vassal", "a variant named with 1 MB of text and one with markup and {NEXT}")
def _():
    write("scenarios/v2.ron", read(V).replace('name: "Tingry sort trop tard"', 'name: "' + "W" * 1_000_000 + '"'))
    edit(V, 'name: "Tingry sort trop tard"', 'name: "</name><script>x</script>{NEXT}$PlayerName$"')
    p = []
    r = run("print", "scenarios/v2.ron", "--out", "k.pdf", timeout=60)
    p += sane(r) + ([] if r.code == 1 else [f"print of a 1 MB name: exit {r.code}"])
    os.remove(path("scenarios/v2.ron"))
    r = run("export", "--vassal", S, "--out", "out.vmod")
    p += sane(r)
    if r.code == 0:
        z = zipfile.ZipFile(path("out.vmod"))
        p += well_formed_xml(z.read("buildFile.xml"), "buildFile.xml")
    return p


# ------------------------------------------------------------------ systems as documents
@case("systems", "validate systems/", "a system file with -inf, 1e999, a duplicate base and a BOM")
def _():
    t = read("systems/age-of-honor.ron")
    p = []
    for bad in [t.replace("metres_per_mm: 3.6", "metres_per_mm: -inf", 1),
                t.replace("metres_per_mm: 3.6", "metres_per_mm: 1e999", 1),
                t.replace('"foot": (frontage_mm: 19.05', '"foot": (frontage_mm: 1.0, depth_mm: 1.0),\n                "foot": (frontage_mm: 19.05', 1),
                "\ufeff" + t.replace("metres_per_mm: 3.6", "metres_per_mm: NaN", 1)]:
        write("systems/age-of-honor.ron", bad)
        r = run("validate", "systems/")
        p += sane(r) + ([] if r.code == 1 and re.search(r"age-of-honor.ron:\d+:\d+", r.all) else [f"not refused with a place: exit {r.code}: {r.all[-200:]}"])
    return p


@case("systems", "table / validate", "a system with 60,000 troop types (one listed 60,000 times in needs)")
def _():
    t = read("systems/age-of-honor.ron")
    more = "".join(f'        "t{i}": (name: "T", arm: Infantry, unit_name: "u", base: "foot", figures_per_base: 1, source: "x"),\n' for i in range(60000))
    t = t.replace("    troop_types: {\n", "    troop_types: {\n" + more, 1)
    write("systems/age-of-honor.ron", t)
    p = []
    for args in [["validate", S], ["table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "r.pdf"]]:
        r = run(*args, timeout=60)
        p += sane(r)
    return p


@case("systems", "validate / table", "the same system listed 3,000 times in `miniatures`")
def _():
    entry = '        (system: "age-of-honor", file: "../systems/age-of-honor.ron"),\n'
    edit(S, "    miniatures: [\n", "    miniatures: [\n" + entry * 3000)
    p = []
    for args in [["validate", S], ["table", S, "--system", "age-of-honor", "--out", "p.svg"]]:
        r = run(*args, timeout=60)
        p += sane(r)
        if len(r.all) > 100000:
            p.append(f"{args[0]}: {len(r.all)} bytes of output")
    return p


@case("systems", "table", "a system whose artillery ranges list 100,000 bands and whose frontage is 1e-300 mm")
def _():
    t = read("systems/age-of-honor.ron")
    t = t.replace("artillery_ranges: [2.0, 4.0, 8.0, 12.0, 18.0]", "artillery_ranges: [" + ", ".join(str(1.0 + i) for i in range(100000)) + "]", 1)
    t = t.replace("frontage_mm: 19.05, depth_mm: 19.05", "frontage_mm: 1e-300, depth_mm: 1e-300", 1)
    write("systems/age-of-honor.ron", t)
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "r.svg", timeout=60)
    p = sane(r)
    for f in ["p.svg", "r.svg"]:
        if os.path.exists(path(f)):
            p += well_formed_xml(read(f, "rb"), f)
            if re.search(rb'="[^"]*\b(NaN|inf)\b', read(f, "rb")):
                p.append(f"{f}: NaN or inf in an attribute")
    return p


@case("systems", "schema", "bataille schema writes system.schema.json; it refuses what validate refuses")
def _():
    r = run("schema", "--out", "schemas")
    p = sane(r)
    if not os.path.exists(path("schemas/system.schema.json")):
        return p + ["no system.schema.json"]
    s = json.loads(read("schemas/system.schema.json"))
    return p + ([] if "properties" in json.dumps(s) else ["an empty schema"])


# ------------------------------------------------------------------ crowded battles
@case("unbounded", "render / print / table", "3,000 units on one hex")
def _():
    units = "".join(GARDES.replace('"fr-gardes-francaises"', f'"fr-x{i}"') for i in range(3000))
    edit(S, GARDES, GARDES + units)
    p = []
    for args in [["render", S, "--out", "r.png"], ["print", S, "--out", "k.pdf"],
                 ["table", S, "--system", "age-of-honor", "--out", "p.svg"],
                 ["export", "--vassal", S, "--out", "out.vmod"]]:
        r = run(*args, timeout=120)
        p += sane(r)
    return p


@case("unbounded", "render / print / export --tiled", "a label of 80 characters on each of 1,600 hexes (40 x 40)")
def _():
    # Linear in the labels (debug, load 7-8: print 7 s for 900, 29 s for 3,600; render 2 s
    # and 14 s), so a debug run of 6,400 passes the time limit; a release run does not.
    n = 40
    rows = "".join('        "%s",\n' % ("." * n) for _ in range(n))
    labels = "".join(f'        "{c:03}{r:03}": "{"L" * 77}{c % 10}",\n' for c in range(1, n + 1) for r in range(1, n + 1))
    write("maps/big.ron", 'Map(\n    format_version: 1,\n    name: "Big",\n    grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: %d, rows: %d, hex_names: (column_digits: 3, row_digits: 3)),\n    terrain: {".": (name: "Clear", colour: "#e8e2c4")},\n    rows: [\n%s    ],\n    labels: {\n%s    },\n)\n' % (n, n, rows, labels))
    v = run("validate", "maps/big.ron", timeout=60)
    p = sane(v) + ([] if v.code == 0 else [f"validate: exit {v.code}: {v.all[-300:]}"])
    write("scenarios/big.ron", read(S).replace('map: "../maps/denain-1712.ron"', 'map: "../maps/big.ron"'))
    for args in [["render", "maps/big.ron", "--out", "r.png"], ["print", "scenarios/big.ron", "--out", "k.pdf"],
                 ["export", "--tiled", "maps/big.ron", "--out", "t.tmx"]]:
        r = run(*args, timeout=120)
        p += sane(r)
    return p


@case("unbounded", "table", "--table 0.001x0.001mm, 1e300x1e300cm, 1e-300x5cm")
def _():
    p = []
    for t in ["0.001x0.001mm", "1e300x1e300cm", "1e-300x5cm", "5x1e-300cm", "infxinfcm", "nanx5cm"]:
        r = run("table", S, "--system", "age-of-honor", "--table", t, "--out", "p.svg")
        p += sane(r) + raw_controls(r)
    return p


# ------------------------------------------------------------------ digitize's own files
@case("digitize", "calibration", "points at 1e308, -1e308 and all on one line: a clear error, no NaN map")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for pts in ['(hex: "0101", x: 1e308, y: 10.0), (hex: "0401", x: -1e308, y: 20.0), (hex: "0104", x: 10.0, y: 1e308)',
                '(hex: "0101", x: 10.0, y: 10.0), (hex: "0201", x: 20.0, y: 10.0), (hex: "0301", x: 30.0, y: 10.0), (hex: "0401", x: 40.0, y: 10.0)',
                '(hex: "0101", x: 5e-324, y: 5e-324), (hex: "0401", x: 1e-323, y: 5e-324), (hex: "0104", x: 5e-324, y: 1e-323)']:
        r = digitize("x.png", CAL.split("points: [")[0] + "points: [" + pts + "])")
        p += sane(r)
        if os.path.exists(path("dm.ron")):
            if re.search(r"\b(NaN|inf)\b", read("dm.ron")):
                p.append("NaN/inf written into the map")
            v = run("validate", "dm.ron")
            p += [] if v.code == 0 else ["digitize wrote a map validate refuses"]
    return p


@case("digitize", "calibration", "a grid of 999 x 999 hexes calibrated on a 100 px scan")
def _():
    write("x.png", plain_png(), "wb")
    cal = CAL.replace("columns: 4, rows: 4", "columns: 999, rows: 999").replace("column_digits: 2, row_digits: 2", "column_digits: 3, row_digits: 3")
    cal = cal.replace('"0101"', '"001001"').replace('"0401"', '"004001"').replace('"0104"', '"001004"').replace('"0404"', '"004004"')
    r = digitize("x.png", cal, SAM.replace('"0101"', '"001001"'), timeout=60)
    return sane(r)


@case("digitize", "samples", "an empty terrain code, a 3-character code, 100-digit hex names, a colour `#GGG`")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for sam in ['Samples(terrain: {"": (name: "Clear", colour: "#ffffff")}, samples: {"": ["0101"]})',
                'Samples(terrain: {"abc": (name: "Clear", colour: "#ffffff")}, samples: {"abc": ["0101"]})',
                'Samples(terrain: {"c": (name: "Clear", colour: "#ffffff")}, samples: {"c": ["' + "1" * 100 + '"]})',
                'Samples(terrain: {"c": (name: "Clear", colour: "#GGG")}, samples: {"c": ["0101"]})']:
        r = digitize("x.png", CAL, sam)
        p += sane(r) + raw_controls(r)
        if os.path.exists(path("dm.ron")):
            v = run("validate", "dm.ron")
            p += [] if v.code == 0 else [f"{sam[:40]}: a map written that validate refuses"]
        elif "s.ron:" not in r.all:
            p.append(f"{sam[:40]}: refused without a place in s.ron: {r.all[-200:]}")
    return p


@case("digitize", "samples", "hexside samples naming sides of hexes off the grid, and 200,000 plain hexsides")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for extra in ['hexside_types: {"river": (name: "River", colour: "#0000ff")}, hexside_samples: {"river": ["9999/N", "0101/Q", "0101/N"]}',
                  'plain_hexsides: [' + ", ".join('"0101/N"' for _ in range(200000)) + "]"]:
        r = digitize("x.png", CAL, SAM[:-1] + ", " + extra + ")", timeout=60)
        p += sane(r)
        if os.path.exists(path("dm.ron")):
            v = run("validate", "dm.ron")
            p += [] if v.code == 0 else ["a map written that validate refuses"]
    return p


@case("digitize", "samples / calibration", "1,000,000 nested brackets, NaN, a duplicate key, a 70 MB samples file")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for cal, sam in [(CAL, "Samples(terrain: {}, samples: {}, x: " + "[" * 1000000 + "]" * 1000000 + ")"),
                     (CAL.replace("x: 10.0", "x: NaN", 1), SAM),
                     (CAL, 'Samples(terrain: {"c": (name: "Clear", colour: "#ffffff")}, terrain: {}, samples: {"c": ["0101"]})')]:
        r = digitize("x.png", cal, sam)
        p += sane(r) + ([] if r.code in (1, 2) and re.search(r"[cs]\.ron:\d+:\d+", r.all) else [f"no located refusal: {r.all[-200:]}"])
    with open(path("s.ron"), "wb") as f:
        f.write(b"Samples(" + b" " * (70 * 1024 * 1024) + b")")
    r = digitize("x.png", CAL, None)
    # Refused unread past its limit, as validate refuses a document over its own (exit 1).
    return p + sane(r) + ([] if r.code in (1, 2) and "too large" in r.all else [f"70 MB samples: exit {r.code}: {r.all[-200:]}"])


@case("digitize", "options", "--doubtful-below NaN, -1, inf")
def _():
    write("x.png", plain_png(), "wb")
    p = []
    for v in ["NaN", "-1", "inf"]:
        r = digitize("x.png", CAL, SAM, "--doubtful-below=" + v)
        p += sane(r) + raw_controls(r) + ([] if r.code == 2 else [f"--doubtful-below {v}: exit {r.code}"])
    return p


# ------------------------------------------------------------------ scans in other formats
def tiff(entries, extra=b"", next_ifd=0, first=8):
    """A little-endian TIFF: one IFD at `first`, `entries` as (tag, type, count, value)."""
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", *e) for e in entries) + struct.pack("<I", next_ifd)
    return b"II*\x00" + struct.pack("<I", first) + ifd + extra


@case("scan", "digitize", "a TIFF whose next-IFD points at itself, and one with 2^30 strip offsets")
def _():
    p = []
    loop = tiff([(256, 3, 1, 10), (257, 3, 1, 10), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                 (273, 4, 1, 200), (277, 3, 1, 1), (278, 3, 1, 10), (279, 4, 1, 100)], next_ifd=8) + b"\x80" * 300
    huge = tiff([(256, 4, 1, 1000), (257, 4, 1, 1000), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                 (273, 4, 1 << 30, 200), (277, 3, 1, 1), (278, 4, 1, 1), (279, 4, 1 << 30, 200)]) + b"\x00" * 300
    for name, data in [("loop.tif", loop), ("huge.tif", huge)]:
        write(name, data, "wb")
        r = digitize(name, CAL, SAM)
        p += sane(r)
    return p


@case("scan", "digitize / export --tiled", "a PNG with 200,000 empty tEXt chunks and one sPLT of 60 MB")
def _():
    texts = b"".join(png_chunk(b"tEXt", b"k\x00") for _ in range(200000))
    write("maps/t.png", plain_png(extra=texts), "wb")
    splt = png_chunk(b"sPLT", b"p\x00\x08" + b"\x00" * (6 * 10_000_000))
    write("maps/s.png", plain_png(extra=splt), "wb")
    p = []
    for name in ["maps/t.png", "maps/s.png"]:
        r = digitize(name, CAL, SAM, timeout=60)
        p += sane(r)
    return p


@case("scan", "digitize", "a 16-bit RGBA PNG of 12,000 x 12,000 (the size limit, 1.1 GB of pixels) and a 1-bit one")
def _():
    p = []
    for depth, colour, name in [(16, 6, "deep.png"), (1, 0, "bits.png")]:
        w = h = 12000
        bpp = {(16, 6): 8, (1, 0): 0}[(depth, colour)]
        row = (w * bpp) if bpp else (w + 7) // 8
        comp = zlib.compressobj(9)
        data = b""
        line = b"\x00" + b"\x00" * row
        for _ in range(h):
            data += comp.compress(line)
        data += comp.flush()
        ihdr = struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0)
        write(name, b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b""), "wb")
        r = digitize(name, CAL, SAM, timeout=120)
        p += sane(r)
    return p


# ------------------------------------------------------------------ outputs
@case("outputs", "fmt", "a scenario reached through a link inside the repository: the link is kept")
def _():
    os.symlink("denain-1712.ron", path("scenarios/link.ron"))
    edit(S, "    turns: 10", "turns: 10")
    r = run("fmt", "scenarios/link.ron")
    p = sane(r)
    if not os.path.islink(path("scenarios/link.ron")):
        p.append("the link was replaced by a copy (the scenario it names is left unformatted)")
    return p


@case("outputs", "schema --out", "system.schema.json a folder: nothing written, the two others untouched")
def _():
    os.makedirs(path("schemas/system.schema.json"))
    write("schemas/map.schema.json", "OLD")
    r = run("schema", "--out", "schemas")
    p = sane(r) + ([] if r.code == 2 else [f"exit {r.code}"])
    return p + ([] if read("schemas/map.schema.json") == "OLD" else ["map.schema.json replaced though the set failed"])


@case("outputs", "table", "--roster a hard link to the system file, --out a hard link to the variant")
def _():
    os.link(path("systems/age-of-honor.ron"), path("r.svg"))
    before = read("systems/age-of-honor.ron")
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "r.svg")
    p = sane(r)
    return p + ([] if read("systems/age-of-honor.ron") == before else ["the system file was written over"])


@case("outputs", "export --tiled", "the terrain image beside the output is the map's scan")
def _():
    write("maps/t-terrain.png", plain_png(64, 64), "wb")
    edit(M, '    grid:', '    background: (image: "t-terrain.png", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:')
    before = read("maps/t-terrain.png", "rb")
    r = run("export", "--tiled", M, "--out", "maps/t.tmx")
    return sane(r) + ([] if read("maps/t-terrain.png", "rb") == before else ["the scan replaced by the terrain tiles"])


@case("outputs", "digitize", "--out a map another scenario uses, over which a half-written map must never be left")
def _():
    write("x.png", plain_png(), "wb")
    before = read(M)
    r = digitize("x.png", CAL, SAM)
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", M, shell_tail="")
    p = sane(r)
    now = read(M)
    if now != before:
        v = run("validate", M)
        p += [] if v.code in (0, 1) and "E0101" not in v.all else ["the map left unreadable"]
    return p


# ------------------------------------------------------------------ terminal
@case("terminal", "digitize", "terrain names with bidi overrides and zero-width joiners in the doubtful list")
def _():
    write("x.png", plain_png(), "wb")
    sam = 'Samples(terrain: {"c": (name: "Cl\u202eraeC\u200d", colour: "#ffffff"), "w": (name: "W\u2066x\u2069", colour: "#000000")}, samples: {"c": ["0101"], "w": ["0404"]})'
    r = digitize("x.png", CAL, sam, "--doubtful-below", "1")
    return sane(r) + raw_controls(r)


@case("terminal", "validate human", "a system's and a variant's names with C1, bidi and ESC, reported in their own files")
def _():
    edit("systems/age-of-honor.ron", 'name: "Age of Honor"', 'name: "Age\u009b31m\u202eof\u001b[2J"')
    edit(V, 'name: "Tingry sort trop tard"', 'name: "Ting\u202ery\u200d\u009b"')
    p = []
    for args in [["validate", "systems/", V], ["print", V, "--out", "k.pdf"], ["table", S, "--system", "age-of-honor", "--out", "p.svg"]]:
        r = run(*args)
        p += sane(r) + raw_controls(r)
    return p


@case("terminal", "validate --format sarif", "file names with #, ?, %, space and a backslash: a URI that means the file")
def _():
    p = []
    for name in ["a#b.ron", "a?b.ron", "a%41.ron", "a b.ron", "a\\b.ron"]:
        write("scenarios/" + name, read(S).replace("turns: 10,", "turns: 0,"))
        r = run("validate", "--format", "sarif", "scenarios/" + name)
        p += sane(r)
        try:
            uri = json.loads(r.out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        except Exception as e:  # noqa
            p.append(f"{name!r}: {e}")
            continue
        from urllib.parse import unquote
        if unquote(uri) != "scenarios/" + name or re.search(r"[#? ]", uri):
            p.append(f"{name!r}: uri {uri}")
        os.remove(path("scenarios/" + name))
    return p


# ------------------------------------------------------------------ cascades in the new documents
@case("cascade", "validate", "a troop type renamed in a system: reported where named, not once per unit")
def _():
    edit("systems/age-of-honor.ron", '"cadenced-infantry": (name:', '"nope-x": (name:')
    d, r = json.loads(run("validate", "--format", "json", S, "systems/age-of-honor.ron").out), None
    codes = [x["code"] for x in d if x["code"] != "W0801"]
    return [] if len(codes) <= 3 else [f"{len(codes)} diagnostics: {sorted(set(codes))}"]


@case("cascade", "validate", "a base scenario with errors and its two variants: each of the base's errors reported once")
def _():
    edit(S, "turns: 10,", "turns: 0,")
    write(S, read(S).replace('corps: "fr-maison-du-roi"', 'corps: "nope-x"'))
    d = json.loads(run("validate", "--format", "json", "scenarios/").out)
    seen = {}
    for x in d:
        key = (x["code"], x.get("file"), x.get("line"), x.get("column"))
        seen[key] = seen.get(key, 0) + 1
    twice = [k for k, n in seen.items() if n > 1]
    return [f"reported {seen[k]} times: {k}" for k in twice][:3]


# ------------------------------------------------------------------ the editor (its real binary)
# The editor opens a stranger's file as a volunteer would (`bataille-editor FILE`) on a virtual
# display, with its own settings and recovery folders; it must still be running, without a
# panic, after the time it is given (a crash, an abort or running out of memory ends it early):
# `editor` and `xdg` are in club.py.


@case("editor", "open", "a map whose scan is a 16-bit RGBA PNG of 12,000 x 12,000 (1.1 GB of pixels)")
def _():
    w = h = 12000
    comp = zlib.compressobj(9)
    line = b"\x00" + b"\x00" * (w * 8)
    data = b"".join(comp.compress(line) for _ in range(h)) + comp.flush()
    ihdr = struct.pack(">IIBBBBB", w, h, 16, 6, 0, 0, 0)
    write("maps/deep.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b""), "wb")
    edit(M, '    grid:', '    background: (image: "deep.png", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:')
    return editor(S, seconds=40)


@case("editor", "open", "a map whose scan is a TIFF whose IFD points at itself")
def _():
    loop = tiff([(256, 3, 1, 10), (257, 3, 1, 10), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                 (273, 4, 1, 200), (277, 3, 1, 1), (278, 3, 1, 10), (279, 4, 1, 100)], next_ifd=8) + b"\x80" * 300
    write("maps/loop.tif", loop, "wb")
    edit(M, '    grid:', '    background: (image: "loop.tif", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:')
    return editor(S)


@case("editor", "open", "3,000 units on one hex, and a label of 80 characters on each of 6,400 hexes")
def _():
    units = "".join(GARDES.replace('"fr-gardes-francaises"', f'"fr-x{i}"') for i in range(3000))
    edit(S, GARDES, GARDES + units)
    p = editor(S, seconds=30)
    n = 80
    rows = "".join('        "%s",\n' % ("." * n) for _ in range(n))
    labels = "".join(f'        "{c:03}{r:03}": "{"L" * 77}{c % 10}",\n' for c in range(1, n + 1) for r in range(1, n + 1))
    write("maps/big.ron", 'Map(\n    format_version: 1,\n    name: "Big",\n    grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: %d, rows: %d, hex_names: (column_digits: 3, row_digits: 3)),\n    terrain: {".": (name: "Clear", colour: "#e8e2c4")},\n    rows: [\n%s    ],\n    labels: {\n%s    },\n)\n' % (n, n, rows, labels))
    return p + editor("maps/big.ron", seconds=30)


@case("editor", "open", "a FIFO named .ron, a folder, a 70 MB file, a file name holding ESC")
def _():
    os.mkfifo(path("scenarios/fifo.ron"))
    with open(path("scenarios/big.ron"), "wb") as f:
        f.write(b"Scenario(" + b" " * (70 * 1024 * 1024) + b")")
    write("scenarios/e\x1b[2J.ron", read(S))
    p = []
    for f in ["scenarios/fifo.ron", "scenarios", "scenarios/big.ron", "scenarios/e\x1b[2J.ron"]:
        p += editor(f, seconds=15)
    return p


@case("editor", "open", "a scenario beside 300 files named .ron: variants of it, of 8 MB each, and junk")
def _():
    v = read(V)
    pad = "// " + "x" * (8 * 1024 * 1024) + "\n"
    for i in range(40):
        write(f"scenarios/v{i:03}.ron", pad + v.replace('name: "Tingry sort trop tard"', f'name: "V{i}"'))
    for i in range(260):
        write(f"scenarios/w{i:03}.ron", "Variant(" * 2000)
    return editor(S, seconds=30)


@case("editor", "settings", "a settings file with a 0.001 mm table, 10,000 recent paths, escapes, a device; NaN and deep nesting")
def _():
    recent = ", ".join('"/dev/zero\\u{1b}[2J%d"' % i for i in range(10000))
    xdg("xdg-config/bataille-editor/settings.ron",
        f'(recent: [{recent}], table: (system: Some("age-of-honor"), figures: "1e308mm", table: "0.001x0.001mm", turned: true), export_folder: Some("/dev/null"))')
    p = editor(S)
    xdg("xdg-config/bataille-editor/settings.ron", '(show_left_dock: NaN, table: ' + "(" * 100000 + ')')
    return p + editor(S)


@case("editor", "recovery", "recovery files: a 999 x 999 map with no rows, NaN, a map_path of /etc/passwd, 200 of them")
def _():
    d = "xdg-cache/bataille-editor/recovery/"
    xdg(d + "a-0000000000000001-1.recovery.ron",
        '(written_at: 1, map_path: Some("/etc/passwd"), scenario_path: None, map: (format_version: 1, name: "x", grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 999, rows: 999, hex_names: (column_digits: 3, row_digits: 3)), terrain: {}, rows: []), pid: 1)')
    xdg(d + "b-0000000000000002-1.recovery.ron",
        '(written_at: NaN, map_path: None, scenario_path: None, map: ' + "[" * 100000 + ')')
    for i in range(200):
        xdg(d + f"c{i}-00000000000000{i:02x}-1.recovery.ron", "(written_at: 1, map: (" + "x" * 100000 + "))")
    return editor(S)


# ------------------------------------------------------------------ sweep: refused names counted
# With `--sweeps`: every id-like string of Denain's scenario, map, a system and a variant
# renamed, everywhere it is written, to a name the schema refuses ("BAD X"); each file then
# validated with `--max-per-code 1`. Only E0105s may be counted: a summary of another code with
# "0 shown" is a rule that counted a refused name beyond the bound (the W1010 and E1011 this
# round found).
if "--sweeps" in sys.argv:
    for rel in [S, M, "systems/age-of-honor.ron", V]:
        @case("cascade", f"{rel}", "every id-like string renamed to a refused name: only E0105s counted")
        def _():
            text = read(rel)
            p = []
            for tok in sorted(set(re.findall(r'"([a-z0-9][a-z0-9_.\-]*)"', text))):
                write(rel, text.replace(f'"{tok}"', '"BAD X"'))
                files = [S, rel] if rel != S else [S]
                r = run("validate", "--max-per-code", "1", *files)
                p += sane(r) + [f"{tok}: {l}" for l in r.all.splitlines() if "0 shown" in l and "E0105" not in l]
            write(rel, text)
            return p[:5]


if __name__ == "__main__":
    held = sum(1 for r in results if r[0])
    print(f"\n{held} held of {len(results)}")
    print(f"(every run's output: {LOG})")
