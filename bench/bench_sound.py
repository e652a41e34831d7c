"""Sound figures on the MicroPython unix port (firmware precompiled by mpy-cross): the heap
sound.py adds after import and after boot (a board with a buzzer against one without), the
loop step's time while a jingle plays against silent, the press-to-frame time and the wait
the step returns (the poll period) in both. Run by `make bench`; `python bench/bench_sound.py`
alone works too.

The display and buttons are the Pico's on the test bed's stand-ins (testbed/hostapp.py,
HostApp.hardware); the buzzer is a null PWM (its methods do nothing, as a native call costs
next to nothing), so the times are the firmware's own. Times on a PC only compare the two
cases: a Pico is slower."""

import sys

import benchkit

SCRIPT = r"""
import gc
import micropython
import sys
import utime

gc.collect()
base = gc.mem_alloc()
import app
import buttons
import engine
import hardware
import pcd8544
import settings

gc.collect()
code = gc.mem_alloc()
import sound

gc.collect()
code_sound = gc.mem_alloc()
import hostapp  # the test bed's stand-ins, after the firmware's figures


class PWM:
    # machine.PWM's methods, doing nothing (a native call is next to free).
    def freq(self, hz=None):
        pass

    def duty_u16(self, d=None):
        pass

    def init(self, freq=-1, duty_u16=-1):
        pass

    def deinit(self):
        pass


shown = [0]
h = hostapp.HostApp(flash=None, glass=False, clock=hostapp.time.RealClock())
B = (buttons.PREV, buttons.NEXT, buttons.SELECT)


def build(buzzer):
    hw = h.hardware()
    hw.buzzer = None if buzzer is None else buzzer()
    lcd = hw.lcd
    real_show = lcd.show

    def show():
        real_show()
        shown[0] = utime.ticks_us()

    lcd.show = show
    s = settings.Settings.load(sys.argv[1] + "/settings.json")
    s.set("dim_s", 0)  # no idle timers: the bench's steps would put it to sleep
    s.set("sleep_s", 0)
    return app.App(hw, s)


# Heap after boot (the board's objects and the App): without a buzzer, then with one. A first
# build loads the board file and the stand-ins' state, which neither should be charged.
a = build(None)
del a
gc.collect()
before = gc.mem_alloc()
a = build(None)
gc.collect()
boot = gc.mem_alloc() - before
del a
gc.collect()
before = gc.mem_alloc()
a = build(lambda: sound.Sound(PWM()))
gc.collect()
boot_sound = gc.mem_alloc() - before

now = 0


def step():
    global now
    wait = a.step(now)
    now += wait if wait else 1
    return wait


for _ in range(20):
    step()  # the title, its chime
h.down(B[2])
step()
for _ in range(5):
    step()
h.up(B[2])
for _ in range(60):
    step()  # the menu, quiet again


def steps(n, jingle):
    # (mean us per step, shortest and longest wait returned); WIN restarted whenever it ends.
    waits = []
    t = utime.ticks_us()
    for _ in range(n):
        if jingle and not a.shared.buzzer.playing():
            a.shared.sound("WIN")
        waits.append(step())
    us = utime.ticks_diff(utime.ticks_us(), t) / n
    return us, min(waits), max(waits)


def press(jingle):
    # us from the step that sees NEXT go down to the end of the frame it writes (the menu).
    if jingle:
        a.shared.sound("WIN")
        step()
    h.down(B[1])
    shown[0] = 0
    t = utime.ticks_us()
    step()
    lat = utime.ticks_diff(shown[0], t)
    h.up(B[1])
    for _ in range(100):
        step()
    return lat


quiet = []
playing = []
for _ in range(7):  # interleaved, the minimum of each: load on the machine hits both alike
    quiet.append(steps(2000, False))
    playing.append(steps(2000, True))
lat_quiet = sorted(press(False) for _ in range(21))
lat_playing = sorted(press(True) for _ in range(21))
q = min(quiet)
p = min(playing)
print("HEAP %d %d %d %d %d" % (base, code, code_sound, boot, boot_sound))
print("STEP %.2f %d %d %.2f %d %d" % (q[0], q[1], q[2], p[0], p[1], p[2]))
print("PRESS %d %d %d %d" % (lat_quiet[0], lat_quiet[10], lat_playing[0], lat_playing[10]))
"""


def main():
    output = benchkit.run_app("bench_sound", SCRIPT, "1024k")
    if output is None:
        return 0
    figures = {head: [float(v) for v in rest] for head, rest in benchkit.keyed(output).items()}
    base, code, code_sound, boot, boot_sound = figures["HEAP"]
    print("== bench_sound: the buzzer on the MicroPython unix port (64-bit), mpy-cross ==")
    print(
        "heap sound.py adds (a board with a buzzer): %.1f KB after import, %.1f KB after boot"
        " (the Sound and its PWM: %d bytes); bench_game's figures are without it"
        % ((code_sound - code) / 1024, (code_sound - code + boot_sound - boot) / 1024,
           boot_sound - boot)
    )  # fmt: skip
    us_q, wmin_q, wmax_q, us_p, wmin_p, wmax_p = figures["STEP"]  # _q silent, _p playing
    print(
        "loop step, the menu idle: silent %.1f us, a jingle playing %.1f us (min of 7 x 2000)\n"
        "  the wait it returns: silent %d-%d ms, playing %d-%d ms (App.poll_ms = 10; shorter"
        " only where a note ends sooner)" % (us_q, us_p, wmin_q, wmax_q, wmin_p, wmax_p)
    )
    print(
        "button edge -> frame written (NEXT on the menu): silent min %d / median %d us,"
        " a jingle playing min %d / median %d us" % tuple(figures["PRESS"])
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
