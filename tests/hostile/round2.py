#!/usr/bin/env python3
"""The second round of hostile inputs (issue 19) against the real bataille binary.

Each case: a fresh copy of a club's repository (Denain: scenario, map, variants, both systems,
copied from this repository), a mutation, one or more runs under `timeout` and `ulimit -v`,
and a check of what must hold. Prints one line per case (HELD / HOLE, class, surface, what)
and the tally. Run from the repository after `cargo build -p bataille`:

    python3 tests/hostile/round2.py            # the binary in target/debug
    BATAILLE=/path/to/bataille python3 tests/hostile/round2.py

The end-to-end tests that keep each class from coming back are tests/hostile_round.rs and
editor/tests/hostile_open.rs; this script is the whole round, for replaying it.
"""
import os, re, shutil, subprocess, sys, json, zipfile, struct, zlib, xml.dom.minidom

import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club import *  # noqa: F401,F403 (the shared club, runner and checks)

# ------------------------------------------------------------------ A. script / markup
@case("markup", "table svg", "unit name with <script> and a closing </svg>")
def _():
    unit_name('</text></svg><script>alert(1)</script>')
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "r.svg")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(read("p.svg", "rb"), "plan") + well_formed_xml(read("r.svg", "rb"), "roster")
    return p

@case("markup", "export --vassal", "army name with ]]> <!-- and an entity")
def _():
    edit(S, 'name: "Armée française (maréchal de Villars)"', 'name: "]]><!-- &xxe; <!DOCTYPE x [<!ENTITY e SYSTEM \\"file:///etc/passwd\\">]>"')
    r = run("export", "--vassal", S, "--out", "out.vmod")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(vmod_xml(), "buildFile.xml")
        if b"<!DOCTYPE" in vmod_xml() or b"<!ENTITY" in vmod_xml():
            p.append("DOCTYPE/ENTITY written raw")
    else:
        p.append("refused a legal name: " + r.all[-200:])
    return p

@case("markup", "export --tiled", "terrain name and label with quotes, <, & in the map")
def _():
    edit(M, '"0609": "Abscon"', '"0609": "A\\"b\' <x y=\\"1\\"/> & {NEXT} %s"')
    edit(M, '(name: "Terrain clair"', '(name: "\\"/><script>x</script>"')
    r = run("export", "--tiled", S, "--out", "t.tmx")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(read("t.tmx", "rb"), "tmx")
        for f in os.listdir(WORK):
            if f.endswith(".tsx"):
                p += well_formed_xml(read(f, "rb"), f)
    return p

@case("markup", "validate --format github", "a name holding a newline and a workflow command")
def _():
    # A duplicate id gives a diagnostic whose message quotes the name? Use an unknown kind's id in message.
    edit(S, 'kind: "infantry", corps: "fr-maison-du-roi", cp: 3', 'kind: "inf\\n::error file=x.ron,line=1::forged%0A::add-mask::x", corps: "fr-maison-du-roi", cp: 3')
    r = run("validate", "--format", "github", S)
    p = sane(r)
    lines = r.out.splitlines()
    forged = [l for l in lines if l.startswith("::error file=x.ron") or l.startswith("::add-mask")]
    if forged:
        p.append("forged workflow command line: " + forged[0])
    return p

@case("markup", "validate --format github", "a file name holding a comma, colons and %")
def _():
    shutil.copy(path(S), path("scenarios/a,line=9,title=x::y%0Az.ron"))
    edit("scenarios/a,line=9,title=x::y%0Az.ron", UNIT, '(id: "fr-gardes-francaises", name: "Gardes françaises", kind: "nope"', 1) if False else None
    t = read("scenarios/a,line=9,title=x::y%0Az.ron").replace('kind: "infantry", corps: "fr-maison-du-roi", cp: 3', 'kind: "nope", corps: "fr-maison-du-roi", cp: 3', 1)
    write("scenarios/a,line=9,title=x::y%0Az.ron", t)
    r = run("validate", "--format", "github", "scenarios/a,line=9,title=x::y%0Az.ron")
    p = sane(r)
    for l in r.out.splitlines():
        if l.startswith("::error"):
            props = [kv.split("=")[0] for kv in l.split("::")[1].split(" ", 1)[1].split(",")]
            if props.count("line") > 1 or props.count("title") > 1 or len(l.split("::")) != 3:
                p.append("file name injected a property: " + l[:200])
            break
    else:
        p.append("no annotation: " + r.all[-200:])
    return p

@case("markup", "validate --format sarif/json", "names with U+2028, quotes and backslashes stay valid JSON")
def _():
    edit(S, 'kind: "infantry", corps: "fr-maison-du-roi", cp: 3', 'kind: "a\\"b\\\\c\u2028d\u0085", corps: "fr-maison-du-roi", cp: 3')
    p = []
    for fmt in ("json", "sarif"):
        r = run("validate", "--format", fmt, S)
        p += sane(r)
        try:
            json.loads(r.out)
        except Exception as e:  # noqa
            p.append(f"{fmt} not JSON: {e}")
        p += raw_controls(r)
    return p

@case("markup", "print", "a unit name with PDF/markup syntax")
def _():
    unit_name(') Tj ET BT /F1 99 Tf (pwn <script> ]]> \\\\')
    r = run("print", S, "--out", "k.pdf")
    p = sane(r)
    if r.code != 0:
        p.append("refused a legal name: " + r.all[-200:])
    return p

@case("markup", "export --vassal", "variant name (predefined setup) with markup")
def _():
    v = "scenarios/denain-1712-tingry-tard.ron"
    t = read(v)
    t = re.sub(r'name: "[^"]*"', 'name: "</VASSAL.build.module.PredefinedSetup><script/>"', t, count=1)
    write(v, t)
    r = run("export", "--vassal", S, "--out", "out.vmod")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(vmod_xml(), "buildFile.xml")
    return p

# ------------------------------------------------------------------ B. characters XML cannot hold
@case("xml chars", "validate", "U+0001 written as a RON escape in a unit name")
def _():
    unit_name("x\x01y")  # json.dumps gives \u0001, RON reads \u{..}? json uses \u0001
    edit(S, '\\u0001', '\\u{1}')
    r = run("validate", "--format", "json", S)
    p = sane(r)
    if "E0123" not in r.out:
        p.append("escaped control not refused (no E0123): " + r.out[:300])
    return p

@case("xml chars", "export --tiled", "U+FFFF as a RON escape in a label")
def _():
    edit(M, '"0609": "Abscon"', '"0609": "Ab\\u{ffff}scon"')
    r = run("export", "--tiled", M, "--out", "t.tmx")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(read("t.tmx", "rb"), "tmx")
    if "E0123" not in r.all:
        p.append("not refused with E0123: " + r.all[-300:])
    return p

@case("xml chars", "table", "U+FFFE raw bytes in a system's troop type name")
def _():
    edit("systems/age-of-honor.ron", '(name: "Cadenced infantry"', '(name: "Cadenced\ufffe infantry"')
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "r.svg")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(read("p.svg", "rb"), "plan") + well_formed_xml(read("r.svg", "rb"), "roster")
    return p

@case("xml chars", "validate", "a lone surrogate escape \\u{d800} in a name")
def _():
    unit_name("PLACEHOLDER")
    edit(S, 'PLACEHOLDER', 'a\\u{d800}b')
    r = run("validate", S)
    p = sane(r)
    if r.code != 1:
        p.append(f"exit {r.code}: " + r.all[-200:])
    return p

@case("xml chars", "export --vassal", "a NUL via \\0 in the scenario title")
def _():
    edit(S, 'title: "Denain 1712 — scénario historique"', 'title: "Denain\\0 1712"')
    r = run("export", "--vassal", S, "--out", "out.vmod")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(vmod_xml(), "buildFile.xml")
        p.append("a NUL title exported")
    return p

@case("xml chars", "schema/system", "control char in a system's id via escape")
def _():
    edit("systems/louis-xiv.ron", 'name: "Louis XIV rules"', 'name: "Louis\\u{1b}[2J XIV"')
    r = run("validate", "systems/louis-xiv.ron")
    p = sane(r) + raw_controls(r)
    if "E0123" not in r.all:
        p.append("not E0123: " + r.all[-200:])
    return p

# ------------------------------------------------------------------ C. files outside the repository
@case("outside", "validate", "map: through a symlinked folder inside the repo leading outside")
def _():
    os.symlink(os.path.abspath(os.path.join(WORK, "../outside")), path("maps/ext"))
    edit(S, 'map: "../maps/denain-1712.ron"', 'map: "../maps/ext/secret.ron"')
    r = run("validate", S)
    p = sane(r)
    if "SECRET_TOKEN" in r.all:
        p.append("secret quoted")
    if "E0208" not in r.all:
        p.append("not E0208")
    return p

@case("outside", "table", "miniatures file through ../../ to a secret")
def _():
    edit(S, 'file: "../systems/age-of-honor.ron"', 'file: "../../outside/secret.ron"')
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg")
    p = sane(r)
    if "SECRET_TOKEN" in r.all:
        p.append("secret quoted")
    if r.code == 0:
        p.append("tabled")
    return p

@case("outside", "export --vassal", "variant base: naming a file outside (a variant beside)")
def _():
    v = "scenarios/denain-1712-tingry-tard.ron"
    t = read(v)
    t2 = re.sub(r'base: "[^"]*"', 'base: "../../outside/secret.ron"', t, count=1)
    assert t2 != t
    write(v, t2)
    r = run("validate", v)
    p = sane(r)
    if "SECRET_TOKEN" in r.all:
        p.append("secret quoted")
    return p

@case("outside", "render", "map: '.' (the folder) and map: '' ")
def _():
    p = []
    for m in [".", ""]:
        fresh()
        edit(S, 'map: "../maps/denain-1712.ron"', f'map: "{m}"')
        r = run("render", S, "--out", "o.png")
        p += sane(r)
        if r.code == 0:
            p.append(f"map {m!r} rendered")
    return p

@case("outside", "validate", "map: the scenario itself (a scenario as its own map)")
def _():
    edit(S, 'map: "../maps/denain-1712.ron"', 'map: "denain-1712.ron"')
    r = run("validate", S)
    p = sane(r)
    if "E0208" not in r.all:
        p.append("not E0208: " + r.all[-200:])
    return p

@case("outside", "export --tiled", "background.image: a symlink inside the repo to /etc/passwd")
def _():
    os.symlink("/etc/passwd", path("maps/scan.png"))
    edit(M, '    grid:', '    background: (image: "scan.png", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:')
    r = run("export", "--tiled", M, "--out", "t.tmx")
    p = sane(r)
    if "root:x:0" in r.all:
        p.append("passwd quoted")
    if os.path.exists(path("t-scan.png")):
        p.append("resampled /etc/passwd?")
    return p

@case("outside", "validate --root", "--root pointing at a file, and --root outside the scenario")
def _():
    r = run("validate", "--root", S, S)
    p = sane(r)
    r2 = run("validate", "--root", "/nonexistent", S)
    p += sane(r2)
    return p

@case("outside", "digitize", "calibration file that is a FIFO / directory")
def _():
    os.mkfifo(path("c.ron"))
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "maps", "--out", "m.ron", timeout=10)
    return sane(r)

# ------------------------------------------------------------------ D. metadata bombs in images
def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

def plain_png(w=16, h=16):
    raw = b"".join(b"\x00" + bytes([200, 180, 140]) * w for _ in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")

def bomb_stream(mib):
    c = zlib.compressobj(9)
    block = c.compress(b"\0" * (1 << 20)) + c.flush(zlib.Z_SYNC_FLUSH)
    data = block * mib
    data += c.flush()
    # fix the adler32: compute for n zeros
    n = mib << 20
    a, b = 1, n % 65521
    # zlib header from compressobj: first 2 bytes already in block; rebuild: header + raw deflate
    return data, struct.pack(">I", (b << 16) | a)

def deflate_bomb(mib):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(b"\0" * (1 << 20)) + c.flush(zlib.Z_SYNC_FLUSH)
    end = c.flush()
    n = mib << 20
    adler = struct.pack(">I", ((n % 65521) << 16) | 1)
    return b"\x78\xda" + block * mib + end + adler

def with_chunk_after_ihdr(png, kind, data):
    return png[:33] + png_chunk(kind, data) + png[33:]

def scan_map(name):
    edit(M, '    grid:', f'    background: (image: "{name}", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:')

CAL = 'Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: "0101", x: 10.0, y: 10.0), (hex: "0401", x: 70.0, y: 20.0), (hex: "0104", x: 10.0, y: 70.0), (hex: "0404", x: 70.0, y: 80.0)])'
SAM = 'Samples(terrain: {"c": (name: "Clear", colour: "#ffffff")}, samples: {"c": ["0101"]})'

def digitize(scan, *extra):
    write("c.ron", CAL)
    write("s.ron", SAM)
    return run("digitize", scan, "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron", *extra)

def image_surfaces(name, data):
    write("maps/" + name, data, "wb")
    scan_map(name)
    p = []
    for r in [run("export", "--vassal", S, "--out", "out.vmod"), run("export", "--tiled", M, "--out", "t.tmx"), digitize("maps/" + name)]:
        p += sane(r)
    return p

@case("image bomb", "digitize/exports", "zTXt chunk inflating to 1.5 GiB")
def _():
    return image_surfaces("z.png", with_chunk_after_ihdr(plain_png(), b"zTXt", b"Comment\0\0" + deflate_bomb(1536)))

@case("image bomb", "digitize/exports", "iTXt compressed chunk inflating to 1.5 GiB")
def _():
    return image_surfaces("i.png", with_chunk_after_ihdr(plain_png(), b"iTXt", b"XML:com.adobe.xmp\0\x01\0\0\0" + deflate_bomb(1536)))

@case("image bomb", "digitize/exports", "IDAT inflating past the declared size (16x16 declared, 1.5 GiB data)")
def _():
    png = plain_png()
    ihdr_end = 33
    png = png[:ihdr_end] + png_chunk(b"IDAT", deflate_bomb(1536)) + png_chunk(b"IEND", b"")
    return image_surfaces("d.png", png)

@case("image bomb", "digitize/exports", "PNG 12000x12000 RGB with a tiny IDAT (memory claimed, pixels absent)")
def _():
    ihdr = struct.pack(">IIBBBBB", 12000, 12000, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(b"\0" * 100)) + png_chunk(b"IEND", b"")
    return image_surfaces("big.png", png)

@case("image bomb", "digitize/exports", "JPEG claiming 65500x65500 in its SOF")
def _():
    import io
    # A tiny valid JPEG from the binary's own render is not at hand: hand-build header
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 65500, 65500, 1) + b"\x01\x11\x00"
    dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + bytes([1] * 64)
    dht = b"\xff\xc4" + struct.pack(">H", 20) + b"\x00" + bytes([0, 1] + [0] * 14) + b"\x00"
    sos = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00\x00\x3f\x00"
    jpg = b"\xff\xd8" + dqt + sof + dht + sos + b"\x00" * 64 + b"\xff\xd9"
    return image_surfaces("big.jpg", jpg)

@case("image bomb", "digitize/exports", "a GIF, a BMP and a WebP given as the scan")
def _():
    p = []
    gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
    bmp = b"BM" + b"\0" * 60
    webp = b"RIFF\x1a\x00\x00\x00WEBPVP8 " + b"\0" * 20
    for n, d in [("g.gif", gif), ("b.bmp", bmp), ("w.webp", webp)]:
        fresh()
        p += image_surfaces(n, d)
    return p

@case("image bomb", "digitize/exports", "TIFF claiming 100000x100000 with one strip")
def _():
    # little-endian TIFF, one IFD
    entries = [(256, 4, 1, 100000), (257, 4, 1, 100000), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1), (273, 4, 1, 8), (277, 3, 1, 1), (278, 4, 1, 100000), (279, 4, 1, 10)]
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", t, ty, c, v) if ty == 4 else struct.pack("<HHIHH", t, ty, c, v, 0) for t, ty, c, v in entries) + struct.pack("<I", 0)
    tif = b"II*\x00" + struct.pack("<I", 8 + 10) + b"\0" * 10 + ifd
    return image_surfaces("big.tif", tif)

@case("image bomb", "digitize/exports", "a JPEG with an ICC profile in 255 APP2 chunks (16 MB) and a progressive scan bomb")
def _():
    # thousands of empty SOS segments in a progressive JPEG header
    sof = b"\xff\xc2" + struct.pack(">HBHHB", 11, 8, 16, 16, 1) + b"\x01\x11\x00"
    dqt = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + bytes([1] * 64)
    dht = b"\xff\xc4" + struct.pack(">H", 20) + b"\x00" + bytes([0, 1] + [0] * 14) + b"\x00"
    sos = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00\x00\x00\x00" + b"\x00" * 2
    jpg = b"\xff\xd8" + dqt + sof + dht + sos * 200000 + b"\xff\xd9"
    return image_surfaces("prog.jpg", jpg)

@case("image bomb", "editor-less: render", "map with a bomb scan given to render and print (never read)")
def _():
    write("maps/z.png", with_chunk_after_ihdr(plain_png(), b"iCCP", b"x\0\0" + deflate_bomb(1536)), "wb")
    scan_map("z.png")
    p = []
    for r in [run("render", S, "--out", "o.png"), run("print", S, "--out", "k.pdf"), run("validate", "--format", "sarif", S)]:
        p += sane(r)
    return p

# ------------------------------------------------------------------ E. small files, unbounded work / aborts
@case("unbounded", "render", "render --scale 100000 of a 32x20 map")
def _():
    r = run("render", M, "--out", "o.png", "--scale", "100000")
    p = sane(r)
    if r.code == 0:
        p.append("drew a gigantic picture")
    return p

@case("unbounded", "render", "render --scale 0, -1, NaN, inf")
def _():
    p = []
    for s in ["0", "-1", "NaN", "inf", "1e-30"]:
        r = run("render", M, "--out", "o.png", "--scale", s)
        p += [f"--scale {s}: " + x for x in sane(r)]
    return p

@case("unbounded", "print", "print --hex 0.0001mm / 100000mm / --counter 0 / NaN")
def _():
    p = []
    for args in [["--hex", "0.0001mm"], ["--hex", "100000mm"], ["--counter", "0mm"], ["--hex", "NaNmm"], ["--counter", "1e30in"], ["--hex", "-16mm"]]:
        r = run("print", S, "--out", "k.pdf", *args)
        p += [f"{args}: " + x for x in sane(r)]
    return p

@case("unbounded", "table", "table --table 1000000x1000000cm and 0x0cm and --turn 1e30")
def _():
    p = []
    for args in [["--table", "1000000x1000000cm"], ["--table", "0x0cm"], ["--table", "NaNxNaNcm"], ["--turn", "1e30"], ["--turn", "NaN"], ["--table", "180x120cm", "--turn", "best"]]:
        r = run("table", S, "--system", "age-of-honor", "--out", "p.pdf", *args)
        p += [f"{args}: " + x for x in sane(r)]
    return p

@case("unbounded", "validate", "hex_names column_digits: 4000000000")
def _():
    edit(M, 'hex_names: (column_digits: 2, row_digits: 2)', 'hex_names: (column_digits: 4000000000, row_digits: 2)')
    p = []
    for r in [run("validate", M), run("render", M, "--out", "o.png"), run("export", "--tiled", M, "--out", "t.tmx")]:
        p += sane(r)
    return p

@case("unbounded", "validate", "turns: 4294967295 with column-entry reinforcements")
def _():
    edit(S, 'turns: 10,', 'turns: 4294967295,')
    p = []
    for r in [run("validate", S), run("print", S, "--out", "k.pdf"), run("export", "--vassal", S, "--out", "out.vmod")]:
        p += sane(r)
    return p

@case("unbounded", "table", "system: stands Range max 2e9 and a unit of 2e9 stands")
def _():
    edit("systems/age-of-honor.ron", 'values: Range(min: 1, max: 24)', 'values: Range(min: 1, max: 2000000000)')
    edit(S, 'per_cp: {"stands": 3}', 'per_cp: {"stands": 600000000}')
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "r.pdf")
    return sane(r)

@case("unbounded", "table", "system: frontage_mm 1e300, metres_per_mm 1e-300")
def _():
    edit("systems/age-of-honor.ron", 'metres_per_mm: 3.6,', 'metres_per_mm: 1e-300,')
    edit("systems/age-of-honor.ron", '"foot": (frontage_mm: 19.05', '"foot": (frontage_mm: 1e300')
    p = []
    for r in [run("validate", S), run("table", S, "--system", "age-of-honor", "--out", "p.pdf")]:
        p += sane(r)
    return p

@case("unbounded", "validate", "a command radius of 4294967295 on every leader")
def _():
    t = read(S)
    t2 = re.sub(r'radius: \d+', 'radius: 4294967295', t)
    write(S, t2)
    r = run("validate", S)
    return sane(r)

@case("unbounded", "validate", "a road path of 200,000 hexes going back and forth")
def _():
    t = read(M)
    hexes = " ".join(["0101", "0102"] * 100000)
    if "paths:" in t:
        t = t.replace("    grid:", f'    paths: {{"route": ["{hexes}"]}},\n    grid:', 1) if False else t
    t = t.replace("    grid:", f'    grid:', 1)
    write(M, t)
    # put into existing paths field if present
    m = re.search(r'paths: \{', t)
    if m:
        key = re.search(r'paths: \{\s*"([^"]+)": \[', t[m.start():])
        if key:
            t = t[:m.start()] + t[m.start():].replace(key.group(0), key.group(0) + f'"{hexes}", ', 1)
            write(M, t)
    p = []
    for r in [run("validate", M), run("render", M, "--out", "o.png"), run("export", "--vassal", S, "--out", "out.vmod")]:
        p += sane(r)
    return p

@case("unbounded", "digitize", "calibration with 50,000 points on four hexes, and NaN")
def _():
    pts = ", ".join(f'(hex: "0101", x: {10 + i % 7}.0, y: {10 + i % 5}.0)' for i in range(50000))
    write("c.ron", CAL.replace('points: [', f'points: [{pts}, ', 1))
    write("s.ron", SAM)
    write("x.png", plain_png(100, 100), "wb")
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron")
    p = sane(r)
    write("c.ron", CAL.replace("x: 10.0", "x: NaN"))
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron")
    p += sane(r)
    return p

@case("unbounded", "digitize", "samples: 100,000 sample hexes, grid 999x999 in the calibration")
def _():
    write("c.ron", CAL.replace("columns: 4, rows: 4", "columns: 999, rows: 999"))
    hexes = ", ".join(f'"{c:02d}{r:02d}"' for c in range(1, 5) for r in range(1, 5))
    write("s.ron", SAM.replace('["0101"]', "[" + ", ".join([hexes] * 6000) + "]"))
    write("x.png", plain_png(100, 100), "wb")
    r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron")
    return sane(r)

# ------------------------------------------------------------------ G. outputs destroying what was there
def unchanged(rels):
    def snap():
        return {r: open(path(r), "rb").read() for r in rels}
    return snap

def outputs_case(args, protected):
    before = {r: open(path(r), "rb").read() for r in protected}
    r = run(*args)
    p = sane(r)
    for rel, data in before.items():
        if not os.path.exists(path(rel)) or open(path(rel), "rb").read() != data:
            p.append(f"{rel} changed")
    return p

@case("outputs", "table", "--out naming the systems file the table reads")
def _():
    return outputs_case(["table", S, "--system", "age-of-honor", "--out", "systems/age-of-honor.ron"], ["systems/age-of-honor.ron"])

@case("outputs", "table", "--roster naming the map")
def _():
    return outputs_case(["table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", M], [M])

@case("outputs", "table", "--out and --roster the same file")
def _():
    write("p.svg", "old")
    return outputs_case(["table", S, "--system", "age-of-honor", "--out", "p.svg", "--roster", "./p.svg"], ["p.svg"])

@case("outputs", "print", "--out a symlink to the scenario")
def _():
    os.symlink("denain-1712.ron", path("scenarios/k.pdf"))
    return outputs_case(["print", S, "--out", "scenarios/k.pdf"], [S])

@case("outputs", "export --vassal", "--out naming a variant beside the scenario")
def _():
    return outputs_case(["export", "--vassal", S, "--out", "scenarios/denain-1712-tingry-tard.ron"], ["scenarios/denain-1712-tingry-tard.ron"])

@case("outputs", "render", "--out naming the scenario through ./ and ..")
def _():
    return outputs_case(["render", S, "--out", "scenarios/../scenarios/./denain-1712.ron"], [S])

@case("outputs", "digitize", "--out naming the scan, the calibration, the samples")
def _():
    write("x.png", plain_png(100, 100), "wb")
    write("c.ron", CAL)
    write("s.ron", SAM)
    p = []
    for o in ["x.png", "c.ron", "s.ron"]:
        p += [f"--out {o}: " + x for x in outputs_case(["digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", o], ["x.png", "c.ron", "s.ron"])]
    return p

@case("outputs", "export --tiled", "--out naming the map's scan via the tileset name (stem-scan.png is the scan)")
def _():
    write("maps/m-scan.png", plain_png(), "wb")
    scan_map("m-scan.png")
    return outputs_case(["export", "--tiled", M, "--out", "maps/m.tmx"], ["maps/m-scan.png", M])

@case("outputs", "export --vassal", "--out a directory")
def _():
    os.mkdir(path("out.vmod"))
    write("out.vmod/keep", "keep")
    return outputs_case(["export", "--vassal", S, "--out", "out.vmod"], ["out.vmod/keep"])

@case("outputs", "schema", "--out a folder where map.schema.json is the scenario (a symlink)")
def _():
    os.mkdir(path("schemas"))
    os.symlink("../" + S, path("schemas/map.schema.json"))
    return outputs_case(["schema", "--out", "schemas"], [S])

@case("outputs", "export --vassal", "--out a hard link to the scenario")
def _():
    os.link(path(S), path("hard.vmod"))
    return outputs_case(["export", "--vassal", S, "--out", "hard.vmod"], [S])

@case("outputs", "digitize", "--out a symlink to the calibration")
def _():
    write("x.png", plain_png(100, 100), "wb")
    write("c.ron", CAL)
    write("s.ron", SAM)
    os.symlink("c.ron", path("dm.ron"))
    return outputs_case(["digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron"], ["c.ron"])

@case("outputs", "fmt", "fmt on a file that is a hard link to a file outside, and on a FIFO named .ron")
def _():
    os.mkfifo(path("scenarios/pipe.ron"))
    r = run("fmt", "scenarios/", timeout=15)
    return sane(r)

# ------------------------------------------------------------------ H. rules / system files
@case("rules", "validate", "system: Range(min: 5, max: 1) and OneOf([]) ")
def _():
    edit("systems/age-of-honor.ron", 'values: Range(min: 1, max: 24)', 'values: Range(min: 5, max: 1)')
    edit("systems/age-of-honor.ron", 'values: OneOf(["fresh", "spent"])', 'values: OneOf([])')
    r = run("validate", "--format", "json", "systems/age-of-honor.ron")
    p = sane(r)
    if r.code == 0:
        p.append("an empty range and an empty word list pass validate")
    return p

@case("rules", "validate", "system: a troop type whose base names no base of a figure scale")
def _():
    edit("systems/age-of-honor.ron", 'base: "foot", figures_per_base: 4', 'base: "nope", figures_per_base: 4', 1)
    r = run("validate", "systems/age-of-honor.ron")
    p = sane(r)
    rt = run("table", S, "--system", "age-of-honor", "--out", "p.svg")
    p += sane(rt)
    if r.code == 0 and rt.code != 0:
        p.append("validate passes a system the table cannot use: " + rt.all[-200:])
    return p

@case("rules", "validate", "system: figures_per_base 0 and needs naming an undefined rating")
def _():
    edit("systems/age-of-honor.ron", 'figures_per_base: 4', 'figures_per_base: 0', 1)
    edit("systems/age-of-honor.ron", 'needs: ["stands", "fire_type", "quality"]', 'needs: ["stands", "no_such_rating"]', 1)
    r = run("validate", "systems/age-of-honor.ron")
    p = sane(r)
    rt = run("table", S, "--system", "age-of-honor", "--out", "p.svg")
    p += sane(rt)
    if r.code == 0:
        p.append("validate passes figures_per_base 0 / needs an undefined rating")
    return p

@case("rules", "validate", "scenario: rules charts with a D10 chart of 100,000 rows")
def _():
    rows = ", ".join(f'(rolls: ({i}, {i}), results: ["x"])' for i in range(100000))
    t = read(S)
    if "charts:" in t:
        return ["skip: charts present"]
    edit(S, '        unit_kinds: {', f'        charts: [(id: "c", name: "C", die: D10, columns: ["a"], rows: [{rows}])],\n        unit_kinds: {{')
    p = []
    for r in [run("validate", S), run("print", S, "--out", "k.pdf"), run("export", "--vassal", S, "--out", "out.vmod")]:
        p += sane(r)
    return p

# ------------------------------------------------------------------ I. terminal escapes
ESC = "\x1b]0;pwned\x07\x1b[2J"

@case("terminal", "validate human/github", "a file name holding OSC and CSI escapes")
def _():
    shutil.copy(path(S), path(f"scenarios/x{ESC}.ron"))
    p = []
    for fmt in ["human", "github", "json", "sarif"]:
        r = run("validate", "--format", fmt, "scenarios/")
        p += sane(r) + [f"{fmt}: " + x for x in raw_controls(r)]
    return p

@case("terminal", "clap", "an argument holding escapes (unknown flag, bad value)")
def _():
    p = []
    for args in [["validate", "--" + ESC], ["validate", "--format", ESC, S], ["render", M, "--out", "o.png", "--scale", ESC], ["table", S, "--system", "x", "--figures", "15mm", "--table", ESC, "--out", "p.svg"], ["print", S, "--out", "k.pdf", "--hex", ESC]]:
        r = run(*args)
        p += sane(r) + [f"{args[0]}: " + x for x in raw_controls(r)]
    return p

@case("terminal", "render/print/export", "--out path holding escapes (the 'wrote' line)")
def _():
    p = []
    for args in [["render", M, "--out", f"o{ESC}.png"], ["print", S, "--out", f"k{ESC}.pdf"], ["export", "--vassal", S, "--out", f"v{ESC}.vmod"], ["export", "--tiled", M, "--out", f"t{ESC}.tmx"], ["table", S, "--system", "age-of-honor", "--out", f"p{ESC}.svg"]]:
        r = run(*args)
        p += sane(r) + [f"{args[0]}: " + x for x in raw_controls(r)]
    return p

@case("terminal", "digitize", "scan path and calibration path with escapes, a missing scan")
def _():
    write(f"c{ESC}.ron", CAL)
    write("s.ron", SAM)
    r = run("digitize", f"x{ESC}.png", "--calibration", f"c{ESC}.ron", "--samples", "s.ron", "--out", "dm.ron")
    p = sane(r) + raw_controls(r)
    write(f"x{ESC}.png", plain_png(100, 100), "wb")
    r = run("digitize", f"x{ESC}.png", "--calibration", f"c{ESC}.ron", "--samples", "s.ron", "--out", f"d{ESC}.ron")
    p += sane(r) + raw_controls(r)
    return p

@case("terminal", "table", "unit names with bidi overrides and zero-width joiners in table's own output")
def _():
    t = read(S)
    t = t.replace('name: "Valenciennes 1/"', 'name: "Valen\u202eciennes\u200d 1/"')
    write(S, t)
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg")
    return sane(r) + raw_controls(r)

@case("terminal", "fmt", "fmt of files whose names hold escapes; --check listing")
def _():
    t = read(S).replace("    turns: 10,", "turns: 10,")
    write(f"scenarios/f{ESC}.ron", t)
    p = []
    for args in [["fmt", "--check", "scenarios/"], ["fmt", f"scenarios/f{ESC}.ron"]]:
        r = run(*args)
        p += sane(r) + raw_controls(r)
    return p

@case("terminal", "validate", "a parse error message quoting an identifier-looking string with escapes")
def _():
    edit(S, 'facing: SE, placement: Free(zone: "fr-zone-maison-du-roi"', 'facing: "\\u{1b}[2J\\u{9b}31m", placement: Free(zone: "fr-zone-maison-du-roi"', 1)
    p = []
    for fmt in ["human", "github"]:
        r = run("validate", "--format", fmt, S)
        p += sane(r) + raw_controls(r)
    return p

@case("terminal", "schema", "schema --out a folder whose name holds escapes, and a missing folder")
def _():
    os.mkdir(path(f"s{ESC}"))
    p = []
    for d in [f"s{ESC}", f"missing{ESC}"]:
        r = run("schema", "--out", d)
        p += sane(r) + raw_controls(r)
    return p

@case("terminal", "export --json", "export --json of a file with bidi names (JSON to a terminal)")
def _():
    unit_name("a\u202eb\u2066c\u00ad")
    r = run("export", "--json", S)
    return sane(r) + raw_controls(r)

# ------------------------------------------------------------------ J. cascades
@case("cascade", "validate", "a refused map: no per-unit 'off the map' diagnostics after E0208")
def _():
    edit(S, 'map: "../maps/denain-1712.ron"', 'map: "../maps/missing.ron"')
    r = run("validate", "--format", "json", S)
    p = sane(r)
    codes = [d.get("code") for d in json.loads(r.out)] if r.out.strip().startswith("[") else []
    extra = [c for c in codes if c != "E0208"]
    if extra:
        p.append(f"after E0208 also {len(extra)}: {sorted(set(extra))}")
    return p

@case("cascade", "validate", "an unknown corps on a unit: reported once")
def _():
    edit(S, 'corps: "fr-maison-du-roi", cp: 3', 'corps: "fr-nowhere", cp: 3', 1)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    ds = json.loads(r.out)
    mine = [d["code"] for d in ds if "fr-gardes-francaises" in json.dumps(d)]
    if len(mine) > 1:
        p.append(f"{len(mine)} diagnostics for one unknown corps: {mine}")
    return p

@case("cascade", "validate", "an unknown terrain code in a row: not then E0504 for the unit on it")
def _():
    t = read(M)
    m = re.search(r'rows: \[\n\s+"', t)
    i = m.end()
    t = t[:i] + "Q" + t[i + 1:]
    write(M, t)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    codes = [d["code"] for d in json.loads(r.out)]
    if "E0504" in codes:
        p.append(f"E0504 after E0603: {codes}")
    return p

@case("cascade", "validate", "a variant whose base is refused: E1104 once, not every change")
def _():
    edit(S, 'turns: 10,', 'turns: 10, turns: 11,')
    v = "scenarios/denain-1712-tingry-tard.ron"
    r = run("validate", "--format", "json", v)
    p = sane(r)
    codes = [d["code"] for d in json.loads(r.out)] if r.out.strip().startswith("[") else []
    if codes.count("E1101") or len([c for c in codes if c not in ("E1104", "E0120")]) > 0:
        p.append(f"cascade: {codes}")
    return p

@case("cascade", "validate", "a unit of an unknown army kind on the miniatures side (E0204 then E1002?)")
def _():
    edit(S, 'kind: "infantry", corps: "fr-maison-du-roi", cp: 3', 'kind: "musketeers", corps: "fr-maison-du-roi", cp: 3', 1)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    ds = [d for d in json.loads(r.out) if "fr-gardes-francaises" in json.dumps(d)]
    if len(ds) > 1:
        p.append(f"{[d['code'] for d in ds]}")
    return p

# ------------------------------------------------------------------ K. broken pipes
@case("broken pipe", "every printing command", "stdout closed at once (| head -c 0 style)")
def _():
    p = []
    cmds = [["validate", "--format", "json", "scenarios/"], ["validate", "--format", "sarif", "scenarios/"], ["validate", "--format", "github", "scenarios/"], ["validate", "scenarios/"], ["export", "--json", S], ["schema"], ["fmt", "--check", "scenarios/"], ["table", S, "--system", "age-of-honor", "--out", "p.svg"], ["render", M, "--out", "o.png"], ["print", S, "--out", "k.pdf"], ["export", "--vassal", S, "--out", "out.vmod"], ["--help"]]
    write("scenarios/denain-1712.ron", read(S).replace("    turns: 10,", "turns: 10,"))
    for c in cmds:
        r = run(*c, shell_tail="| (exec 0<&-; sleep 0)")
        # the pipe's reader exits at once; check stderr of bataille
        q = subprocess.run(["bash", "-c", f"set -o pipefail; ulimit -v {LIMIT_KB}; timeout -s KILL 30 {B} " + " ".join("'" + a + "'" for a in c) + " | head -c 1 >/dev/null; echo ${PIPESTATUS[0]}"], cwd=WORK, capture_output=True)
        err = q.stderr.decode("utf-8", "replace")
        status = q.stdout.decode().strip().splitlines()[-1]
        if "panicked" in err or "Broken pipe" in err or status not in ("0", "1", "2"):
            p.append(f"{c[0]} {c[1] if len(c) > 1 else ''}: status {status} {err[-200:]}")
    return p


# ------------------------------------------------------------------ second batch
def big_map(cols, rows):
    t = read(M)
    t = t.replace("columns: 32, rows: 20", f"columns: {cols}, rows: {rows}")
    start = t.index("    rows: [")
    end = t.index("    ],", start) + len("    ],")
    body = "    rows: [\n" + "".join('        "' + "." * cols + '",\n' for _ in range(rows)) + "    ],"
    t = t[:start] + body + t[end:]
    # drop everything that names hexes beyond: keep labels etc. (they are inside 32x20)
    write(M, t)

@case("unbounded", "validate", "200 corps whose leaders claim radius 999 on a 300x300 map (command reach per corps)")
def _():
    big_map(300, 300)
    edit(M, 'hex_names: (column_digits: 2, row_digits: 2)', 'hex_names: (column_digits: 3, row_digits: 3)')
    t = read(S)
    m = re.search(r'corps: \[\n', t)
    corps = "".join(f'(id: "c{i}", name: "C{i}", colour: "#123456", leader: (id: "l{i}", name: "L{i}", activation: 3, radius_hexes: 999, placement: Hex("001001"))),\n' for i in range(200))
    t = t[:m.end()] + corps + t[m.end():]
    unit = re.search(r'\n(\s+\(id: "fr-gardes-francaises".*\n)', t).group(1)
    units = "".join(unit.replace('"fr-gardes-francaises"', f'"u{i}"').replace('corps: "fr-maison-du-roi"', f'corps: "c{i}"').replace('placement: Free(zone: "fr-zone-maison-du-roi", at: "1608")', 'placement: Hex("300300")') for i in range(200))
    t = t.replace(unit, unit + units, 1)
    t = re.sub(r'commands: \["', 'commands: [' + ", ".join(f'"c{i}"' for i in range(200)) + ', "', t, count=1)
    write(S, t)
    r = run("validate", "--format", "json", S, timeout=30)
    return sane(r)

@case("unbounded", "validate", "a 1 MB unit name: the report stays small")
def _():
    unit_name("x" * (1 << 20))
    r = run("validate", S)
    p = sane(r)
    if len(r.all) > 100_000:
        p.append(f"report of {len(r.all)} bytes for one long name")
    r2 = run("validate", "--format", "sarif", S)
    if len(r2.all) > 100_000:
        p.append(f"sarif of {len(r2.all)} bytes")
    return p

@case("terminal", "validate", "raw ESC, CR and C1 bytes outside strings (in the shown source line)")
def _():
    edit(S, "    turns: 10,", "    turns: 10,\x1b[2J\r\u009b31m oops")
    p = []
    for fmt in ["human", "github"]:
        r = run("validate", "--format", fmt, S)
        p += sane(r) + raw_controls(r)
        if r.code != 1:
            p.append(f"{fmt}: exit {r.code}")
    r = run("fmt", "--check", S)
    p += sane(r) + raw_controls(r)
    return p

@case("terminal", "validate", "--allow with escapes, --root with escapes")
def _():
    p = []
    for args in [["validate", "--allow", ESC, S], ["validate", "--root", f"r{ESC}", S], ["render", S, "--root", f"r{ESC}", "--out", "o.png"]]:
        r = run(*args)
        p += sane(r) + raw_controls(r)
    return p

@case("cascade", "validate", "an unknown zone in a free placement: reported once")
def _():
    edit(S, 'placement: Free(zone: "fr-zone-maison-du-roi", at: "1608")', 'placement: Free(zone: "fr-zone-nowhere", at: "1608")', 1)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    ds = [d["code"] for d in json.loads(r.out) if "fr-gardes-francaises" in json.dumps(d)]
    if len(ds) > 1:
        p.append(str(ds))
    return p

@case("cascade", "validate", "a unit placed on a hex off the map: E0503 only")
def _():
    edit(S, 'placement: Free(zone: "fr-zone-maison-du-roi", at: "1608")', 'placement: Hex("9999")', 1)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    ds = [d["code"] for d in json.loads(r.out) if "fr-gardes-francaises" in json.dumps(d)]
    if len(ds) > 1:
        p.append(str(ds))
    return p

@case("cascade", "validate", "a unit id given twice: E0202 once, not double stacking")
def _():
    t = read(S)
    m = re.search(r'\n(\s+\(id: "fr-gardes-francaises".*\n)', t)
    line = m.group(1)
    t = t.replace(line, line + line, 1)
    write(S, t)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    ds = [d["code"] for d in json.loads(r.out) if "fr-gardes-francaises" in json.dumps(d)]
    if len([c for c in ds if c not in ("E0201", "E0301")]) > 0:
        p.append(str(ds))
    return p

@case("cascade", "validate", "a commander commanding an unknown corps; an army on no side")
def _():
    t = read(S)
    t2 = re.sub(r'commands: \["', 'commands: ["fr-ghost", "', t, count=1)
    assert t2 != t
    write(S, t2)
    r = run("validate", "--format", "json", S)
    p = sane(r)
    codes = [d["code"] for d in json.loads(r.out)]
    if len([c for c in codes if c not in ("W0801",)]) > 1:
        p.append(str(codes))
    return p

@case("outside", "validate", "miniatures file: a directory, a FIFO, the scenario itself")
def _():
    p = []
    os.mkfifo(path("systems/fifo.ron"))
    for f in ["../systems", "../systems/fifo.ron", "denain-1712.ron"]:
        fresh()
        if f.endswith("fifo.ron"):
            os.mkfifo(path("systems/fifo.ron"))
        edit(S, 'file: "../systems/age-of-honor.ron"', f'file: "{f}"')
        r = run("validate", S, timeout=15)
        p += sane(r)
        if "E1001" not in r.all:
            p.append(f"{f}: no E1001")
    return p

@case("outside", "validate", "background.image: a FIFO inside the repository; the map itself")
def _():
    p = []
    os.mkfifo(path("maps/fifo.png"))
    scan_map("fifo.png")
    for r in [run("validate", M, timeout=15), run("export", "--tiled", M, "--out", "t.tmx", timeout=15), run("export", "--vassal", S, "--out", "o.vmod", timeout=15)]:
        p += sane(r)
    fresh()
    scan_map("denain-1712.ron")
    for r in [run("export", "--tiled", M, "--out", "t.tmx"), run("export", "--vassal", S, "--out", "o.vmod")]:
        p += sane(r)
        if "Denain" in r.all and "Map(" in r.all:
            p.append("map quoted as image")
    return p

@case("outputs", "table", "--out a FIFO; --out /dev/null")
def _():
    os.mkfifo(path("p.svg"))
    r = run("table", S, "--system", "age-of-honor", "--out", "p.svg", timeout=15)
    p = sane(r)
    r = run("render", M, "--out", "/dev/null", timeout=15)
    p += sane(r)
    return p

@case("markup", "export --vassal", "a system-less scenario title and map name of 200 chars of & and <")
def _():
    edit(S, 'title: "Denain 1712 — scénario historique"', 'title: "' + "&<" * 60 + '"')
    edit(M, 'name: "Denain 1712"', 'name: "' + "&<>\\\"'" * 20 + '"')
    r = run("export", "--vassal", S, "--out", "out.vmod")
    p = sane(r)
    if r.code == 0:
        p += well_formed_xml(vmod_xml(), "buildFile.xml")
    r = run("export", "--tiled", S, "--out", "t.tmx")
    p += sane(r)
    if r.code == 0:
        p += well_formed_xml(read("t.tmx", "rb"), "tmx")
    return p

@case("rules", "validate", "system: a troop type needing a rating defined as a table of nothing; figure scale with no bases")
def _():
    t = read("systems/louis-xiv.ron")
    t = re.sub(r'bases: \{[^}]*\}', 'bases: {}', t, count=1)
    write("systems/louis-xiv.ron", t)
    r = run("validate", "systems/louis-xiv.ron")
    p = sane(r)
    rt = run("table", S, "--system", "louis-xiv", "--out", "p.svg")
    p += sane(rt)
    if r.code == 0 and rt.code not in (0,):
        p.append("validate passes a system the table refuses: " + rt.all[-300:])
    return p

# ------------------------------------------------------------------ third batch: links out, systems
def victim():
    v = os.path.join(os.path.dirname(WORK), "victim.txt")
    with open(v, "w") as f:
        f.write("precious")
    return v

def link_out_case(args, link_rel):
    v = victim()
    os.makedirs(os.path.dirname(path(link_rel)), exist_ok=True)
    os.symlink(v, path(link_rel))
    r = run(*args)
    p = sane(r)
    if open(v).read() != "precious":
        p.append("the file outside the repository was replaced")
    return p

@case("outputs", "table", "--out a planted link to a file outside the repository")
def _():
    return link_out_case(["table", S, "--system", "age-of-honor", "--out", "plans/plan.svg"], "plans/plan.svg")

@case("outputs", "print", "--out a planted link to a file outside the repository")
def _():
    return link_out_case(["print", S, "--out", "plans/k.pdf"], "plans/k.pdf")

@case("outputs", "render", "--out through a planted folder link leading outside")
def _():
    v = victim()
    os.symlink(os.path.dirname(v), path("away"))
    r = run("render", M, "--out", "away/victim.txt")
    p = sane(r)
    if open(v).read() != "precious":
        p.append("the file outside the repository was replaced")
    return p

@case("outputs", "export --tiled", "--out a planted link to a file outside the repository")
def _():
    return link_out_case(["export", "--tiled", M, "--out", "plans/t.tmx"], "plans/t.tmx")

@case("rules", "validate", "system: a troop type needing an undefined rating; a base no figure scale sizes")
def _():
    edit("systems/age-of-honor.ron", 'needs: ["stands", "fire_type", "quality"]', 'needs: ["stands", "fire_kind", "quality"]', 1)
    edit("systems/age-of-honor.ron", 'base: "light", figures_per_base: 2', 'base: "skirmish", figures_per_base: 2', 1)
    r = run("validate", "--format", "json", "systems/age-of-honor.ron")
    p = sane(r)
    if r.code == 0:
        p.append("validate passes them")
    return p

@case("rules", "validate", "system: a national table line for a troop type that does not exist")
def _():
    edit("systems/louis-xiv.ron", '"light-horse": (ordered: 1, disordered: 1, morale: 5)', '"ghost-horse": (ordered: 1, disordered: 1, morale: 5)', 1)
    r = run("validate", "systems/louis-xiv.ron")
    p = sane(r)
    if r.code == 0:
        p.append("validate passes it")
    return p


# ------------------------------------------------------------------ fourth batch: documents the command does not read
def other_doc_case(args, protected):
    shutil.copy(path(S), path("scenarios/other.ron"))
    return outputs_case(args, protected)

@case("outputs", "render", "--out another battle's scenario (not read by the command)")
def _():
    return other_doc_case(["render", M, "--out", "scenarios/other.ron"], ["scenarios/other.ron"])

@case("outputs", "export --vassal", "--out a system file the scenario does not name")
def _():
    shutil.copy(path("systems/louis-xiv.ron"), path("systems/other.ron"))
    return outputs_case(["export", "--vassal", S, "--out", "systems/other.ron"], ["systems/other.ron"])

@case("outputs", "print", "--out a variant file print does not read")
def _():
    return outputs_case(["print", S, "--out", "scenarios/denain-1712-camp-renforce.ron"], ["scenarios/denain-1712-camp-renforce.ron"])

@case("outputs", "digitize", "--out an existing scenario (a map written over a scenario)")
def _():
    write("x.png", plain_png(100, 100), "wb")
    write("c.ron", CAL)
    write("s.ron", SAM)
    return other_doc_case(["digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "scenarios/other.ron"], ["scenarios/other.ron"])


if __name__ == "__main__":
    held = sum(1 for r in results if r[0])
    print(f"\n{held} held of {len(results)}")
    print(f"(every run's output: {LOG})")
