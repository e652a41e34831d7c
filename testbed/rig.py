# Steps the App as a board runs it, minus the board, on the host's stand-ins (fakebus).
# SPDX-License-Identifier: MIT
"""`Rig`: the App as a board runs it, minus the board. `App(hw, settings)` over the real PCD8544
driver and the real buttons.Pad on fakebus stand-ins (`stand_in_hardware()`), a settings file,
and a clock of the caller's: `run(ms)` steps it as startup.main()'s loop would sleep, `click(b)`,
`hold(b)` press the buttons. glass=False drops the display (the fuzz). Needs only the firmware
and testbed on MICROPYPATH. A benchmark that steps the App itself builds it on
stand_in_hardware() (bench/bench_game.py). Its glass is read with glass.Glass.

Nothing of the firmware is imported with this module: a Rig imports the app when it is made.
"""

import os
import sys

import fakebus
import utime
from glass import Glass

PRESS_MS = 80  # a brisk human press, well over the 30 ms debounce
# Where a Rig keeps its settings file: the script's first argument (a pytest tmp_path), else /tmp.
FOLDER = sys.argv[1] if len(sys.argv) > 1 else "/tmp"


class Rig(Glass):
    """The App as it runs on a board, minus the board: the real PCD8544 driver writes to a
    recording fakebus whose recording is fed to the controller model (what the glass shows),
    the real buttons.Pad polls pins whose levels the test sets, settings live in a real file,
    and a clock advances only when the test says (as `run()` would sleep). With
    `glass=False` the driver writes to stand-ins that record nothing (the fuzz)."""

    def __init__(self, path=None, glass=True, fresh=True, five=False, chords=(), buzzer=None):
        import app
        import pcd8544_model
        import settings

        if path is None:
            path = FOLDER + "/settings.json"
        if fresh:
            remove(path)
        self.path = path
        self.bus = fakebus.Bus(2048) if glass else None
        self.model = pcd8544_model.Model() if glass else None
        self.dozed = 0
        self.hw, self.pins = stand_in_hardware(self.bus, five, chords, self.doze, buzzer=buzzer)
        self.settings = settings.Settings.load(path)
        self.app = app.App(self.hw, self.settings)
        self.now = utime.ticks_ms()
        self.frames = 0
        self.sync()

    def doze(self, ms):
        self.dozed += ms

    def sync(self):
        """Feed the model what the driver sent since the last run()/sync()."""
        if self.bus is not None:
            self.model.feed(self.bus.take())

    # -- time and buttons -------------------------------------------------------------------

    def run(self, ms):
        """Let ms pass, stepping the app the way startup.main()'s loop would."""
        end = utime.ticks_add(self.now, ms)
        spins = 0
        while utime.ticks_diff(end, self.now) > 0:
            wait = self.app.step(self.now)
            if wait and asleep(self.app):
                self.hw.doze(wait)  # what startup.main() does with the wait while asleep
            if wait:
                spins = 0
                left = utime.ticks_diff(end, self.now)
                self.now = utime.ticks_add(self.now, wait if wait < left else left)
            else:
                spins += 1
                if spins > 20:
                    raise AssertionError("step() keeps asking to come back at once")
        self.sync()

    def down(self, b):
        self.pins[b].level = 0

    def up(self, b):
        self.pins[b].level = 1

    def click(self, b, hold=PRESS_MS, after=60):
        self.down(b)
        self.run(hold)
        self.up(b)
        self.run(after)

    def hold(self, b, ms=700):
        self.click(b, ms)

    def heap_over(self, steps, button=None):
        """(garbage, transient): the bytes that `steps` app steps, 10 ms apart, leave on the
        heap with the collector off, and those they took and freed; `button` (or None) goes
        down every 20th step and up 10 steps later (a move and its frame). A call frame over
        11 words is taken from the heap and freed on return (py/objfun.c,
        VM_MAX_STATE_ON_STACK): transient, not garbage, and gc.mem_alloc() does not count it;
        micropython.mem_total() does."""
        import gc

        import micropython

        app = self.app
        now = self.now
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        total = micropython.mem_total()
        for n in range(steps):
            if button is not None and n % 20 == 0:
                self.down(button)
            elif button is not None and n % 20 == 10:
                self.up(button)
            app.step(now)
            self.bus.clear()  # the stand-in's recording of the frames: its buffer is reused
            now += 10
        garbage = gc.mem_alloc() - before
        transient = micropython.mem_total() - total - garbage
        gc.enable()
        self.now = now
        return garbage, transient

    def chord(self, a, b):
        """Press a, then b 20 ms later; let both go 100 ms on (harness.Harness.chord's timing)."""
        self.down(a)
        self.run(20)
        self.down(b)
        self.run(100)
        self.up(a)
        self.up(b)

    def steady(self, i):
        """cell(i), read while a blinking winning line is off (it crosses the glyphs)."""
        for _ in range(4):
            c = self.cell(i)
            if c != "?":
                return c
            self.run(200)
        return c


def stand_in_hardware(bus=None, five=False, chords=(), doze=None, name="rig", buzzer=None):
    """The hardware.Hardware a board file builds, on the host's stand-ins (fakebus): the real
    PCD8544 driver on an SPI and dc/cs/rst/backlight pins recording on `bus` (None: to
    nowhere), the real buttons.Pad on released input pins (three buttons, or five_way with
    `chords`), and `buzzer` (a sound.Sound, or None: no buzzer). Returns (hw, pins): pins maps
    each button name to its Pin, whose `level` a test sets (0 pressed, as with the boards'
    pull-ups)."""
    import buttons
    import hardware
    import pads
    import pcd8544

    lcd = pcd8544.PCD8544(
        fakebus.SPI(bus), *[fakebus.Pin(bus, n, 1) for n in ("dc", "cs", "rst", "backlight")]
    )
    if five:
        names = (buttons.UP, buttons.DOWN, buttons.LEFT, buttons.RIGHT, buttons.SELECT)
        pins = {n: fakebus.Pin(value=1) for n in names}
        pad = pads.five_way(*[pins[n] for n in names], chords=chords)
    else:
        names = (buttons.PREV, buttons.NEXT, buttons.SELECT)
        pins = {n: fakebus.Pin(value=1) for n in names}
        pad = pads.three_buttons(*[pins[n] for n in names])
    return hardware.Hardware(lcd, pad, doze, name, buzzer), pins


def remove(path):
    """Delete a settings file and its temporary twin, if there."""
    for name in (path, path + ".tmp"):
        try:
            os.remove(name)
        except OSError:
            pass


# -- App internals: beyond App(hw, settings) and step(now), the test bed (the Rig, and
# session.py on the Harness) reads the App here and only here (a change inside the App changes
# these, not their callers).


def asleep(app):
    """The board is asleep: startup.main() light-sleeps its waits (hw.doze) instead of sleep_ms."""
    import power

    return app.power.state == power.ASLEEP


def screen_of(app):
    """The controller showing (title.Title, play.Play, ...)."""
    return app.screen
