"""What the hostile rounds' replays share (issue 19): a club's repository (Denain: scenario,
map, variants, both systems, copied from this repository) copied fresh for each case, the
binary run under `timeout` and `ulimit -v`, the checks every run must pass (the 0/1/2
contract, no raw control on a terminal, well-formed XML) and the tally. Imported by
round2.py and round3.py.
"""
import os, re, shutil, subprocess, sys, json, zipfile, struct, zlib, time, xml.dom.minidom

import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
B = os.environ.get("BATAILLE", os.path.join(REPO, "target", "debug", "bataille"))
SCRATCH = tempfile.mkdtemp(prefix="bataille-hostile-")
BASE = os.path.join(SCRATCH, "base")
WORK = os.path.join(SCRATCH, "work", "repo")
LOG = os.path.join(SCRATCH, "log.txt")
for sub in [".git", "scenarios", "maps", "systems"]:
    os.makedirs(os.path.join(BASE, sub), exist_ok=True)
for rel in ["scenarios/denain-1712.ron", "scenarios/denain-1712-tingry-tard.ron",
            "scenarios/denain-1712-camp-renforce.ron", "maps/denain-1712.ron",
            "systems/age-of-honor.ron", "systems/louis-xiv.ron"]:
    shutil.copy(os.path.join(REPO, rel), os.path.join(BASE, rel))
LIMIT_KB = 3_000_000  # address space a run gets
TIMEOUT = 30

results = []

def fresh():
    if os.path.exists(WORK):
        shutil.rmtree(WORK)
    shutil.copytree(BASE, WORK, symlinks=True)
    os.makedirs(WORK + "/../outside", exist_ok=True)
    with open(os.path.join(os.path.dirname(WORK), "outside/secret.ron"), "w") as f:
        f.write("Map(SECRET_TOKEN_42)\n")
    return WORK

def path(rel):
    return os.path.join(WORK, rel)

def read(rel, mode="r"):
    with open(path(rel), mode) as f:
        return f.read()

def write(rel, text, mode="w"):
    p = path(rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, mode) as f:
        f.write(text)

def edit(rel, old, new, count=1):
    text = read(rel)
    assert old in text, (rel, old)
    write(rel, text.replace(old, new, count))

class Run:
    def __init__(self, args, code, out, err, timed_out):
        self.args, self.code, self.out, self.err, self.timed_out = args, code, out, err, timed_out
    @property
    def all(self):
        return self.out + self.err

def run(*args, shell_tail="", stdin=None, limit=LIMIT_KB, timeout=TIMEOUT):
    quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in args)
    script = f"ulimit -v {limit}; exec timeout -s KILL {timeout} {B} {quoted} {shell_tail}"
    p = subprocess.run(["bash", "-c", script], cwd=WORK, capture_output=True)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    with open(LOG, "a") as log:
        log.write(f"\n=== {args!r} -> {p.returncode}\n{(out + err)[-1500:]}\n")
    return Run(args, p.returncode, out, err, p.returncode in (137, -9))

def sane(r):
    """Exit within the 0/1/2 contract, no panic, no abort, no hang."""
    problems = []
    if r.timed_out:
        problems.append("timed out / killed")
    if r.code not in (0, 1, 2):
        problems.append(f"exit {r.code}")
    if "panicked" in r.all or "memory allocation" in r.all or "RUST_BACKTRACE" in r.all:
        problems.append("panic/abort: " + r.all[-300:])
    return problems

RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

def raw_controls(r):
    text = r.out + r.err
    found = RAW.findall(text)
    return [f"raw {repr(c)} reached the terminal" for c in found][:1]

def well_formed_xml(data, what):
    try:
        dom = xml.dom.minidom.parseString(data)
    except Exception as e:  # noqa
        return [f"{what} not well-formed: {e}"]
    if dom.getElementsByTagName("script") or dom.getElementsByTagName("svg:script"):
        return [f"{what} holds a <script>"]
    return []

ONLY = os.environ.get("ONLY")  # run only the cases whose description holds this text


def case(cls, surface, what):
    def wrap(f):
        if ONLY and ONLY not in what:
            return f
        fresh()
        try:
            problems = f()
        except AssertionError as e:
            problems = [f"harness: {e}"]
        except Exception as e:  # noqa
            problems = [f"harness error: {type(e).__name__}: {e}"]
        held = not problems
        results.append((held, cls, surface, what, problems))
        print(("HELD " if held else "HOLE ") + f"[{cls}] [{surface}] {what}" + ("" if held else "\n      " + "; ".join(problems)[:600]), flush=True)
        return f
    return wrap

S = "scenarios/denain-1712.ron"
M = "maps/denain-1712.ron"
UNIT = '(id: "fr-gardes-francaises", name: "Gardes françaises"'

def unit_name(name):
    edit(S, UNIT, '(id: "fr-gardes-francaises", name: ' + json.dumps(name, ensure_ascii=False))

def vmod_xml():
    z = zipfile.ZipFile(path("out.vmod"))
    return z.read("buildFile.xml")


# ------------------------------------------------------------------ digitize (rounds 4 and 5)
CAL = 'Calibration(grid: (orientation: Flat, shifted: Odd, first_column: 1, first_row: 1, columns: 4, rows: 4, hex_names: (column_digits: 2, row_digits: 2)), fit: Affine, points: [(hex: "0101", x: 10.0, y: 10.0), (hex: "0401", x: 70.0, y: 20.0), (hex: "0104", x: 10.0, y: 70.0), (hex: "0404", x: 70.0, y: 80.0)])'
SAM = 'Samples(terrain: {"c": (name: "Clear", colour: "#ffffff")}, samples: {"c": ["0101"]})'


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)


def plain_png(w=100, h=100, extra=b""):
    raw = b"".join(b"\x00" + bytes([200, 180, 140]) * w for _ in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")


def digitize(scan="x.png", cal=CAL, sam=SAM, *extra, timeout=TIMEOUT):
    if cal is not None:
        write("c.ron", cal)
    if sam is not None:
        write("s.ron", sam)
    if os.path.exists(path("dm.ron")):
        os.remove(path("dm.ron"))
    return run("digitize", scan, "--calibration", "c.ron", "--samples", "s.ron", "--out", "dm.ron", *extra, timeout=timeout)


# ------------------------------------------------------------------ the editor (its real binary)
# The editor opens a stranger's file as a volunteer would (`bataille-editor FILE`) on a virtual
# display, with its own settings and recovery folders; it must still be running, without a
# panic, after the time it is given (a crash, an abort or running out of memory ends it early).
EDITOR = os.environ.get("BATAILLE_EDITOR", os.path.join(REPO, "target", "debug", "bataille-editor"))
DISPLAY = os.environ.get("HOSTILE_DISPLAY", ":47")
HAVE_DISPLAY = subprocess.run(["xdpyinfo", "-display", DISPLAY], capture_output=True).returncode == 0 if shutil.which("xdpyinfo") else os.path.exists(f"/tmp/.X11-unix/X{DISPLAY.lstrip(':')}")


def editor(file, seconds=20, limit=8_000_000, keys=None, rss_mb=None):
    """The editor on `file` for `seconds` (after `keys`: xdotool commands run once it is up);
    problems if it ended early, panicked, or (with `rss_mb`) grew past that many MB."""
    if not HAVE_DISPLAY:
        return [f"harness: no display {DISPLAY} (start `Xvfb {DISPLAY}`)"]
    config, cache = os.path.join(WORK, "../xdg-config"), os.path.join(WORK, "../xdg-cache")
    os.makedirs(config, exist_ok=True)
    os.makedirs(cache, exist_ok=True)
    env = dict(os.environ, DISPLAY=DISPLAY, XDG_CONFIG_HOME=os.path.abspath(config), XDG_CACHE_HOME=os.path.abspath(cache))
    quoted = "'" + file.replace("'", "'\\''") + "'" if file else ""
    q = subprocess.Popen(["bash", "-c", f"ulimit -v {limit}; exec timeout -s KILL {seconds} {EDITOR} {quoted}"],
                         cwd=WORK, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak = 0
    if keys:
        time.sleep(min(8, seconds / 2))
        for k in keys:
            subprocess.run(["xdotool"] + k, env=env, capture_output=True)
            time.sleep(0.5)
    while q.poll() is None:
        peak = max(peak, rss_tree(q.pid))
        time.sleep(0.5)
    err = q.stderr.read().decode("utf-8", "replace")
    with open(LOG, "a") as log:
        log.write(f"\n=== editor {file!r} -> {q.returncode} peak {peak} MB\n{err[-1500:]}\n")
    problems = []
    if q.returncode not in (137, -9):
        problems.append(f"the editor ended early: exit {q.returncode}: {err[-300:]}")
    if "panicked" in err or "memory allocation" in err:
        problems.append("panic/abort: " + err[-300:])
    if rss_mb and peak > rss_mb:
        problems.append(f"the editor grew to {peak} MB (more than {rss_mb})")
    return problems


def rss_tree(pid):
    """The resident MB of a process and its descendants (`timeout` runs the editor as a child)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                total += next((int(l.split()[1]) for l in f if l.startswith("VmRSS:")), 0)
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return total // 1024


def xdg(rel, text, mode="w"):
    write("../" + rel, text, mode)
