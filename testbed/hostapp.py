# Runs the app on the host under MicroPython: the one way of tests, benchmarks and simulator.
# SPDX-License-Identifier: MIT
"""`HostApp`: the firmware on the MicroPython unix port, on testbed/hostboard's fake `machine`
and `time` (first on MICROPYPATH), read through glass.py's `Glass`. The board comes up one way:
its board file as `board` with its port modelled (boardpins.use_board), a fresh RAM flash as
the cwd, a fake clock (or the one given); the virtual board (virtualboard_mp.py) has no board
file yet and its flash directory as "/". Then, with the same buttons (`down`, `up`; the actions
`press`, `chord`, `wait`, `until`) and glass:

- `play(script)`: power-on through main.py; `script(h)` yields the actions, done at their exact
  times inside the firmware's sleeps (a press on a pin the port wakes on ends a lightsleep:
  an ESP32's ext0 pin, never rp2's). The script's exceptions and the firmware's own escape
  (KeyboardInterrupt ...) are raised from play().
- `start()` (or `alone=True`): App(hw, settings) alone on the board's hardware, stepped by the
  caller as startup.main()'s loop steps it: `run(ms or actions)`; `click(b)` = run(press(b)).

    def script(h):
        h.down(SELECT)          # instant: held at power-on
        yield h.wait(500)       # 500 ms of fake time (or: yield 500)
        h.up(SELECT)
        yield h.press(NEXT)     # down, 80 ms, up, 80 ms
        yield h.until(lambda: h.shows("YOUR MOVE"), 2000)
        h.snap("board")         # "GLASS board <hex> <lit> <Vop>" for a CPython test
    HostApp("pico").play(script)

    r = HostApp(alone=True)
    r.click(NEXT)
    r.run(500)

The fake clock moves only when the firmware sleeps or charges work (the Pico's flash, frames,
SPI bytes); session.Timing(h) records the loop's timing over a play. A HostApp forgets the
firmware the last one loaded.
"""

import gc
import os
import sys
import time  # the fake one when testbed/hostboard comes first (a HostApp needs it)

import machine  # likewise
from boardpins import button_pin, display, use_board, used
from glass import Glass
from hostscript import Done, PowerCycle, Script, ScriptError

PRESS_MS = 80  # a brisk human press, well over the 30 ms debounce
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


class HostApp(Glass):
    """A board file brought up on the host's stand-ins, then the firmware booted from main.py
    (play) or the App alone (start): see the module docstring."""

    def __init__(
        self, board="pico", flash="lfs2", start_ms=0, files=None, glass=True, alone=False,
        clock=None, port=None,
    ):  # fmt: skip
        """board: a board module name (pico, esp32), or None before any board file (the virtual
        board's main.py imports board.mpy), `port` then the port modelled; flash: "lfs2"/"fat"
        mounts a fresh RAM flash (32 KB each; littlefs timed as the Pico's) at /flash and works
        there (settings.json, error.log), a host directory is the whole filesystem (_mount),
        None keeps the cwd; start_ms: the first ticks_ms() (near 2**30 to test wrap-around);
        files: name -> text written to the flash before boot; glass=False drops the bus
        recording instead of feeding the display model (faster long runs; the glass cannot be
        read then); alone: start() the App alone now; clock: a clock to run on instead of a
        fake one (time.RealClock: the simulator, a benchmark's own steps)."""
        self.board_name = board
        self._forget_firmware()  # the last run's firmware goes before anything new is made
        machine.reset_state()
        self.clock = time.use(clock or time.FakeClock(start_ms))
        if clock is None:
            self.clock.listener = self._listen
        try:
            os.umount("/flash")
            os.chdir(_HOME)  # off the last HostApp's flash; flash=None keeps any other cwd
        except OSError:
            pass
        self.disk = None
        if flash in ("lfs2", "fat"):
            import ramdisk

            self.disk = ramdisk.board_flash(flash, "/flash", self.clock)
            os.chdir("/flash")
        elif flash:
            _mount(flash)
        if flash:
            for name in files or {}:
                with open(name, "w") as f:
                    f.write(files[name])
        self.hw = None  # the Hardware the board built, once built
        self.app = None  # the App alone, once start()ed
        self.returned = False  # main() returned (safe mode): the REPL would be running
        self.watch = glass
        self.boots = 0
        self.resets = 0  # machine.reset() calls and watchdog bites
        self._script = None  # the hostscript.Script being played
        self._model = None  # made when first read, wired as the board wires its LCD
        if board is None:
            machine.use_port(port)
        else:
            self.board()
        if alone:
            self.start()

    # -- actions to yield from a script -----------------------------------------------------

    def wait(self, ms):
        """Let the firmware run for ms (a bare int yielded means the same)."""
        return (("wait", ms),)

    def press(self, button, ms=PRESS_MS, gap=GAP_MS):
        """Press and release `button` (a buttons name: SELECT, PREV, NEXT, ...)."""
        return (("down", button), ("wait", ms), ("up", button), ("wait", gap))

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
        return self._model

    @property
    def now(self):
        """Fake ms since the HostApp started (ticks_ms() less start_ms)."""
        return self.clock.now

    # -- running ----------------------------------------------------------------------------

    def play(self, script, boot=None):
        """Run script(self) against the firmware booted by boot() (default: importing main, which
        runs it as a board runs main.py at power-on)."""
        self._script = played = Script(self, script)
        try:
            played.step()  # the power-on state: buttons held before boot
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

    # -- the App alone, stepped by the caller ---------------------------------------------

    def start(self, path="settings.json", buzzer=False):
        """App(hw, settings) as startup.main() makes it, on hardware the board builds, with its
        settings file at `path`, and the board's buzzer only if `buzzer` (the checks of the
        screens are of a silent board: a sounding note holds a save back); run() steps it.
        Called again: the next power-on (the flash and the buttons held are kept). Returns
        self."""
        import app
        import settings

        self.path = path
        self.hardware(buzzer)
        self.settings = settings.Settings.load(path)
        self.app = app.App(self.hw, self.settings)
        return self

    def hardware(self, buzzer=False):
        """The Hardware the board builds (again: after a power-on that keeps the buttons held),
        without its buzzer unless `buzzer`; also self.hw."""
        if self.hw is not None:
            machine.reset_state(keep_levels=True)
            self._model = None
        board = self.board()
        if not buzzer:
            board.BUZZER = None  # a board file builds its buzzer (and loads sound.py) only if set
        self.hw = board.build()
        return self.hw

    def run(self, what):
        """Let `what` happen to the App alone: ms (an int), or the actions wait, press, chord,
        until return, done by the Script a play() does them with, stepping the App as
        startup.main()'s loop does."""
        script = Script(self, lambda h: iter((what,)))
        try:
            while True:
                script.step()  # the actions up to the next wait, which ends at due_at
                self._loop(script.due_at - self.clock.now)
        except Done:
            pass
        except ScriptError as err:
            raise err.args[0]  # noqa: B904 - MicroPython warns on chaining

    def _loop(self, ms):
        # startup.main()'s loop for ms: the App's wait slept, or light-slept (hw.doze) while
        # it is asleep.
        from power import ASLEEP

        clock, app = self.clock, self.app
        end = clock.now + ms
        spins = 0
        while clock.now < end:
            wait = app.step(time.ticks_ms())
            if not wait:
                spins += 1
                if spins > 20:
                    raise AssertionError("step() keeps asking to come back at once")
                continue
            spins = 0
            wait = min(wait, end - clock.now)
            if self.hw.doze is not None and app.power.state == ASLEEP:
                self.hw.doze(wait)
            else:
                clock.sleep_ms(wait)

    def click(self, button, ms=PRESS_MS, after=60):
        """Press `button` for ms, then let the App run for `after` ms."""
        self.run(self.press(button, ms, after))

    def hold(self, button, ms=700):
        self.click(button, ms)

    def steady(self, i):
        """cell(i), read while a blinking winning line is off (it crosses the glyphs)."""
        for _ in range(4):
            c = self.cell(i)
            if c != "?":
                return c
            self.run(200)
        return c

    # -- power-on through main.py --------------------------------------------------------

    def _boot(self, boot):
        self.boots += 1
        self.returned = False
        self.board()
        if boot is not None:
            boot()
            return
        import main  # noqa: F401 - main.py boots the firmware as it runs

    def board(self):
        """The board module (loaded as `board`, its port chosen, when the HostApp is made and at
        every power-on; with no board file, the one the firmware imported: boardpins.used())."""
        board = sys.modules.get("board")
        if self.board_name is None:
            return used()
        if board is None:
            board = use_board(self.board_name)
            build = board.build

            def capture():
                self.hw = hw = build()
                _time_frames(hw.lcd, not self.watch)
                return hw

            board.build = capture  # to hand the Hardware to the script; the board is unchanged
        return board

    def _forget_firmware(self):
        # Everything imported after the test bed but the test bed's own later imports (its
        # caches: glasstext's font): the firmware starts from nothing, as at boot.
        for name in list(sys.modules):
            where = getattr(sys.modules[name], "__file__", "")
            if name not in _BASE and not (_BED and where.startswith(_BED)):
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
        if len(bus) and not self.watch:
            raise ValueError("HostApp(glass=False) does not model the display")
        if self._model is None:
            self._model = display(self.board())
        self._model.feed(bus.data)
        bus.clear()

    def _listen(self, target, light):
        # Called by every sleep of the firmware (the fake clock's listener): the script's steps
        # due before target run first (hostscript.Script.due), each at its own time.
        if len(machine.BUS) > 512:  # keep the recording short in long runs
            if self.watch:
                self._feed()
            else:
                machine.BUS.clear()
        if self._script is not None and self._script.due(target, light):
            return  # a lightsleep woken by the script's press
        self.clock.step_to(target)


def _time_frames(lcd, drop):
    # A frame costs its drawing as well as its bytes (which the fake SPI charges): the CPU
    # time the port's model gives (portmodel draw_us) is spent when show() is called, as the
    # drawing has just been done; with `drop` its recording goes at once (a long run that
    # never sleeps). The driver is unchanged; only this instance's show is.
    show = lcd.show
    clock = time.clock()
    draw_us = machine.port().draw_us

    def timed_show():
        clock.spend_us(draw_us)
        show()
        if drop:
            machine.BUS.clear()

    lcd.show = timed_show


def _mount(flash):
    # The virtual board's flash directory as "/" (mpremote's "/main.py" lands in it), the cwd
    # and a board's sys.path; the host's other files are out of reach after.
    try:
        os.umount("/")
    except OSError:
        pass
    os.mount(os.VfsPosix(flash), "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]


_BASE = set(sys.modules)  # the test bed and what it needs survive power cycles
_BED = __file__[: __file__.rfind("/") + 1]  # the test bed's folder ("" if unknown)
_HOME = os.getcwd()
