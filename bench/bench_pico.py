"""The game on the real MicroPython rp2 port in the RP2040 emulator rp2040js (testbed/picolab.py):
the frozen image and stock MicroPython with deploy's files, side by side: the heap while
playing and at a bare REPL, power-on to the title, the engine's and the coach's search.

How each figure is taken is in docs/benchmarks.md ("On a Pico: the project's lab"). The lab's
pieces here (a board, the game restarted with its heap measured, each import's cost) serve
bench_link.py too.

    PICO_FIRMWARE=<frozen .uf2/.bin> PICO_MICROPYTHON=<stock .uf2/.bin> \\
        .venv/bin/python bench/bench_pico.py
"""

import re
import sys

import benchkit
import layout
from benchkit import ROOT

sys.path.insert(0, str(ROOT / "host_tests"))
import goldens  # noqa: E402
import picolab  # noqa: E402
import picoplay  # noqa: E402
import picosetup  # noqa: E402

FIRMWARE_MODULES = [p.stem for p in layout.sources()] + ["board"]
# Drop the game's modules (the REPL's and the port's own stay) and what main.py left in the
# REPL's globals (its `startup`), then collect.
DROP = (
    "globals().clear()\nimport gc, sys\nfor _k in %r:\n    sys.modules.pop(_k, None)\n"
    "gc.collect()\n" % (FIRMWARE_MODULES,)
)
HEAP = "gc.collect()\nprint(gc.mem_alloc())\n"
SEARCH = """import time, engine
def _best(fn, *args):
    best = None
    for _ in range(5):
        t = time.ticks_us()
        fn(*args)
        d = time.ticks_diff(time.ticks_us(), t)
        best = d if best is None or d < best else best
    return best
_out = bytearray(9)
print(_best(engine.best_move, 0, engine.X), engine.last_nodes(),
      _best(engine.scores_into, _out, 0, engine.X), engine.last_nodes())
"""
MEASURE = """import runner, time
_step = runner.Runner.step
_last = [0]
def _measured(self, now):
    wait = _step(self, now)
    gc.collect()
    m = gc.mem_alloc()
    if m != _last[0]:
        _last[0] = m
        print("HEAP", time.ticks_ms(), m)
    return wait
runner.Runner.step = _measured
gc.collect()
print("BASE", gc.mem_alloc())
import main
"""
PER_MODULE = """for _name in %r:
    gc.collect()
    _before = gc.mem_alloc()
    __import__(_name)
    gc.collect()
    print(_name, gc.mem_alloc() - _before)
"""


def lab_kinds(name):
    """The firmwares the lab runs here ("frozen", "stock"); none, having said why, without it."""
    problem = picosetup.problem()
    if problem:
        print("%s: skipped: %s" % (name, problem))
        return []
    return [k for k, p in picosetup.firmwares().items() if p.is_file()]


def firmwares_line(kinds):
    """Which firmwares ran: a path within the checkout, or a file name and its size."""
    shown = []
    for kind in kinds:
        path = picosetup.firmwares()[kind]
        try:
            shown.append("%s %s" % (kind, path.resolve().relative_to(ROOT)))
        except ValueError:
            shown.append("%s %s (%d bytes)" % (kind, path.name, path.stat().st_size))
    return "Firmwares: " + "; ".join(shown)


def restart_measured(board, first=""):
    """Start the game again from the raw REPL as at power-on, its modules dropped (DROP), `first`
    run before it, with runner.Runner.step wrapped to print the heap after every step where it
    changed (MEASURE); where its output starts on the serial."""
    since = len(board.serial)
    board.enter_raw()
    board.send((DROP + first + MEASURE).encode() + b"\x04")
    return since


def span(heaps):
    return "%d-%d" % (min(heaps), max(heaps))


def heap_samples(board, since):
    """[(ms, heap)] as the measured game printed them from `since`: one where the heap changed."""
    text = board.serial[since:].decode("latin-1")
    return [(int(t), int(m)) for t, m in re.findall(r"HEAP (\d+) (\d+)", text)]


def during(samples, start, end):
    """The heap in force at each step from `start` to `end` (ms)."""
    before = [m for t, m in samples if t <= start]
    return ([before[-1]] if before else []) + [m for t, m in samples if start < t <= end]


def import_costs(board, names, first=()):
    """{module: bytes its import adds}, each of `names` in turn with gc.collect() around it,
    after importing `first`; the board at its REPL, the game dropped (DROP)."""
    script = DROP + ("for _name in %r:\n    __import__(_name)\n" % (first,) if first else "")
    lines = board.raw(script + PER_MODULE % (names,))[0].split("\n")
    return dict((n, int(b)) for n, b in (line.split() for line in lines if line.strip()))


def title_after(board, since):
    """ms from `since` to the golden title on the glass (None if it never shows)."""
    title = bytes(goldens.glass("screens/title"))
    frame = picoplay.wait_frame(board, 2000, lambda g: g == title, after=since)
    return None if frame is None else frame.t - since


def boots(board):
    """(first boot, later boot) ms to the title: from power-on, then after a setting was
    changed on the settings screen (the backlight, saved) and the power cycled."""
    first = title_after(board, 0.0)
    board.press("select", *["next"] * 4, "select")  # the menu's 5th row: Settings
    board.press("next")  # Contr, Light
    board.press("select", after=1000)  # the backlight off, saved in the next quiet gap
    board.power_on()
    later = title_after(board, board.resets[-1][0])
    return first, later


# The Coach setting on (and its words already shown), saved before the game starts again.
COACH_ON = (
    "import settings\n_s = settings.Settings.load()\n_s.set('coach', True)\n"
    "_s.set('coach_told', True)\n_s.save()\ndel _s\nsys.modules.pop('settings')\n"
)


def heap_while_playing(board, out, coach=False):
    """Play a game with the heap measured at every step (restart_measured) on a board stopped
    early (Ctrl-C as soon as its USB serial is up: main.py had not got far). Two players; with
    `coach`, one player against the CPU with the Coach on (its marks hide the cursor from
    picoplay, so the player takes whatever cell the cursor is on)."""
    board.interrupt(b"\x03\x03")
    out["stopped_at"] = board.t
    out["repl"] = int(board.raw(DROP + HEAP)[0])
    # What the stop left varies with how far the boot had got (stopped inside the board file's
    # build, 6 KB more after the drop than stopped in the game's loop), and it stayed under the
    # game's figures: the game is measured from a soft reset instead (docs/benchmarks.md).
    board.soft_reset()
    out["repl_runner"] = int(board.raw(DROP + "import runner\n" + HEAP)[0])
    since = restart_measured(board, COACH_ON if coach else "")
    board.run(600)  # the game starts again: the title
    if coach:
        board.press("select", "select")  # the menu, 1P vs CPU
        board.run(300)
        start = board.t
        for _ in range(4):
            board.press("select", ms=80, after=1500)
    else:
        board.press("select", "next", "select")  # the menu, 2 Players
        start = board.t
        for cell in (0, 1, 4, 2, 8):
            picoplay.play_cell(board, cell)
    end = board.t
    board.run(1500)
    out["base"] = int(re.search(r"BASE (\d+)", board.serial[since:].decode("latin-1")).group(1))
    samples = heap_samples(board, since)
    out["title"] = samples[0][1] if samples and samples[0][0] <= start else None
    out["playing"] = during(samples, start, end)


# The game's modules in the order a game loads them, then those loaded only now and then.
GAME_MODULES = (
    "valid power screen glyphs buttons pcd8544 hardware settings sound engine game widgets "
    "app play runner startup"
).split()
# pads: loaded by the board file at boot, let go with it (startup.main).
NOW_AND_THEN = (
    "pads title mainmenu menu setupmenu demo coach review smallfont rescue errorlog"
).split()


def measure(kind):
    out = {}
    with picolab.boot(kind, flash_timing=False) as board:
        out["boot_instant"] = boots(board)
    with picolab.boot(kind) as board:
        out["boot"] = boots(board)
        board.run(300)
        board.interrupt()
        out["search"] = [int(n) for n in board.raw(DROP + SEARCH)[0].split()]
        out["modules"] = import_costs(board, GAME_MODULES + NOW_AND_THEN)
    with picolab.boot(kind) as board:
        heap_while_playing(board, out)
    coach = {}
    with picolab.boot(kind) as board:
        heap_while_playing(board, coach, coach=True)
    out["coach"] = coach["playing"]
    out["coach_script"] = coach["base"] - coach["repl_runner"]
    return out


def bare_stock():
    """gc.mem_alloc() at the REPL of stock MicroPython on an empty filesystem."""
    with picolab.Board(picosetup.firmwares()["stock"]) as board:
        board.run(300)
        board.interrupt()
        return int(board.raw(HEAP.replace("gc.", "import gc\ngc.", 1))[0])


def ms(value):
    return "-" if value is None else "%.1f" % value


def main():
    kinds = lab_kinds("bench_pico")
    if not kinds:
        return 0
    results = {k: measure(k) for k in kinds}
    print(firmwares_line(kinds))
    print("rp2040js 1.4.1, simulated time at 125 MHz; heap in bytes, absolute.\n")
    row = benchkit.row
    benchkit.header("figure", *kinds)
    get = [results[k] for k in kinds]
    row("heap while playing (2P game, every step)", *[span(r["playing"]) for r in get])
    row("heap while playing with the Coach on (1P vs CPU)", *[span(r["coach"]) for r in get])
    row("of which the lab's wrapper and script", *["%d" % (r["base"] - r["repl_runner"])
        for r in get])  # fmt: skip
    # The Coach's game is set up by its script too (COACH_ON: the settings loaded and saved).
    row("of which, with the Coach on", *["%d" % r["coach_script"] for r in get])
    row("heap on the title (with the wrapper)", *["%s" % r["title"] for r in get])
    row("REPL after Ctrl-C at the USB's first ms, game dropped", *["%d (at %.0f ms)" % (
        r["repl"], r["stopped_at"]) for r in get])  # fmt: skip
    if "stock" in kinds:
        print("\nbare boot of stock MicroPython (empty filesystem, raw REPL): %d B" % bare_stock())
    print()
    row("power-on to the title, first boot, ms", *[
        "%s (%s)" % (ms(r["boot"][0]), ms(r["boot_instant"][0])) for r in get])  # fmt: skip
    row("power-on to the title, later boot (settings read), ms", *[
        "%s (%s)" % (ms(r["boot"][1]), ms(r["boot_instant"][1])) for r in get])  # fmt: skip
    row("engine.best_move, empty board, ms (nodes)", *[
        "%.2f (%d)" % (r["search"][0] / 1000, r["search"][1]) for r in get])  # fmt: skip
    row("coach: engine.scores_into, empty board, ms (nodes)", *[
        "%.2f (%d)" % (r["search"][2] / 1000, r["search"][3]) for r in get])  # fmt: skip
    print("\nWhere the heap goes: each module's import, in the order a game loads them (with "
          "gc.collect() around it; frozen: its globals, functions and classes; stock: its "
          "bytecode too), then the modules loaded only now and then; 0: already loaded by one "
          "above, which carries its cost.\n")  # fmt: skip
    benchkit.header("module, bytes", *kinds)
    for name in GAME_MODULES + ["(a game's modules)"] + NOW_AND_THEN:
        if name.startswith("("):
            row(name, *["%d" % sum(r["modules"][m] for m in GAME_MODULES) for r in get])
        else:
            row(name, *["%d" % r["modules"][name] for r in get])
    return 0


if __name__ == "__main__":
    sys.exit(main())
