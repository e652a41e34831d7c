# Runs the app on the host under MicroPython: the one harness of tests, benchmarks, simulator.
# SPDX-License-Identifier: MIT
"""The app on the host, under the MicroPython unix port, and what its glass shows.

Two ways to run it, with one reader of the glass (`Glass`: text, cells, the cursor, the status
column, golden snaps) and the same buttons:

- `Rig`: the App as a board runs it, minus the board. `App(hw, settings)` over the real PCD8544
  driver and the real buttons.Pad on fakebus stand-ins (`stand_in_hardware()`), a settings file,
  and a clock of the caller's: `run(ms)` steps it as oxo.main()'s loop would sleep, `click(b)`,
  `hold(b)` press the buttons. glass=False drops the display (the fuzz). Needs only the firmware
  and testbed on MICROPYPATH. A benchmark that steps the App itself builds it on
  stand_in_hardware() (bench/bench_game.py).
- `Harness`: the whole firmware (main.py, a board file, the app) booted under the fake
  `machine` and `time` (testbed/hostboard first on MICROPYPATH), played by a script.

Harness: the board file is imported under its own name and installed as `board`, as deploy
copies it to board.py, and the fake machine models the MicroPython port its `PORT` names
(machine.use_port: the rp2 port's clocks and light sleep, the ESP32's, or a generic board
without PORT), by boardpins.use_board(), which the simulator's MicroPython half and the web
page share.

    import harness
    from buttons import NEXT, SELECT

    def script(h):              # a generator: it yields whatever takes time
        h.down(SELECT)          # instant: a level change (here: held at power-on)
        yield h.wait(500)       # let the firmware run for 500 ms of fake time
        h.up(SELECT)
        yield h.press(NEXT)     # down, 80 ms, up, 80 ms
        yield h.hold(SELECT, 800)
        yield h.until(lambda: h.shows("YOUR MOVE"), 2000)
        check(h.shows("X"), h.screen())
        h.snap("board")         # prints "GLASS board <hex> <lit> <Vop>" for a CPython test

    h = harness.Harness("pico")
    h.run(script)               # boots main.py; returns when the script ends

Time is fake (time.FakeClock): it moves only when the firmware sleeps (time.sleep_ms,
machine.lightsleep), and the script's steps happen at their exact times inside those sleeps.
A lightsleep ends early when a press reaches a pin the port can wake on (an ESP32's ext0 pin;
never on rp2). An exception in the script ends the run and is raised from run(); so are the
firmware's own escapes (KeyboardInterrupt, ...).

Nothing of the firmware is imported with this module: a Harness must find it unloaded (the
firmware starts from nothing at every power-on), so a Rig imports the app when it is made.
The controller model too is imported when first needed: the simulator's MicroPython half, which
feeds its recording to the host instead, does not carry it.
"""

import binascii
import gc
import os
import sys
import time  # the fake one when testbed/hostboard comes first (a Harness needs it)

import fakebus
import framebuf
import machine  # likewise
import utime
from boardpins import button_pin, display, use_board

PRESS_MS = 80  # a brisk human press, well over the 30 ms debounce
GAP_MS = 80
# The board screen (screens.py): 3x3 cells of 16 px from the top left, the status column at
# x=52 with its rows' tops.
CELL_PX = 16
STATUS_X = 52
STATUS_ROWS = (0, 10, 22, 31, 40)
# Where a Rig keeps its settings file: the script's first argument (a pytest tmp_path), else /tmp.
FOLDER = sys.argv[1] if len(sys.argv) > 1 else "/tmp"


class Glass:
    """What the glass shows, read from `self.model` (a pcd8544_model.Model kept up to date by
    the Rig or the Harness): text in either font, the board's cells and cursor, the status
    column, menu rows."""

    def glass(self):
        """The 504 bytes the glass shows (MONO_VLSB, 1 = dark): blank when powered down."""
        return self.model.glass()

    def pixel(self, x, y):
        return self.model.pixel(x, y)

    def lit(self):
        """The backlight is on."""
        return self.model.backlight

    def showing(self):
        """The display is powered and out of reset (not in power-down)."""
        return self.model.showing

    def screen(self, border=False):
        """The glass as text: 24 lines of 84 Unicode half blocks."""
        import pcd8544_model

        return pcd8544_model.glass_text(self.glass(), border)

    def show(self):
        """The glass as text in a frame, for a failure message."""
        return self.screen(True)

    def dark(self, x, y, w, h):
        """How many pixels of the box are dark."""
        pixel = self.model.pixel
        n = 0
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                n += pixel(xx, yy)
        return n

    def blank(self):
        return self.dark(0, 0, 84, 48) == 0

    def shows(self, text, inverted=None):
        """True if `text` in the 8x8 framebuf font is on the glass at any position, dark on
        light or (inverted=True) light on dark; None tries both."""
        if inverted is None:
            return self.shows(text, False) or self.shows(text, True)
        w = 8 * len(text)
        buf = bytearray(w)
        fb = framebuf.FrameBuffer(buf, w, 8, framebuf.MONO_VLSB)
        fb.text(text, 0, 0, 1)
        if inverted:
            for i in range(w):
                buf[i] ^= 0xFF
        pattern = bytes(buf)
        glass = self.glass()
        row = bytearray(84)
        for y in range(41):
            bank, shift = y >> 3, y & 7
            base = bank * 84
            for x in range(84):
                col = glass[base + x] >> shift
                if shift:
                    col |= glass[base + 84 + x] << (8 - shift)
                row[x] = col & 0xFF
            if bytes(row).find(pattern) >= 0:
                return True
        return False

    def text_at(self, text, x, y, inverse=False):
        """True if the glass shows exactly `text` (8x8 font) at x, y: dark on light, or light
        on dark when inverse (a highlighted menu row)."""
        ink = 1 if inverse else 0
        w = 8 * len(text)
        buf = bytearray(w)
        fb = framebuf.FrameBuffer(buf, w, 8, framebuf.MONO_VLSB)
        fb.text(text, 0, 0, 1)
        pixel = self.model.pixel
        for yy in range(8):
            for xx in range(w):
                if 0 <= x + xx < 84 and fb.pixel(xx, yy) ^ ink != pixel(x + xx, y + yy):
                    return False
        return True

    def small(self, text, inverted=False):
        """(x, y) where the glass shows text in the small font (smallfont.py), or None."""
        import glasstext

        return glasstext.find(self.glass(), text, inverted)

    def cell(self, i):
        """'X', 'O', '.' (empty), 'cursor' (inverted cell) or '?' as the glass shows cell i."""
        x = (i % 3) * CELL_PX
        y = (i // 3) * CELL_PX
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

    def cells(self):
        return "".join(self.cell(i)[0] for i in range(9))

    def cursor(self):
        """The cell the cursor is on, -1 when none is."""
        for i in range(9):
            if self.cell(i) == "cursor":
                return i
        return -1

    def board_and_cursor(self):
        """(the board as engine.pack() makes it, the cursor's cell or -1) as the glass shows
        them; AssertionError if a cell cannot be read."""
        board = 0
        cursor = -1
        for i in range(9):
            c = self.cell(i)
            if c == "?":
                raise AssertionError("unreadable cell %d:\n%s" % (i, self.screen()))
            if c == "cursor":
                cursor = i
            board |= (1 if c == "X" else 2 if c == "O" else 0) << (2 * i)
        return board, cursor

    def status(self, row, text):
        """The status column shows `text` on row 0..4."""
        return self.text_at(text, STATUS_X, STATUS_ROWS[row])

    def status_after_glyph(self, row, text):
        return self.text_at(text, STATUS_X + 8, STATUS_ROWS[row])

    def count(self, row, label, n):
        """A tally row shows label and n right-aligned."""
        digits = str(n)
        return self.status(row, label) and self.text_at(
            digits, 84 - 8 * len(digits), STATUS_ROWS[row]
        )

    def menu_row(self, row):
        """Menu row `row` is highlighted (inverted)."""
        return self.model.pixel(0, row * 8) == 1 and self.model.pixel(83, row * 8) == 1

    def snap(self, name):
        """Print "GLASS <name> <1008 hex digits> <backlight 0/1> <Vop>" for a CPython test to
        render (testbed/lcd_render.py) or compare with a golden image (host_tests/goldens.py)."""
        model = self.model
        print(
            "GLASS",
            name,
            binascii.hexlify(model.glass()).decode(),
            1 if model.backlight else 0,
            model.vop,
        )


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
        """Let ms pass, stepping the app the way oxo.main()'s loop would."""
        end = utime.ticks_add(self.now, ms)
        spins = 0
        while utime.ticks_diff(end, self.now) > 0:
            wait = self.app.step(self.now)
            if wait and asleep(self.app):
                self.hw.doze(wait)  # what oxo.main() does with the wait while asleep
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
    import pcd8544

    lcd = pcd8544.PCD8544(
        fakebus.SPI(bus), *[fakebus.Pin(bus, n, 1) for n in ("dc", "cs", "rst", "backlight")]
    )
    if five:
        names = (buttons.UP, buttons.DOWN, buttons.LEFT, buttons.RIGHT, buttons.SELECT)
        pins = {n: fakebus.Pin(value=1) for n in names}
        pad = buttons.five_way(*[pins[n] for n in names], chords=chords)
    else:
        names = (buttons.PREV, buttons.NEXT, buttons.SELECT)
        pins = {n: fakebus.Pin(value=1) for n in names}
        pad = buttons.three_buttons(*[pins[n] for n in names])
    return hardware.Hardware(lcd, pad, doze, name, buzzer), pins


def remove(path):
    """Delete a settings file and its temporary twin, if there."""
    for name in (path, path + ".tmp"):
        try:
            os.remove(name)
        except OSError:
            pass


def read(name):
    """The text of file `name` (on the flash: the cwd), "" if there is none."""
    try:
        with open(name) as f:
            return f.read()
    except OSError:
        return ""


class Done(BaseException):
    """The script finished: unwinds the firmware (which must not catch BaseException)."""


class PowerCycle(BaseException):
    """The script pulled the plug."""


class ScriptError(BaseException):
    """The script raised args[0]; carried through the firmware unharmed."""


class Harness(Glass):
    """The whole firmware booted from main.py on a board file, under the fake machine and clock
    (see the module docstring), played by a script."""

    def __init__(self, board="pico", flash="lfs2", start_ms=0, files=None, watch=True):
        """board: a board module name (pico, esp32); flash: "lfs2"/"fat" mounts a fresh RAM flash
        (32 KB each; littlefs timed as the Pico's) at /flash and works there (settings.json,
        error.log), None keeps the cwd; start_ms: the first ticks_ms() (near 2**30 to test
        wrap-around); files: name -> text written to the flash before boot; watch=False drops
        the bus recording instead of feeding the display model (faster long runs; the glass
        cannot be read then)."""
        self.board_name = board
        self._keep = _BASE
        self._forget_firmware()  # the last run's firmware goes before anything new is made
        machine.reset_state()
        self.clock = time.use(time.FakeClock(start_ms))
        self.clock.listener = self._listen
        try:
            os.umount("/flash")
        except OSError:
            pass
        os.chdir(_HOME)
        self.disk = None
        if flash:
            import ramdisk

            # One RAM flash per kind, formatted afresh for each harness: no churn of big
            # buffers in a long test process. littlefs is the Pico's: 4 KB blocks mounted with
            # the rp2 port's progsize, each operation costing its time on the fake clock
            # (ramdisk.PICO_FLASH). FAT (32 KB of 512-byte sectors) costs nothing.
            disk = _disks.get(flash)
            if disk is None:
                if flash == "lfs2":
                    disk = ramdisk.pico_flash(8)
                else:
                    disk = ramdisk.RAMDisk(512, 64)
                _disks[flash] = disk
            progsize = ramdisk.PICO_PROGSIZE if flash == "lfs2" else None
            self.disk = ramdisk.mount(flash, "/flash", disk, progsize=progsize)
            disk.writes = 0
            disk.busy_us = 0
            disk.clock = self.clock if flash == "lfs2" else None
            os.chdir("/flash")
            for name in files or {}:
                with open(name, "w") as f:
                    f.write(files[name])
        self.hw = None  # the Hardware the board built, once built
        self.returned = False  # main() returned (safe mode): the REPL would be running
        self.watch = watch
        self.boots = 0
        self.resets = 0  # machine.reset()/soft_reset()/deepsleep() calls and watchdog bites
        self._gen = None
        self._queue = []
        self._due = None
        self._model = None  # made when first read, wired as the board wires its LCD
        self.board()

    # -- actions to yield from a script -----------------------------------------------------

    def wait(self, ms):
        """Let the firmware run for ms (a bare int yielded means the same)."""
        return (("wait", ms),)

    def press(self, button, ms=PRESS_MS, gap=GAP_MS):
        """Press and release `button` (a buttons name: SELECT, PREV, NEXT, ...)."""
        return (("down", button), ("wait", ms), ("up", button), ("wait", gap))

    def hold(self, button, ms, gap=GAP_MS):
        """Hold `button` down for ms, then release it and wait gap."""
        return self.press(button, ms, gap)

    def chord(self, a, b, ms=PRESS_MS, gap=GAP_MS):
        """Press a, then b 20 ms later, release both after ms."""
        return (
            ("down", a),
            ("wait", 20),
            ("down", b),
            ("wait", ms),
            ("up", a),
            ("up", b),
            ("wait", gap),
        )

    def until(self, predicate, timeout_ms=5000, step_ms=10):
        """Wait until predicate() is true (checked every step_ms); raise after timeout_ms."""
        return (("until", predicate, self.clock.now + timeout_ms, step_ms, timeout_ms),)

    def power_cycle(self):
        """Cut the power and boot again: RAM and pins start over, the flash keeps its files."""
        return (("cycle",),)

    # -- instant actions --------------------------------------------------------------------

    def down(self, button):
        """Push `button` now (its pin goes low: buttons pull up and switch to ground)."""
        machine.set_level(self.pin_of(button), 0)

    def up(self, button):
        """Let go of `button` now."""
        machine.set_level(self.pin_of(button), 1)

    def pin_of(self, button):
        """The pin id of a button by its buttons name, from the board's BTN_<NAME> constant."""
        import buttons

        name = buttons.BUTTON_NAMES[button]
        pin = button_pin(self.board(), name)
        if pin is None:
            raise ValueError("board %s has no BTN_%s" % (self.board_name, name.upper()))
        return pin

    # -- what the glass shows (and Glass's reads) ---------------------------------------------

    @property
    def model(self):
        """The pcd8544_model.Model of the display, brought up to date (vop, mode, anomalies)."""
        self._feed()
        if self._model is None:
            self._model = display(self.board())
        return self._model

    @property
    def now(self):
        """Fake ms since the harness started."""
        return self.clock.now

    # -- running ----------------------------------------------------------------------------

    def run(self, script, boot=None):
        """Run script(self) against the firmware booted by boot() (default: importing main, which
        runs it as a board runs main.py at power-on)."""
        self._gen = script(self)
        self._queue = []
        self._due = None
        try:
            self._step()  # the power-on state: buttons held before boot
            while True:
                try:
                    self._boot(boot)
                    self.returned = True
                    while True:  # main returned: the REPL idles, time goes on for the script
                        self.clock.sleep_ms(60000)
                except PowerCycle:
                    self._power_cycle(machine.PWRON_RESET)
                except machine.Reset as err:
                    self.resets += 1
                    self._power_cycle(err.cause)
        except Done:
            pass
        except ScriptError as err:
            raise err.args[0]  # noqa: B904 - MicroPython warns on chaining
        if self.watch:
            self._feed()

    def _boot(self, boot):
        self.boots += 1
        self.returned = False
        self.board()
        if boot is not None:
            boot()
            return
        import main  # noqa: F401 - main.py boots the firmware as it runs

    def board(self):
        """The board module (loaded as `board`, its port chosen, when the harness is made and at
        every power-on)."""
        board = sys.modules.get("board")
        if board is None:
            board = use_board(self.board_name)
            build = board.build

            def capture():
                self.hw = hw = build()
                _time_frames(hw.lcd)
                return hw

            board.build = capture  # to hand the Hardware to the script; the board is unchanged
        return board

    def _forget_firmware(self):
        # Everything imported after the harness: the firmware starts from nothing, as at boot.
        for name in list(sys.modules):
            if name not in self._keep:
                del sys.modules[name]
        gc.collect()

    def _power_cycle(self, cause):
        self._forget_firmware()
        self.hw = None
        machine.reset_state(keep_levels=True, cause=cause)
        self._model = None
        self.board()

    def _feed(self):
        bus = machine.BUS
        if len(bus):
            if not self.watch:
                raise ValueError("Harness(watch=False) does not model the display")
            if self._model is None:
                self._model = display(self.board())
            self._model.feed(bus.data)
            bus.clear()

    def _listen(self, target, light):
        # Called by every sleep of the firmware: run the script's steps that fall due before
        # target, each at its own time; a lightsleep ends at the step that fired a pin the port
        # wakes on (machine.lightsleep() dropped any wake from before it).
        clock = self.clock
        if len(machine.BUS) > 512:  # keep the recording short in long runs
            if self.watch:
                self._feed()
            else:
                machine.BUS.clear()
        while self._due is not None and self._due <= target:
            clock.step_to(self._due)
            self._due = None
            self._step()
            if light and machine.take_wake():
                return
        clock.step_to(target)

    def _step(self):
        # Do queued actions up to the next wait, resuming the script when the queue is empty.
        queue = self._queue
        while True:
            if not queue:
                try:
                    action = next(self._gen)
                except StopIteration:
                    raise Done()  # noqa: B904
                except Exception as err:
                    sys.print_exception(err)
                    raise ScriptError(err)  # noqa: B904
                if isinstance(action, int):
                    action = (("wait", action),)
                queue.extend(action)
                continue
            item = queue.pop(0)
            kind = item[0]
            if kind == "wait":
                self._due = self.clock.now + max(0, item[1])
                return
            if kind == "down":
                self.down(item[1])
            elif kind == "up":
                self.up(item[1])
            elif kind == "until":
                if not item[1]():
                    if self.clock.now >= item[2]:
                        why = "until(): still false after %d ms\n%s" % (item[4], self.screen())
                        raise ScriptError(AssertionError(why))
                    queue.insert(0, item)
                    self._due = self.clock.now + item[3]
                    return
            elif kind == "cycle":
                self._due = self.clock.now
                raise PowerCycle()
            else:
                raise ScriptError(ValueError("unknown script action %r" % (item,)))


def _time_frames(lcd):
    # A frame costs its drawing as well as its bytes (which the fake SPI charges): the CPU
    # time the port's model gives (portmodel draw_us) is spent when show() is called, as the
    # drawing has just been done. The driver is unchanged; only this instance's show is.
    show = lcd.show
    clock = time.clock()
    draw_us = machine.port().draw_us

    def timed_show():
        clock.spend_us(draw_us)
        show()

    lcd.show = timed_show


_BASE = set(sys.modules)  # the harness and what it needs survive power cycles
_HOME = os.getcwd()
_disks = {}


# -- App internals: beyond App(hw, settings) and step(now), the harness reads the App
# here and only here (a change inside the App changes these, not their callers).


def asleep(app):
    """The board is asleep: oxo.main() light-sleeps its waits (hw.doze) instead of sleep_ms."""
    import power

    return app.power.state == power.ASLEEP


def screen_of(app):
    """The controller showing (title.Title, play.Play, ...)."""
    return app.screen
