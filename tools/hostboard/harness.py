# Runs the real firmware (main.py, a board file, the app) on the host, played by a script.
# SPDX-License-Identifier: MIT
"""A scripted player for the whole firmware, under the MicroPython unix port.

MICROPYPATH: tools/hostboard (this file, the fake `machine` and `time`), the firmware and board
modules (compiled or source), tools (fakebus, pcd8544_model, ramdisk). The board file is
imported under its own name and installed as `board`, as deploy copies it to board.py, and
the fake machine models the MicroPython port its `PORT` names (machine.use_port: the rp2
port's clocks and light sleep, the ESP32's, or a generic board without PORT).

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
"""

import binascii
import gc
import os
import sys
import time

import buttons
import machine
import pcd8544_model

PRESS_MS = 80  # a brisk human press, well over the 30 ms debounce
GAP_MS = 80


class Done(BaseException):
    """The script finished: unwinds the firmware (which must not catch BaseException)."""


class PowerCycle(BaseException):
    """The script pulled the plug."""


class ScriptError(BaseException):
    """The script raised args[0]; carried through the firmware unharmed."""


class Harness:
    def __init__(self, board="pico", flash="lfs2", start_ms=0, files=None, watch=True):
        """board: a board module name (pico, esp32); flash: "lfs2"/"fat" mounts a fresh RAM flash
        (12/32 KB) at /flash and works there (settings.json, error.log), None keeps the cwd;
        start_ms: the first ticks_ms() (near 2**30 to test wrap-around); files: name -> text
        written to the flash before boot; watch=False drops the bus recording instead of
        feeding the display model (faster long runs; the glass cannot be read then)."""
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

            # One RAM flash per kind, formatted afresh for each harness: no 12 KB churn in a
            # long test process. FAT needs more sectors than littlefs needs blocks.
            disk = _disks.get(flash)
            if disk is None:
                disk = _disks[flash] = ramdisk.RAMDisk(512, 24 if flash == "lfs2" else 64)
            self.disk = ramdisk.mount(flash, "/flash", disk)
            disk.writes = 0
            os.chdir("/flash")
            for name in files or {}:
                with open(name, "w") as f:
                    f.write(files[name])
        self.hw = None  # the Hardware the board built, once built
        self.returned = False  # main() returned (safe mode): the REPL would be running
        self.watch = watch
        self.boots = 0
        self.resets = 0  # machine.reset()/soft_reset()/deepsleep() calls
        self._gen = None
        self._queue = []
        self._due = None
        self._new_model()

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
        board = self._board()
        attr = "BTN_" + buttons.BUTTON_NAMES[button].upper()
        pin = getattr(board, attr, None)
        if pin is None:
            raise ValueError("board %s has no %s" % (self.board_name, attr))
        return pin

    # -- what the glass shows ---------------------------------------------------------------

    def glass(self):
        """The 504 bytes the glass shows (MONO_VLSB, 1 = dark): blank when powered down."""
        self._feed()
        return self._model.glass()

    def screen(self):
        """The glass as text: 24 lines of 84 Unicode half blocks."""
        return pcd8544_model.glass_text(self.glass())

    def pixel(self, x, y):
        self._feed()
        return self._model.pixel(x, y)

    def lit(self):
        """The backlight is on."""
        self._feed()
        return self._model.backlight

    def showing(self):
        """The display is powered and out of reset (not in power-down)."""
        self._feed()
        return self._model.showing

    def shows(self, text, inverted=None):
        """True if `text` in the 8x8 framebuf font is on the glass at any position, dark on
        light or (inverted=True) light on dark; None tries both."""
        if inverted is None:
            return self.shows(text, False) or self.shows(text, True)
        import framebuf

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

    def snap(self, name):
        """Print "GLASS <name> <1008 hex digits> <backlight 0/1> <Vop>" for a CPython test to
        render (tools/lcd_render.py) or compare with a golden image (host_tests/goldens.py)."""
        glass = self.glass()
        print(
            "GLASS",
            name,
            binascii.hexlify(glass).decode(),
            1 if self.lit() else 0,
            self._model.vop,
        )

    @property
    def model(self):
        """The pcd8544_model.Model of the display, brought up to date (vop, mode, anomalies)."""
        self._feed()
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
                    self._power_cycle()
                except machine.Reset:
                    self.resets += 1
                    self._power_cycle()
        except Done:
            pass
        except ScriptError as err:
            raise err.args[0]  # noqa: B904 - MicroPython warns on chaining
        if self.watch:
            self._feed()

    def _boot(self, boot):
        self.boots += 1
        self.returned = False
        self._board()
        if boot is not None:
            boot()
            return
        import main  # noqa: F401 - main.py boots the firmware as it runs

    def _board(self):
        board = sys.modules.get("board")
        if board is None:
            board = __import__(self.board_name)
            sys.modules["board"] = board
            machine.use_port(getattr(board, "PORT", None))  # before build() makes the SPI
            build = board.build

            def capture():
                self.hw = build()
                return self.hw

            board.build = capture  # to hand the Hardware to the script; the board is unchanged
        return board

    def _forget_firmware(self):
        # Everything imported after the harness: the firmware starts from nothing, as at boot.
        for name in list(sys.modules):
            if name not in self._keep:
                del sys.modules[name]
        gc.collect()

    def _power_cycle(self):
        self._forget_firmware()
        self.hw = None
        machine.reset_state(keep_levels=True)
        self._new_model()

    def _new_model(self):
        board = self._board()
        self._model = pcd8544_model.Model(
            dc=str(board.LCD_DC),
            cs=_name(board, "LCD_CS"),
            rst=_name(board, "LCD_RST"),
            light=_name(board, "LCD_LIGHT"),
            light_on=getattr(board, "LIGHT_ON", 1),
        )

    def _feed(self):
        bus = machine.BUS
        if len(bus):
            if not self.watch:
                raise ValueError("Harness(watch=False) does not model the display")
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


_BASE = set(sys.modules)  # the harness and what it needs survive power cycles
_HOME = os.getcwd()
_disks = {}


def _name(board, attr):
    pin = getattr(board, attr, None)
    return None if pin is None else str(pin)
