"""Platform figures: the boot (time to the first frame, heap), settings writes, .mpy sizes.

Run by `make bench`. The real main.py boots the real app with each board file under the
MicroPython unix port, as `make deploy` leaves a board: every firmware module precompiled with
mpy-cross except main.py, which stays source and is compiled at every boot (fake machine and
clock from testbed/hostboard, littlefs on a RAM block device). Figures per board:

- time to the first frame: wall-clock time from the start of the boot (importing main.py) to
  the app's first frame on the glass (the fake clock leaves out the sleeps, so this is the
  work: compiling main.py, loading the modules, building the board and the app); the best of
  several runs, as a busy machine only adds to it.
- allocated before the first frame: every byte the boot allocates up to that frame with the
  garbage collector off, the highest the heap figure can climb when nothing is collected
  (a board's big heap collects only when full).
- smallest heap that boots: the least `-X heapsize` with which the boot still reaches the first
  frame (the live peak, fragmentation included), and the part of it the host's own stand-ins
  and RAM flash hold.
- heap in use after boot: collected, 2 s into the running app.

The 64-bit unix port uses more RAM per object than a 32-bit board, so device figures are lower.

It boots main.py itself rather than through testbed/harness.py: a module loaded before the
baseline interns its names, and the harness shares so many with the firmware (show, run,
cursor, pixel, board, build ...) that the heap figures would come out lower than what the
firmware spends (by 3.7 KB when tried).
"""

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "testbed")]  # as `python bench/<this file>`

import mpy_build  # noqa: E402
import mpyrun  # noqa: E402

TESTBED = ROOT / "testbed"
BOARDS = ("pico", "esp32")
TIMED_RUNS = 5

SCRIPT = """
import gc, os, sys, utime
import machine, time, ramdisk, fakebus
board_name, mode = sys.argv[1], sys.argv[2]
machine.reset_state(capacity=16384)
clock = time.use(time.FakeClock())
disk = ramdisk.mount("lfs2", "/flash", ramdisk.RAMDisk(512, 24))
os.chdir("/flash")

class Stop(BaseException):
    pass

result = {}

def listener(target, light):
    if "first" not in result and "app" in sys.modules:
        # The app's loop sleeps right after its first frame: the first sleep with the app
        # imported ends the boot (the driver's reset pulse sleeps before it).
        result["first"] = utime.ticks_diff(utime.ticks_us(), start)
        result["allocated"] = gc.mem_alloc() - base
        if mode != "full":
            raise Stop()
    clock.step_to(target)
    machine.BUS.clear()
    if clock.now >= 2000:
        gc.collect()
        result["after"] = gc.mem_alloc() - base
        raise Stop()

clock.listener = listener
gc.collect()
base = gc.mem_alloc()
print("base", base)
if mode == "nogc":
    gc.disable()
start = utime.ticks_us()
sys.modules["board"] = __import__(board_name)
try:
    import main  # main.py, source: compiled now, as a board does at every boot
except Stop:
    pass
gc.enable()
for key in result:
    print(key, result[key])
if mode != "full":
    sys.exit(0)

from settings import Settings
s = Settings.load()
before = disk.writes
s.set("tally1", (1, 0, 0))
s.save()
print("flash_ops_per_save", disk.writes - before)
print("settings_bytes", os.stat("settings.json")[6])
"""


def boot(paths, script, board, mode, heapsize):
    """One boot; the figures it printed ({} when it did not reach the first frame)."""
    res = mpyrun.run(script, args=(board, mode), paths=paths, heapsize=heapsize, timeout=120)
    figures = {}
    if "oxo5110:" in res.stdout:
        return figures  # main.py's own messages: an error screen or safe mode, not the game
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            figures[parts[0]] = int(parts[1])
    if res.returncode != 0 and "first" in figures:
        raise RuntimeError("boot %s %s failed:\n%s" % (board, mode, res.stdout + res.stderr))
    return figures


def smallest_heap(paths, script, board, low=16, high=256):
    """The least heap (KB) in which the boot reaches its first frame (bisection)."""
    if "first" not in boot(paths, script, board, "first", "%dk" % high):
        raise RuntimeError("%s does not boot in %d KB" % (board, high))
    while high - low > 1:
        mid = (low + high) // 2
        if "first" in boot(paths, script, board, "first", "%dk" % mid):
            high = mid
        else:
            low = mid
    return high


def main():
    if mpyrun.micropython_path() is None:
        print("bench_boot: " + mpyrun.UNAVAILABLE)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sources = [p for p in mpy_build.firmware_sources() if p.name != "main.py"]
        built = mpy_build.compile_all(tmp / "fw", sources)
        (tmp / "src").mkdir()
        shutil.copyfile(ROOT / "firmware" / "main.py", tmp / "src" / "main.py")
        hb = [*sorted((TESTBED / "hostboard").glob("*.py"))]
        hb += [TESTBED / n for n in ("fakebus.py", "pcd8544_model.py", "ramdisk.py")]
        mpy_build.compile_all(tmp / "hb", hb)
        script = tmp / "bench_boot_mp.py"
        script.write_text(SCRIPT)
        paths = (tmp / "hb", tmp / "src", tmp / "fw")
        rows = {}
        for board in BOARDS:
            full = boot(paths, script, board, "full", "256k")
            if "after" not in full:
                print("bench_boot: %s did not boot" % board, file=sys.stderr)
                return 1
            times = [boot(paths, script, board, "first", "256k") for _ in range(TIMED_RUNS)]
            nogc = boot(paths, script, board, "nogc", "1024k")
            rows[board] = (
                min(run["first"] for run in times),
                nogc["allocated"],
                smallest_heap(paths, script, board),
                full["base"],
                full["after"],
            )
        size = sum(p.stat().st_size for p in built if p.stem not in BOARDS)
        main_size = (ROOT / "firmware" / "main.py").stat().st_size
    print("== boot (unix port; firmware as deployed: .mpy, main.py as source) ==")
    for board in BOARDS:
        first, allocated, least, base, after = rows[board]
        print(
            "boot %-5s: first frame after %5.1f ms; %5.1f KB allocated before it (no "
            "collection); boots in %d KB of heap (%.1f KB of it the host's stand-ins); "
            "heap in use after boot %5.1f KB"
            % (board, first / 1000, allocated / 1024, least, base / 1024, after / 1024)
        )
    print(
        "settings.json: %d B; one changed save = %d littlefs block writes/erases (512 B blocks)"
        % (full["settings_bytes"], full["flash_ops_per_save"])
    )
    print(
        "firmware .mpy total (without board files): %d B; main.py (source) %d B"
        % (size, main_size)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
