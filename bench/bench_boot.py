"""Platform figures: the boot (time to the first frame, heap), settings writes, .mpy sizes.

Run by `make bench`; bench_boot_mp.py is its MicroPython half. The real main.py boots the real
app with each board file under the MicroPython unix port, as `make deploy` leaves a board: on
littlefs (a RAM block device behind ramdisk.Counted, which counts look-ups and opens), the
firmware as .mpy, the board file as board.mpy, main.py compiled at every boot (fake machine and
clock from testbed/hostboard). Figures per board:

- time to the first frame: wall-clock, from importing main.py to the app's first frame (the fake
  clock leaves out the sleeps, so this is the work); the best of several runs.
- files opened and look-ups before it: each import asks for "x", "x.py", "x.mpy" on each
  sys.path entry ('' and /lib on a board) and opens the one it finds.
- allocated before it: every byte the boot allocates with the collector off (the RAM flash's
  block reads included), the highest the heap figure can climb when nothing is collected.
- smallest heap that boots: the least `-X heapsize` that reaches the first frame, and the part
  of it the host's stand-ins and RAM flash hold.
- heap in use after boot (collected, 2 s in), and for the first board each import's own live
  bytes in the firmware's order and the heap on the title, the menu and over two games.

The 64-bit unix port uses more RAM per object than a 32-bit board, so device figures are lower.
It boots main.py itself rather than through testbed/hostapp.py: a module loaded before the
baseline interns its names, and the test bed shares so many with the firmware that the heap
figures would come out lower than what the firmware spends (by 3.7 KB when tried).
"""

import functools
import sys

import benchkit
import boardlist
import deploy_chains
import layout
import mpy_build
import mpyrun
from benchkit import BENCH, TESTBED

SCRIPT = BENCH / "bench_boot_mp.py"
BOARDS = ("pico", "esp32")
TIMED_RUNS = 5


def boot(paths, folder, port, mode, heapsize):
    """One boot of the board deployed in `folder`: the figures it printed ({} when it did not
    reach the first frame), "imports": [(module, own bytes)], "paths": [(stat or open, path)]."""
    res = mpyrun.run(SCRIPT, (folder, mode, port), paths, heapsize, timeout=120)
    figures = {"imports": [], "paths": []}
    if "oxo5110:" in res.stdout:
        return {}  # main.py's own messages: an error screen or safe mode, not the game
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            figures[parts[0]] = int(parts[1])
        elif len(parts) == 3 and parts[0] == "import":
            figures["imports"].append((parts[1], int(parts[2])))
        elif len(parts) == 2 and parts[0] in ("stat", "open"):
            figures["paths"].append((parts[0], parts[1]))
    if res.returncode != 0 and "first" in figures:
        raise RuntimeError("boot %s %s failed:\n%s" % (folder, mode, res.stdout + res.stderr))
    return figures


def smallest_heap(run, low=16, high=512):
    """The least heap (KB) in which run(mode, heapsize) reaches its first frame (bisection)."""
    if "first" not in run("first", "%dk" % high):
        raise RuntimeError("it does not boot in %d KB" % high)
    while high - low > 1:
        mid = (low + high) // 2
        if "first" in run("first", "%dk" % mid):
            high = mid
        else:
            low = mid
    return high


def main():
    if benchkit.skipped("bench_boot"):
        return 0
    with benchkit.workdir() as tmp:
        # Each board's files as `make deploy` leaves them, and the compiled host stand-ins.
        deployed = {board: deploy_chains.stage(board, tmp / board) for board in BOARDS}
        modules = deployed[BOARDS[0]].glob("*.mpy")  # the firmware's, the board file left out
        size = sum(p.stat().st_size for p in modules if p.name != "board.mpy")
        benchkit.hostboard_mpy(tmp / "hb")
        hb = [TESTBED / n for n in ("fakebus.py", "pcd8544_model.py", "ramdisk.py")]
        mpy_build.compile_all(tmp / "hb", hb)
        rows = {}
        for board in BOARDS:
            run = functools.partial(boot, (tmp / "hb",), deployed[board], boardlist.port_of(board))
            full = run("full", "512k")
            if "after" not in full:
                print("bench_boot: %s did not boot" % board, file=sys.stderr)
                return 1
            rows[board] = (
                min(run("first", "512k")["first"] for _ in range(TIMED_RUNS)),
                run("nogc", "1024k")["allocated"],
                smallest_heap(run),
                full,
                run("keep", "512k"),
                run("heap", "1024k"),
            )
        main_size = layout.source("main").stat().st_size
    print("== boot (unix port, 64-bit; firmware as deployed on littlefs: .mpy, main.py source) ==")
    for board in BOARDS:
        first, allocated, least, full, keep, heap = rows[board]
        opened = [path for kind, path in keep["paths"] if kind == "open"]
        modules = [path for path in opened if path.endswith((".mpy", ".py"))]
        print(
            "boot %-5s: first frame after %5.1f ms; %5.1f KB allocated before it (no collection);"
            " boots in %d KB of heap (%.1f KB of it the host's stand-ins and RAM flash); heap in"
            " use after boot %5.1f KB"
            % (board, first / 1000, allocated / 1024, least, full["base"] / 1024,
               full["after"] / 1024)
        )  # fmt: skip
        print(
            "  before the first frame: %d files opened (%d modules: %s; then %s), %d look-ups on"
            " the filesystem + %d that a board makes for its built-in machine and time (at their"
            " first import: main.py keeps them in sys.modules)"
            % (len(opened), len(modules), " ".join(p.rsplit(".", 1)[0] for p in modules),
               " ".join(p for p in opened if p not in modules) or "no other file",
               keep["lookups"], 6 * keep["stand_in_imports"])
        )  # fmt: skip
    print(
        "  (the time runs a Python RAM block device behind a counting VFS, slower than a "
        "board's flash driver; the look-ups and opens are what a board's import asks)"
    )
    board = BOARDS[0]
    full, heap = rows[board][3], rows[board][-1]
    print(
        "== heap per module (%s, unix port, 64-bit: a Pico's 32-bit figures are lower) ==" % board
    )
    print(
        "  each import's own live bytes after a collection, in the order the firmware first "
        "imports it (builtins 0; a module that grows the qstr pool is charged the new pool):"
    )
    line = ["%s %d" % (name, took) for name, took in heap["imports"] if took]
    for at in range(0, len(line), 6):
        print("  " + ", ".join(line[at : at + 6]))
    kb = {name: heap[name] / 1024 for name in ("title", "menu", "playing")}
    print(
        "  heap in use, collected: title %(title).1f KB; menu %(menu).1f KB; playing (peak over"
        " two games) %(playing).1f KB" % kb
    )
    print(
        "  on a Pico expect about %.2f of these: the issue's Pico measured 44.7 KB after the "
        "boot where this bench then printed 70.7 KB (before the lazy imports)" % (44.7 / 70.7)
    )
    print(
        "settings.json: %(settings_bytes)d B; one changed save = %(flash_ops_per_save)d "
        "littlefs block writes/erases (512 B blocks)" % full
    )
    print(
        "firmware .mpy total (without board files): %d B; main.py (source) %d B"
        % (size, main_size)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
