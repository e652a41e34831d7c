"""Buttons figures: poll() time and a Pad's RAM under the MicroPython unix port, .mpy size.

Run by `make bench`. The unix port on a PC is far faster than an RP2040 or ESP32, so the times
are for comparing versions, not a device figure; RAM and .mpy size carry over (32-bit boards
use about half the RAM of the 64-bit port for the same objects).
"""

import sys

import benchkit

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
    if benchkit.skipped("bench_buttons"):
        return 0
    with benchkit.workdir() as tmp:
        # buttons checks with valid; the pads are made in pads
        benchkit.firmware_mpy(tmp, "buttons", "valid", "pads")
        size = (tmp / "buttons.mpy").stat().st_size
        script = tmp / "bench_buttons_mp.py"
        script.write_text(SCRIPT)
        output = benchkit.run_mp("bench_buttons", script, (), (tmp, benchkit.TESTBED), "256k")
    print("== buttons (MicroPython unix port) ==")
    print("buttons.mpy: %d bytes" % size)
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
