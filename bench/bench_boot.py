"""Platform figures: heap in use after boot, settings writes on flash, .mpy sizes.

Run by `make bench`. The real main.py boots the real app with each board file under the
MicroPython unix port (firmware precompiled with mpy-cross, fake machine and clock from
testbed/hostboard, littlefs on a RAM block device), and the heap is read when the app has
drawn its first screen and sleeps in its loop. The fakes are loaded before the baseline, so
the figure is the firmware's: its modules' code and its objects. The 64-bit unix port uses
more RAM per object than a 32-bit board, so device figures are lower.

It boots main.py itself rather than through testbed/harness.py: a module loaded before the
baseline interns its names, and the harness shares so many with the firmware (show, run,
cursor, pixel, board, build ...) that the figure would come out about 3.7 KB lower than what
the firmware spends.
"""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "testbed")]  # as `python bench/<this file>`

import mpy_build  # noqa: E402
import mpyrun  # noqa: E402

TESTBED = ROOT / "testbed"

SCRIPT = """
import gc, os, sys
import machine, time, ramdisk, fakebus
board_name = sys.argv[1]
machine.reset_state(capacity=16384)
clock = time.use(time.FakeClock())
disk = ramdisk.mount("lfs2", "/flash", ramdisk.RAMDisk(512, 24))
os.chdir("/flash")

class Stop(BaseException):
    pass

result = {}

def listener(target, light):
    clock.step_to(target)
    machine.BUS.clear()
    if clock.now >= 2000:
        gc.collect()
        result["after"] = gc.mem_alloc()
        raise Stop()

clock.listener = listener
gc.collect()
base = gc.mem_alloc()
sys.modules["board"] = __import__(board_name)
import main
try:
    main.main()
except Stop:
    pass
print("heap_after_boot", board_name, result["after"] - base)

from settings import Settings
s = Settings.load()
before = disk.writes
s.set("tally1", (1, 0, 0))
s.save()
print("flash_ops_per_save", disk.writes - before)
print("settings_bytes", os.stat("settings.json")[6])
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        built = mpy_build.compile_all(tmp / "fw")
        hb = [*sorted((TESTBED / "hostboard").glob("*.py"))]
        hb += [TESTBED / n for n in ("fakebus.py", "pcd8544_model.py", "ramdisk.py")]
        mpy_build.compile_all(tmp / "hb", hb)
        script = tmp / "bench_boot_mp.py"
        script.write_text(SCRIPT)
        figures = {}
        for board in ("pico", "esp32"):
            res = mpyrun.run(
                script, args=(board,), paths=(tmp / "hb", tmp / "fw"), heapsize="256k"
            )
            if res.returncode != 0:
                print(res.stdout + res.stderr, file=sys.stderr)
                return 1
            for line in res.stdout.splitlines():
                parts = line.split()
                if parts and parts[0] == "heap_after_boot":
                    figures[(parts[0], parts[1])] = int(parts[2])
                elif parts and parts[0] in ("flash_ops_per_save", "settings_bytes"):
                    figures[(parts[0], "")] = int(parts[1])
        size = sum(p.stat().st_size for p in built if p.stem not in ("pico", "esp32"))
    print("== platform (unix port, firmware as .mpy) ==")
    for board in ("pico", "esp32"):
        print(
            "boot %-5s: heap in use after boot %6d B"
            % (board, figures[("heap_after_boot", board)])
        )
    print(
        "settings.json: %d B; one changed save = %d littlefs block writes/erases (512 B blocks)"
        % (figures[("settings_bytes", "")], figures[("flash_ops_per_save", "")])
    )
    print("firmware .mpy total (without board files): %d B" % size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
