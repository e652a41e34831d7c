"""Buttons figures: poll() time and a Pad's RAM under the MicroPython unix port, .mpy size.

Run by `make bench`. The unix port on a PC is far faster than an RP2040 or ESP32, so the times
are for comparing versions, not a device figure; RAM and .mpy size carry over (32-bit boards
use about half the RAM of the 64-bit port for the same objects).
"""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "testbed")]  # as `python bench/<this file>`

import layout  # noqa: E402
import mpy_build  # noqa: E402
import mpyrun  # noqa: E402

SCRIPT = """
import gc, utime
import buttons as B
import pads
from fakebus import Pin

def time_polls(pad, pins, n, busy):
    return min(time_once(pad, pins, n, busy) for _ in range(5))

def time_once(pad, pins, n, busy):
    t0 = utime.ticks_us()
    for t in range(n):
        if busy:
            pins[0].level = 0 if t % 200 < 100 else 1
        ev = pad.poll(t)
        while ev is not None:
            ev = pad.get()
    return utime.ticks_diff(utime.ticks_us(), t0) / n

gc.collect()
before = gc.mem_alloc()
pins = [Pin(value=1) for _ in range(3)]
pad = pads.three_buttons(*pins)
gc.collect()
ram3 = gc.mem_alloc() - before
pins5 = [Pin(value=1) for _ in range(5)]
before = gc.mem_alloc()
pad5 = pads.five_way(*pins5)
gc.collect()
ram5 = gc.mem_alloc() - before
N = 20000
print("three_buttons Pad RAM (3 buttons, 64-bit port): %d bytes" % ram3)
print("five_way Pad RAM (5 buttons, 64-bit port): %d bytes" % ram5)
print("poll() idle, three_buttons: %.2f us" % time_polls(pad, pins, N, False))
print("poll() idle, five_way: %.2f us" % time_polls(pad5, pins5, N, False))
print("poll() one button pressed every 200 ms, three_buttons: %.2f us"
      % time_polls(pad, pins, N, True))
"""


def main():
    if mpyrun.micropython_path() is None:
        print("bench_buttons: skipped -", mpyrun.UNAVAILABLE)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        mpy = mpy_build.compile_module(layout.source("buttons"), tmp)
        mpy_build.compile_module(layout.source("valid"), tmp)  # buttons checks with it
        mpy_build.compile_module(layout.source("pads"), tmp)  # the pads are made there
        script = Path(tmp) / "bench_buttons_mp.py"
        script.write_text(SCRIPT)
        result = mpyrun.run(script, paths=(tmp, ROOT / "testbed"), heapsize="256k")
        print("== buttons (MicroPython unix port) ==")
        print("buttons.mpy: %d bytes" % mpy.stat().st_size)
        sys.stdout.write(result.stdout)
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
