# Runs the app on the host under MicroPython: the one harness of tests, benchmarks, simulator.
# SPDX-License-Identifier: MIT
"""The app on the host, under the MicroPython unix port, and what its glass shows.

Two ways to run it, with one reader of the glass (glass.py's `Glass`: text, cells, the cursor,
the status column, golden snaps) and the same buttons:

- `Rig` (rig.py): the App as a board runs it, minus the board, on fakebus stand-ins, stepped
  by the caller's clock.
- `Harness` (here): the whole firmware (main.py, a board file, the app) booted under the fake
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
firmware starts from nothing at every power-on).
"""

import gc
import os
import sys
import time  # the fake one when testbed/hostboard comes first (a Harness needs it)

import machine  # likewise
from boardpins import button_pin, display, use_board
from glass import Glass
from rig import PRESS_MS

GAP_MS = 80
# The buttons module's button names (buttons.SELECT ... RIGHT) as words: a board file's
# BTN_<NAME> pins. Here, not in buttons.py: only the stand-ins need them.
BUTTON_NAMES = ("select", "prev", "next", "up", "down", "left", "right", "extra")


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
        name = BUTTON_NAMES[button]
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
