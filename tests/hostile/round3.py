#!/usr/bin/env python3
"""The third round of hostile inputs (issue 19) against the real bataille binary.

Each case: a fresh copy of a club's repository (Denain: scenario, map, variants, both systems,
copied from this repository), a mutation, one or more runs under `timeout` and `ulimit -v`,
and a check of what must hold. Prints one line per case (HELD / HOLE, class, surface, what)
and the tally. Run from the repository after `cargo build -p bataille`:

    python3 tests/hostile/round3.py            # the cases (a few minutes)
    python3 tests/hostile/round3.py --sweeps   # and the sweeps (about an hour on a loaded machine)
    BATAILLE=/path/to/bataille python3 tests/hostile/round3.py

The sweeps set every numeric field of the scenario, map, system and variant to extreme values
(u32/i32/f64 limits, 0, -0, 2^53 + 1), every string field to hostile text (markup, CDATA,
{NEXT} and $…$, workflow commands, line feeds, bidi and zero-width characters, 190 combining
marks, backslashes) and every reference to an unknown name, then run validate (human, JSON,
SARIF, GitHub), render, print, both exports, table and the variant's print, checking the
0/1/2 contract, well-formed XML, JSON, no forged terminal or workflow line, no raw control on
a terminal, no NaN in a plan, and (for references) no cascade. The end-to-end tests that keep
each class from coming back are tests/hostile_round3.rs and
digitize/tests/metadata_bombs.rs.
"""
import os, re, shutil, subprocess, sys, json, zipfile, struct, zlib, xml.dom.minidom

import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club import *  # noqa: F401,F403 (the shared club, runner and checks)


import sys
SWEEPS = "--sweeps" in sys.argv

def counts():
    held = sum(1 for r in results if r[0])
    return held, len(results)

CAL = 'Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: "0101", x: 10.0, y: 10.0), (hex: "0401", x: 70.0, y: 20.0), (hex: "0104", x: 10.0, y: 70.0), (hex: "0404", x: 70.0, y: 80.0)])'
SAM = 'Samples(terrain: {"c": (name: "Clear", colour: "#ffffff")}, samples: {"c": ["0101"]})'

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

def plain_png(w=100, h=100):
    raw = b"".join(b"\x00" + bytes([200, 180, 140]) * w for _ in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")

def with_background(image):
    edit(M, '    grid:', f'    background: (image: "{image}", fit: Affine, grid_to_image: (10.0, 0.0, 5.0, 0.0, 10.0, 5.0, 0.0, 0.0, 1.0)),\n    grid:')

def json_diagnostics(*paths):
    r = run("validate", "--format", "json", *paths)
    return json.loads(r.out), r

# ------------------------------------------------------------------ terminal
@case("terminal", "table", "a system's name holding a line feed and a forged `error:` line")
def _():
    edit("systems/age-of-honor.ron", 'name: "Age of Honor"', 'name: "Age\\nerror: FORGED"')
    r = run("table", S, "--system", "age-of-honor", "--figures", "15mm", "--out", "p.svg")
    return sane(r) + [f"forged line: {l}" for l in r.all.splitlines() if l.startswith("error: FORGED")]

@case("terminal", "fmt --check / print / export", "file and --out names holding a line feed")
def _():
    odd = "scenarios/odd\nerror: FORGED.ron"
    write(odd, read(S).replace("    turns: 10", "turns: 10", 1))
    p = []
    for r in [run("fmt", "--check", odd), run("print", S, "--out", "k\nerror: FORGED.pdf"),
              run("export", "--vassal", S, "--out", "m\nerror: FORGED.vmod"), run("validate", odd)]:
        p += sane(r) + [f"forged line: {l}" for l in r.all.splitlines() if l.startswith("error: FORGED")]
    return p

@case("terminal", "validate", "a CRLF file: no \\u{d} at the end of every shown line")
def _():
    write(S, read(S).replace("turns: 10,", "turns: 0,").replace("\n", "\r\n"))
    r = run("validate", S)
    return sane(r) + (["\\u{d} shown on every line"] if "\\u{d}" in r.out else [])

@case("terminal", "validate", "a file with lone CR line endings (old Mac): located")
def _():
    write(S, read(S).replace("turns: 10,", "turns: 0,").replace("\n", "\r"))
    r = run("validate", S)
    return sane(r) + ([] if re.search(r"denain-1712.ron:\d+:\d+", r.all) else ["no location"])

@case("terminal", "every option parsed by the command", "values holding OSC/CSI/C1 escapes")
def _():
    e = "\x1b]0;pwn\x07\x1b[2J\u009b31m"
    p = []
    for args in [["table", S, "--system", e, "--figures", "15mm", "--out", "p.svg"],
                 ["table", S, "--system", "age-of-honor", "--figures", e, "--out", "p.svg"],
                 ["table", S, "--system", "age-of-honor", "--figures", "15mm", "--table", e, "--out", "p.svg"],
                 ["table", S, "--system", "age-of-honor", "--figures", "15mm", "--turn", e, "--out", "p.svg"],
                 ["print", S, "--paper", e, "--out", "k.pdf"], ["print", S, "--hex", e, "--out", "k.pdf"],
                 ["print", S, "--counter", e, "--out", "k.pdf"], ["render", S, "--scale", e, "--out", "r.png"],
                 ["validate", "--format", e, S], ["validate", "--allow", e, S],
                 ["export", "--vassal", S, "--out", "x." + e], ["render", S, "--out", "r." + e]]:
        r = run(*args)
        p += sane(r) + raw_controls(r)
    return p

# ------------------------------------------------------------------ cascades
@case("cascade", "validate", "turns: 0: one E0105, not an E0508 per reinforcement")
def _():
    edit(S, "turns: 10,", "turns: 0,")
    d, r = json_diagnostics(S)
    return sane(r) + ([f"{sum(1 for x in d if x['code'] == 'E0508')} E0508 after the E0105"] if any(x['code'] == 'E0508' for x in d) else [])

@case("cascade", "validate", "hex names of 0 digits: one E0105, not every hex off the map")
def _():
    edit(M, "column_digits: 2", "column_digits: 0")
    d, r = json_diagnostics(S)
    return sane(r) + ([f"{len(d)} diagnostics"] if len(d) > 2 else [])

@case("cascade", "validate", "a placement's `at` that is no hex name: E0105 and E0503 on the same value")
def _():
    edit(S, 'at: "1608"', 'at: "nope-x"')
    d, r = json_diagnostics(S)
    codes = sorted(x["code"] for x in d if x["code"] != "W0801")
    return sane(r) + ([f"the same value reported twice: {codes}"] if len(codes) > 1 else [])

@case("cascade", "validate", "an empty background.image: E0105 and E0210 on the same value")
def _():
    with_background("")
    d, r = json_diagnostics(M)
    codes = sorted(x["code"] for x in d)
    return sane(r) + ([f"the same value reported twice: {codes}"] if len(codes) > 1 else [])

@case("cascade", "validate", "an army renamed: a conversion naming it (E0206) then every unit it converts (E1002)")
def _():
    edit(S, 'id: "french"', 'id: "nope-x"')
    d, r = json_diagnostics(S)
    n = sum(1 for x in d if x["code"] == "E1002")
    return sane(r) + ([f"{n} E1002 after the conversion's E0206"] if n else [])

@case("cascade", "validate", "a variant whose base is another variant, itself, a map, a system: E1104 once")
def _():
    p = []
    for base in ["denain-1712-tingry-tard.ron", "v2.ron", "../maps/denain-1712.ron", "../systems/louis-xiv.ron"]:
        write("scenarios/v2.ron", read("scenarios/denain-1712-tingry-tard.ron").replace('base: "denain-1712.ron"', f'base: "{base}"'))
        d, r = json_diagnostics("scenarios/v2.ron")
        codes = [x["code"] for x in d]
        p += sane(r) + ([] if codes == ["E1104"] else [f"{base}: {codes}"])
    return p

# ------------------------------------------------------------------ outside / references
@case("outside", "validate", "map: and variant base: through `link/..` where link leads outside")
def _():
    os.makedirs(os.path.join(WORK, "../outside/sub"), exist_ok=True)
    os.symlink(os.path.abspath(os.path.join(WORK, "../outside/sub")), path("scenarios/link"))
    edit(S, 'map: "../maps/denain-1712.ron"', 'map: "link/../secret.ron"')
    edit("scenarios/denain-1712-tingry-tard.ron", 'base: "denain-1712.ron"', 'base: "link/../secret.ron"')
    p = []
    for f in [S, "scenarios/denain-1712-tingry-tard.ron"]:
        r = run("validate", f)
        p += sane(r) + (["secret quoted"] if "SECRET_TOKEN" in r.all else []) + ([] if r.code == 1 else ["not refused"])
    return p

@case("outside", "validate / export", "background.image naming the map itself, a system, a folder, nothing")
def _():
    p = []
    for image in ["denain-1712.ron", "../systems/louis-xiv.ron", ".", ""]:
        fresh()
        with_background(image)
        d, r = json_diagnostics(M)
        # Refused by E0210, or (an empty name) by the schema's E0105 at the same place, which
        # the report gives alone (one mistake, one report).
        refused = any(x["code"] == "E0210" or (x["code"] == "E0105" and x.get("pointer") == "/background/image") for x in d)
        p += sane(r) + ([] if refused else [f"{image!r}: not refused (E0210 or E0105)"])
        e = run("export", "--vassal", S, "--out", "m.vmod")
        p += sane(e) + ([f"{image!r}: exported"] if e.code == 0 else [])
    return p

# ------------------------------------------------------------------ rules files (digitize's legend)
@case("rules", "digitize", "a samples legend with ESC in a name, markup for a colour, a 300-character name")
def _():
    write("x.png", plain_png(), "wb")
    write("c.ron", CAL)
    p = []
    for samples in ['Samples(terrain: {"c": (name: "Cl\\u{1b}[2Jear", colour: "#ffffff")}, samples: {"c": ["0101"]})',
                    'Samples(terrain: {"c": (name: "Clear", colour: "\\"/><script>x</script>")}, samples: {"c": ["0101"]})',
                    'Samples(name: "' + "x" * 300 + '", terrain: {"c": (name: "Clear", colour: "#ffffff")}, samples: {"c": ["0101"]})']:
        write("s.ron", samples)
        if os.path.exists(path("dm.ron")):
            os.remove(path("dm.ron"))
        r = run("digitize", "x.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron")
        p += sane(r) + (["a map written"] if os.path.exists(path("dm.ron")) else []) + ([] if "s.ron:1:" in r.all else ["not located in s.ron"])
    return p

@case("rules", "digitize", "a scan whose file name holds ESC: not the map's name")
def _():
    write("sc\x1b[2Jan.png", plain_png(), "wb")
    write("c.ron", CAL)
    write("s.ron", SAM)
    r = run("digitize", "sc\x1b[2Jan.png", "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron")
    p = sane(r) + raw_controls(r)
    if os.path.exists(path("dm.ron")):
        v = run("validate", "dm.ron")
        p += [] if v.code == 0 else ["digitize wrote a map validate refuses"]
    return p

# ------------------------------------------------------------------ parse
@case("parse", "validate", "1,000,000 and 2,000,000 nested brackets, tuples, Some( and maps")
def _():
    p = []
    t = read(S)
    for n in [1000000, 2000000]:
        for name, opening, closing in [("list", "[", "]"), ("tuple", "(", ")"), ("some", "Some(", ")"), ("map", "{1:", "}")]:
            write("scenarios/deep.ron", t.replace("turns: 10,", "turns: 10, extra: " + opening * n + ("1" if name in ("some", "map") else "") + closing * n + ",", 1))
            r = run("validate", "scenarios/deep.ron")
            p += sane(r) + ([] if r.code == 1 else [f"{name} {n}: exit {r.code}"])
    return p

@case("messages", "validate", "a value fitting no form of an optional field is described in words")
def _():
    edit(S, 'at: "1608"', 'at: "nope-x"')
    r = run("validate", S)
    return sane(r) + (["a debug dump in the message"] if "ValidationError" in r.all else [])

# ------------------------------------------------------------------ outputs
@case("outputs", "fmt / print", "an output of a legal 255-byte name (the temporary went past 255)")
def _():
    long = "scenarios/" + "k" * 251 + ".ron"
    write(long, read(S).replace("    turns: 10", "turns: 10", 1))
    p = []
    for r in [run("fmt", long), run("print", S, "--out", "k" * 251 + ".pdf")]:
        p += sane(r) + ([] if r.code == 0 else [f"{r.args[0]}: exit {r.code}: {r.all[-160:]}"])
    return p

@case("outputs", "print", "an output in a folder that does not exist: said so, without the temporary's name")
def _():
    r = run("print", S, "--out", "missing/dir/k.pdf")
    return sane(r) + ([".tmp in the message"] if ".tmp" in r.all else [])

@case("outputs", "render/print/export/table", "--out naming the map's own scan (not read by the command)")
def _():
    write("maps/scan.png", plain_png(64, 64), "wb")
    with_background("scan.png")
    before = read("maps/scan.png", "rb")
    p = []
    for args in [["render", S], ["print", S], ["export", "--vassal", S], ["export", "--tiled", S], ["render", M]]:
        r = run(*args, "--out", "maps/scan.png")
        p += sane(r) + ([] if read("maps/scan.png", "rb") == before else [f"{args}: the scan replaced"])
    return p

@case("outputs", "export --vassal / render", "--out a character device and a FIFO inside the repository")
def _():
    os.mkfifo(path("ff"))
    p = []
    r = run("render", S, "--out", "ff")
    p += sane(r) + ([] if r.code == 2 else ["FIFO written"])
    try:
        os.mknod(path("nulldev"), 0o644 | 0o020000, os.makedev(1, 3))
        r = run("export", "--vassal", S, "--out", "nulldev")
        p += sane(r) + ([] if r.code == 2 else ["device replaced"])
    except PermissionError:
        pass
    return p

@case("outputs", "validate/export --json/schema", "standard output is /dev/full: an error, exit 2, no panic")
def _():
    p = []
    for args in [["validate", S], ["validate", "--format", "sarif", S], ["export", "--json", S], ["schema"]]:
        r = run(*args, shell_tail="> /dev/full")
        p += sane(r) + ([] if r.code == 2 else [f"{args}: exit {r.code}"])
    return p

@case("outputs", "export --vassal", "four runs at once writing the same module: one whole module, no temporary left")
def _():
    procs = [subprocess.Popen([B, "export", "--vassal", S, "--out", "same.vmod"], cwd=WORK, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(4)]
    for pr in procs:
        pr.wait(timeout=120)
    p = []
    try:
        if zipfile.ZipFile(path("same.vmod")).testzip() is not None:
            p.append("a broken module")
    except Exception as e:  # noqa
        p.append(f"not a zip: {e}")
    return p + [f"temporary left: {f}" for f in os.listdir(WORK) if f.endswith(".tmp")]

@case("unbounded", "export --vassal", "300 variants of 1.4 KB beside the scenario: linear, memory bounded")
def _():
    v = read("scenarios/denain-1712-tingry-tard.ron")
    for i in range(300):
        write(f"scenarios/v{i}.ron", v.replace('name: "Tingry sort trop tard"', f'name: "V{i}"'))
    r = run("export", "--vassal", S, "--out", "m.vmod", timeout=600)
    return sane(r)

@case("unbounded", "print / export / render", "a 999 × 999 map (the grid limit)")
def _():
    rows = "".join('        "%s",\n' % ("." * 999) for _ in range(999))
    write("maps/big.ron", 'Map(\n    format_version: 1,\n    name: "Big",\n    grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 999, rows: 999, hex_names: (column_digits: 3, row_digits: 3)),\n    terrain: {".": (name: "Clear", colour: "#e8e2c4")},\n    rows: [\n' + rows + '    ],\n)\n')
    p = []
    for args in [["render", "maps/big.ron", "--out", "r.png"], ["export", "--tiled", "maps/big.ron", "--out", "t.tmx"]]:
        p += sane(run(*args, timeout=120))
    return p

@case("outputs", "schema --out", "a folder through a link leading outside: nothing made there")
def _():
    elsewhere = os.path.join(WORK, "../elsewhere")
    os.makedirs(elsewhere, exist_ok=True)
    os.symlink(os.path.abspath(elsewhere), path("schemas"))
    r = run("schema", "--out", "schemas/a/b")
    return sane(r) + ([f"made outside: {os.listdir(elsewhere)}"] if os.listdir(elsewhere) else [])

@case("markup", "validate --format sarif", "a file name that is not UTF-8: named by its bytes")
def _():
    name = os.path.join(WORK.encode(), b"scenarios/bad\xff\xfe.ron")
    with open(name, "wb") as f:
        f.write(read(S).replace("turns: 10,", "turns: 0,").encode())
    p = subprocess.run([B, "validate", "--format", "sarif", b"scenarios/bad\xff\xfe.ron"], cwd=WORK, capture_output=True)
    uri = json.loads(p.stdout)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    return [] if uri == "scenarios/bad%FF%FE.ron" else [f"uri {uri}"]

@case("unbounded", "every command", "one hex listed 400,000 times in a zone, one overlay 400,000 times in a hex")
def _():
    edit(S, 'hexes: ["1312", "1313"', 'hexes: ["1312", ' + '"1313", ' * 400000 + '"1313"')
    p = []
    for args in [["validate", S], ["print", S, "--out", "k.pdf"], ["export", "--vassal", S, "--out", "m.vmod"]]:
        r = run(*args, timeout=60)
        p += sane(r) + ([] if r.code == 1 else [f"{args[0]}: exit {r.code}"])
    fresh()
    edit(M, '"0110": ["route"]', '"0110": [' + '"route", ' * 400000 + '"route"]')
    r = run("print", S, "--out", "k.pdf", timeout=60)
    return p + sane(r) + ([] if r.code == 1 else [f"print: exit {r.code}"])

@case("unbounded", "validate", "40,000 zones of one corps on one hex")
def _():
    zones = "".join(f'        (id: "z{i}", name: "Z", owner: Corps("fr-aile-droite"), hexes: ["1313"]),\n' for i in range(40000))
    edit(S, "    zones: [\n", "    zones: [\n" + zones)
    return sane(run("validate", S, timeout=60))

# ------------------------------------------------------------------ sweeps
def sweep_keys(rel, pattern):
    return sorted(set(re.findall(pattern, open(os.path.join(BASE, rel)).read())))

SWEPT = {"s": S, "m": M, "a": "systems/age-of-honor.ron", "v": "scenarios/denain-1712-tingry-tard.ron"}

def every_command(rel):
    v = run("validate", S, rel)
    rs = [v]
    if v.code == 0:
        rs += [run("render", S, "--out", "r.png"), run("print", S, "--out", "k.pdf"),
               run("export", "--vassal", S, "--out", "out.vmod"), run("export", "--tiled", S, "--out", "t.tmx"),
               run("table", S, "--system", "age-of-honor", "--figures", "15mm", "--table", "60x60cm", "--out", "p.svg", "--roster", "r.svg"),
               run("export", "--json", rel), run("print", "scenarios/denain-1712-tingry-tard.ron", "--out", "kv.pdf")]
    return rs

def outputs_well_formed():
    p = []
    for f in ["p.svg", "r.svg", "t.tmx"] + [x for x in os.listdir(WORK) if x.endswith(".tsx")]:
        if os.path.exists(path(f)):
            p += well_formed_xml(read(f, "rb"), f)
            if f.endswith(".svg") and re.search(rb'="[^"]*\b(NaN|inf)\b', read(f, "rb")):
                p.append(f"{f}: NaN or inf in an attribute")
    if os.path.exists(path("out.vmod")):
        z = zipfile.ZipFile(path("out.vmod"))
        for n in ("buildFile.xml", "moduledata"):
            p += well_formed_xml(z.read(n), n)
    return p

if SWEEPS:
    for rel in SWEPT.values():
        for key in sweep_keys(rel, r'\b([a-z_]+): -?[0-9]'):
            for val in ['4294967295', '-2147483648', '1e308', '-1e-308', '0', '18446744073709551616', '-0.0', '9007199254740993']:
                for every in (False, True):
                    @case("numbers", f"{rel}:{key}", f"{'every' if every else 'first'} {key}: {val}")
                    def _():
                        pat = re.compile(r'\b(' + key + r'): -?[0-9][0-9.e+-]*')
                        write(rel, pat.sub(lambda m: m.group(1) + ': ' + val, read(rel), count=0 if every else 1))
                        p = []
                        for r in every_command(rel):
                            p += sane(r)
                        return p + outputs_well_formed()
    HOSTILE = [('markup', '\\"/><script>alert(1)</script><x a=\\"'),
               ('cdata', ']]><!-- <!DOCTYPE x [<!ENTITY e SYSTEM \\"file:///etc/passwd\\">]> &e; &amp;'),
               ('tiled-vassal', '{NEXT} $PlayerName$ %s %n {0} ${x}'),
               ('github', 'a%0A::error file=x.ron,line=1::FORGED%25 ,:'),
               ('newline', 'a\\nerror: FORGED-LINE\\r\\tb'),
               ('bidi', 'a\u202egnp.exe\u202c\u200d\u2028\u00ad\u061c'),
               ('combining', 'Z' + '\u0301' * 190),
               ('backslash', 'C:\\\\x\\\\..\\\\..\\\\y \\\\u{1b}')]
    for rel in SWEPT.values():
        for key in sweep_keys(rel, r'\b([a-z_]+): "'):
            if key in {'map', 'file', 'base', 'image', 'format_version'}:
                continue
            for hname, val in HOSTILE:
                @case("strings", f"{rel}:{key}", f"{key} = {hname}")
                def _():
                    pat = re.compile(r'\b(' + key + r'): "(?:[^"\\]|\\.)*"')
                    write(rel, pat.sub(lambda m: m.group(1) + ': "' + val + '"', read(rel), count=1))
                    p = []
                    for fmt in ("json", "sarif"):
                        r = run("validate", "--format", fmt, S, rel)
                        p += sane(r) + raw_controls(r)
                        try:
                            json.loads(r.out)
                        except Exception as e:  # noqa
                            p.append(f"{fmt} not JSON: {e}")
                    g = run("validate", "--format", "github", S, rel)
                    p += sane(g) + [f"github: {l[:80]}" for l in g.out.splitlines() if not l.startswith("::")]
                    for r in every_command(rel):
                        p += sane(r) + raw_controls(r) + [f"forged: {l}" for l in r.all.splitlines() if l.startswith("error: FORGED")]
                    return p + outputs_well_formed()
    fresh()
    base_count = len(json_diagnostics(S)[0])
    for key in sweep_keys(S, r'\b([a-z_]+): "'):
        if key in {'name', 'title', 'notes', 'map', 'date', 'start_time', 'language', 'file', 'source', 'description'}:
            continue
        @case("cascade", f"{S}:{key}", f"the first {key} names nothing")
        def _():
            t = read(S)
            m = re.search(r'\b' + key + r': "[^"]*"', t)
            write(S, t[:m.start()] + key + ': "nope-x"' + t[m.end():])
            d, r = json_diagnostics(S)
            new = len(d) - base_count
            return sane(r) + ([f"+{new}: " + str(sorted(set(x['code'] for x in d)))] if new > 2 else [])

if __name__ == "__main__":
    held, total = counts()
    print(f"\n{held} held of {total}")
    print(f"(every run's output: {LOG})")
