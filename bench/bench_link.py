"""Link play on the real MicroPython rp2 port, two emulated Picos joined by their UART0s
(testbed/picopair.py on the lab of make test-pico): the time from a press on one board to the
frame on the other, and what link play costs on the heap while playing, frozen and stock.

How each figure is taken is in docs/benchmarks.md ("Link play on two emulated Picos"); the heap
is measured as bench_pico.py measures it, with its pieces.

    PICO_FIRMWARE=<frozen .uf2/.bin> PICO_MICROPYTHON=<stock .uf2/.bin> \\
        .venv/bin/python bench/bench_link.py
"""

import statistics
import sys

import bench_pico
import benchkit
from bench_pico import during, span
from benchkit import ROOT

sys.path.insert(0, str(ROOT / "host_tests"))
import picolab  # noqa: E402
import picopair  # noqa: E402
import picoplay  # noqa: E402

CELLS = (4, 0, 2, 6, 3, 5, 1, 7, 8)  # a drawn game: no winning line blinks over a mark
# The relay's slice here: one character's time at 115200 baud (10 bits), so a byte is at most
# its own length late (the tests' 2 ms moved the figure by a poll: docs/benchmarks.md).
SLICE_MS = 10 * 1000 / 115200
TAP_MS = 80  # how long SELECT is held for a move: picoplay.play_cell's tap
# Imported after a game's modules (bench_pico.GAME_MODULES), in the order link play loads
# them: its screen's own and the review's code it hosts, then the screen.
LINK_MODULES = "linkwire linkgame review linkplay".split()


def other(name):
    return "b" if name == "a" else "a"


def _move(pair, mover, cell, mark):
    """Play `cell` on board `mover`: (press, release, first TX byte, mover's frame, other's
    frame) in ms, the frames the first showing `mark` there (None: none within a second)."""
    board = pair.boards[mover]
    picoplay.wait_frame(board, 1000, lambda g: picoplay.cursor(g) >= 0)
    for _ in range(9):
        if picoplay.cursor(picoplay.glass(board)) == cell:
            break
        board.press("next", ms=80, after=60)
    sent = len(pair.traffic[mover])
    press = board.t
    board.press("select", ms=TAP_MS, after=0)
    release = board.t

    def shows(g):
        return picoplay.cell(g, cell) == mark

    there = picoplay.wait_frame(pair.boards[other(mover)], 1000, shows, after=press)
    pair.run(50)
    here = next((f for f in board.frames if f.t > press and shows(f.glass)), None)
    tx = next((t for t, _ in pair.traffic[mover][sent:] if t >= release), None)
    return press, release, tx, here and here.t, there and there.t


def latency(kind):
    """[(press, release, tx, mover's frame, other's frame)] ms, one a move of a drawn game."""
    with picopair.Pair(picolab.boot(kind), picolab.boot(kind), SLICE_MS) as pair:
        pair.run(800)
        x = picoplay.join(pair)
        return [
            _move(pair, (x, other(x))[k % 2], cell, "XO"[k % 2]) for k, cell in enumerate(CELLS)
        ]


def link_heap(kind):
    """Board a's heap at each step (bench_pico's measure) from its first move in a link game to
    the result, and then from the first move to the result of a two-player game begun from the
    menu (a hold of NEXT leaves link play): {"link": [...], "after": [...]}."""
    a = picolab.boot(kind)
    a.interrupt(b"\x03\x03")  # Ctrl-C at once, as bench_pico stops its board early
    a.soft_reset()  # measured from a clean heap, as bench_pico's game
    since = bench_pico.restart_measured(a)
    with picopair.Pair(a, picolab.boot(kind)) as pair:
        a.run(800)  # a's game again from the REPL, b's from power-on: both on the title
        x = picoplay.join(pair)
        start = a.t
        for k, cell in enumerate(CELLS):
            board = pair.boards[(x, other(x))[k % 2]]
            picoplay.wait_frame(board, 1000, lambda g: picoplay.cursor(g) >= 0)
            picoplay.play_cell(board, cell)
        end = a.t
        a.run(1500)
        a.press("next", ms=700)  # held: the menu, Link play highlighted
        a.press("next", "next", "select")  # wraps to 1P vs CPU, then 2 Players
        again = a.t
        for cell in (0, 1, 4, 2, 8):  # bench_pico's two-player game
            picoplay.play_cell(a, cell)
        over = a.t
        a.run(1500)
        samples = bench_pico.heap_samples(a, since)
        return {"link": during(samples, start, end), "after": during(samples, again, over)}


def two_player_heap(kind):
    """bench_pico.heap_while_playing's two-player game on one board: the heap at each step."""
    out = {}
    with picolab.boot(kind) as board:
        bench_pico.heap_while_playing(board, out)
    return out["playing"]


def modules(kind):
    """{module: bytes its import adds} for LINK_MODULES after a game's modules."""
    with picolab.boot(kind) as board:
        board.run(300)
        board.interrupt()
        return bench_pico.import_costs(board, LINK_MODULES, bench_pico.GAME_MODULES)


def spread(values):
    return "%.1f median, %.1f-%.1f" % (statistics.median(values), min(values), max(values))


def main():
    kinds = bench_pico.lab_kinds("bench_link")
    if not kinds:
        return 0
    got = {}
    for kind in kinds:
        moves = latency(kind)
        missing = [m for m in moves if m[3] is None or m[4] is None]
        if missing:
            print("bench_link: %s: a move's mark never showed: %r" % (kind, missing))
            return 1
        got[kind] = {
            "moves": moves,
            **link_heap(kind),
            "two": two_player_heap(kind),
            "modules": modules(kind),
        }
    print(bench_pico.firmwares_line(kinds))
    print(
        "rp2040js 1.4.1, two boards, simulated time at 125 MHz; a drawn game of %d moves, SELECT "
        "tapped %d ms; the relay's slice %.3f ms; heap in bytes, absolute.\n"
        % (len(CELLS), TAP_MS, SLICE_MS)
    )
    get = [got[k] for k in kinds]
    benchkit.header("figure", *kinds)
    rows = (
        ("press (pin low) to the other board's frame, ms", lambda m: m[4] - m[0]),
        ("release (the click) to the other board's frame, ms", lambda m: m[4] - m[1]),
        ("release to this board's own frame, ms", lambda m: m[3] - m[1]),
        ("release to the move's first byte on TX, ms", lambda m: m[2] - m[1]),
        ("first byte on TX to the other board's frame, ms", lambda m: m[4] - m[2]),
    )
    for label, of in rows:
        benchkit.row(label, *[spread([of(m) for m in r["moves"]]) for r in get])
    heaps = (
        ("heap while playing a link game (board a, every step)", lambda r: span(r["link"])),
        ("heap while playing a 2P game (one board, bench_pico's)", lambda r: span(r["two"])),
        (
            "link play's cost while playing (the two maxima's difference)",
            lambda r: "%d" % (max(r["link"]) - max(r["two"])),
        ),
        (
            "heap while playing a 2P game after leaving link play (board a)",
            lambda r: span(r["after"]),
        ),
    )
    for label, of in heaps:
        benchkit.row(label, *[of(r) for r in get])
    print("\nWhat opening link play loads beyond a game's modules (each import, gc.collect() "
          "around it; 0: loaded by one above):\n")  # fmt: skip
    benchkit.header("module, bytes", *kinds)
    for name in LINK_MODULES:
        benchkit.row(name, *["%d" % r["modules"][name] for r in get])
    return 0


if __name__ == "__main__":
    sys.exit(main())
