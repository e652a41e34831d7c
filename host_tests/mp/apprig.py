# Test rig for the app under MicroPython: real driver, real Pad, controller model as the glass.
# SPDX-License-Identifier: MIT
"""The App as it runs on a board, minus the board: the real PCD8544 driver writes to a recording
fakebus whose recording is fed to the controller model (what the glass shows), the real
buttons.Pad polls pins whose levels the test sets, settings live in a real file, and a fake
clock advances only when the test says (as `run()` would sleep). With `glass=False` the driver
writes to a bus that discards everything (for the fast fuzz and soak runs)."""

import sys

import app
import buttons
import framebuf
import hardware
import pcd8544
import power
import settings as settings_module
import utime

# Where settings files go: the first script argument (a pytest tmp_path), else /tmp.
FOLDER = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
SELECT = buttons.SELECT
PREV = buttons.PREV
NEXT = buttons.NEXT


class Button:
    """An input pin whose level the test sets (pressed = 0, with the board's pull-up)."""

    def __init__(self):
        self.level = 1

    def value(self, v=None):
        return self.level


class NullPin:
    def __call__(self, v=None):
        return 0

    value = __call__


class NullSPI:
    def write(self, buf):
        pass


def remove(path):
    import os

    for name in (path, path + ".tmp"):
        try:
            os.remove(name)
        except OSError:
            pass


class Rig:
    def __init__(self, path=None, glass=True, fresh=True, five=False, chords=(), buzzer=None):
        if path is None:
            path = FOLDER + "/settings.json"
        if fresh:
            remove(path)
        self.path = path
        self.now = utime.ticks_ms()
        if glass:
            import fakebus
            import pcd8544_model

            self.bus = fakebus.Bus(2048)
            spi = fakebus.SPI(self.bus)
            pins = [fakebus.Pin(self.bus, n, 1) for n in ("dc", "cs", "rst", "backlight")]
            self.model = pcd8544_model.Model()
        else:
            self.bus = None
            spi = NullSPI()
            pins = [NullPin(), NullPin(), NullPin(), NullPin()]
            self.model = None
        lcd = pcd8544.PCD8544(spi, pins[0], pins[1], pins[2], pins[3])
        self.pins = {}
        if five:
            names = (buttons.UP, buttons.DOWN, buttons.LEFT, buttons.RIGHT, SELECT)
            for n in names:
                self.pins[n] = Button()
            pad = buttons.five_way(*[self.pins[n] for n in names], chords=chords)
        else:
            for n in (PREV, NEXT, SELECT):
                self.pins[n] = Button()
            pad = buttons.three_buttons(self.pins[PREV], self.pins[NEXT], self.pins[SELECT])
        self.dozed = 0
        self.hw = hardware.Hardware(lcd, pad, self.doze, "rig", buzzer)  # a sound.Sound
        self.settings = settings_module.Settings.load(path)
        self.app = app.App(self.hw, self.settings)
        self.now = utime.ticks_ms()
        self.frames = 0
        self.sync()

    def doze(self, ms):
        self.dozed += ms

    def sync(self):
        if self.bus is not None:
            self.model.feed(self.bus.take())

    # -- time and buttons -------------------------------------------------------------------

    def run(self, ms):
        """Let ms pass, stepping the app the way App.run() would."""
        end = utime.ticks_add(self.now, ms)
        spins = 0
        while utime.ticks_diff(end, self.now) > 0:
            wait = self.app.step(self.now)
            if wait and self.app.power.state == power.ASLEEP:
                self.hw.doze(wait)  # what App.run() does with the wait while asleep
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

    def click(self, b, hold=80, after=60):
        self.down(b)
        self.run(hold)
        self.up(b)
        self.run(after)

    def hold(self, b, ms=700):
        self.click(b, ms)

    # -- what the glass shows ---------------------------------------------------------------

    def pixel(self, x, y):
        return self.model.pixel(x, y)

    def dark(self, x, y, w, h):
        n = 0
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                n += self.model.pixel(xx, yy)
        return n

    def cell(self, i):
        """'X', 'O', '.' (empty), 'cursor' (inverted cell) or '?' as the glass shows cell i."""
        x = (i % 3) * 16
        y = (i // 3) * 16
        n = self.dark(x, y, 15, 15)
        if n == 0:
            return "."
        if n > 150:
            return "cursor"
        p = self.model.pixel
        corners = p(x + 2, y + 2) + p(x + 12, y + 2) + p(x + 2, y + 12) + p(x + 12, y + 12)
        edges = p(x + 7, y + 2) + p(x + 7, y + 12) + p(x + 2, y + 7) + p(x + 12, y + 7)
        if corners == 4 and p(x + 7, y + 7) and edges == 0:
            return "X"
        if edges == 4 and not p(x + 7, y + 7) and corners == 0:
            return "O"
        return "?"

    def steady(self, i):
        """cell(i), read while a blinking winning line is off (it crosses the glyphs)."""
        for _ in range(4):
            c = self.cell(i)
            if c != "?":
                return c
            self.run(200)
        return c

    def cells(self):
        return "".join(self.cell(i)[0] for i in range(9))

    def cursor(self):
        for i in range(9):
            if self.cell(i) == "cursor":
                return i
        return -1

    def text_at(self, text, x, y, inverse=False):
        """True if the glass shows exactly `text` (8x8 font) at x, y: dark on light, or light
        on dark when inverse (a highlighted menu row)."""
        ink = 1 if inverse else 0
        w = 8 * len(text)
        buf = bytearray(w)
        fb = framebuf.FrameBuffer(buf, w, 8, framebuf.MONO_VLSB)
        fb.text(text, 0, 0, 1)
        for yy in range(8):
            for xx in range(w):
                if 0 <= x + xx < 84 and fb.pixel(xx, yy) ^ ink != self.model.pixel(x + xx, y + yy):
                    return False
        return True

    def status(self, row, text):
        """The status column (x=52) shows `text` on row 0..4."""
        return self.text_at(text, 52, (0, 10, 22, 31, 40)[row])

    def status_after_glyph(self, row, text):
        return self.text_at(text, 60, (0, 10, 22, 31, 40)[row])

    def count(self, row, label, n):
        """A tally row shows label and n right-aligned."""
        digits = str(n)
        return self.status(row, label) and self.text_at(
            digits, 84 - 8 * len(digits), (0, 10, 22, 31, 40)[row]
        )

    def menu_row(self, row):
        """(label shown?, highlighted?) helpers: True if row is inverted."""
        return self.model.pixel(0, row * 8) == 1 and self.model.pixel(83, row * 8) == 1

    def small(self, text, inverted=False):
        """(x, y) where the glass shows text in the small font (smallfont.py), or None."""
        import glasstext

        return glasstext.find(self.model.glass(), text, inverted)

    def blank(self):
        return self.dark(0, 0, 84, 48) == 0

    def show(self):
        return self.model.text(True)
