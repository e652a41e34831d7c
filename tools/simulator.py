"""Play oxo5110 in a terminal: the unchanged firmware on the MicroPython unix port (make play).

main.py, the board file, the app and the drivers run as deployed (compiled by mpy-cross) under
the real `micropython`; only `machine` and `time` are host stand-ins (testbed/hostboard). The
LCD is the PCD8544 controller model fed with the SPI bytes and pin levels the driver sends,
drawn at its true 84x48 with Unicode half blocks (84 x 24 characters), in the colours of the
glass: the backlight on or off (dimmed) and the contrast (Vop) shade it. A terminal smaller
than 86x33 gets a compact braille view and a text status line. Keys are the buttons:

    Left / Up      PREV          Right / Down   NEXT          Space / Enter   SELECT
    h  hint (hold SELECT)        u  undo (hold PREV)          p  menu (hold NEXT)
    q / Ctrl-C     quit

Keys wait until the firmware has booted (its first picture), then run strictly in order, one
button at a time: a press is the button down 50 ms then up 50 ms (what the firmware's 30 ms
debounce and 10 ms poll need to see one whole press, each counted from its first poll of the
level, so a busy machine cannot lose a press); a hold keeps it down 50 ms past the firmware's
long-press time (SELECT 650 ms, PREV/NEXT 450 ms). Keys typed faster wait in a queue
of up to 16. `--png DIR` saves every new frame as a PNG; `--script FILE` replays presses
instead of the keyboard, from boot on: lines `select`, `prev`, `next` (optionally `xN`, N up to
1000), `hold select|prev|next`, `wait MS` (up to 600000), `#` comments; the simulator quits
when the script ends. If the firmware stops (safe mode, an error, a crash) the simulator shows
the last picture, says why and exits with status 3. Colours: 24-bit where $COLORTERM says
truecolor, else 256; none with $NO_COLOR or when the output is not a terminal. Sound (the
board's buzzer): `--sound on` (the default) renders each sound to a WAV and plays it with the
first of paplay, pw-play, aplay, afplay on PATH (the terminal bell without one), `--sound bell`
rings the bell as each sound begins, `--sound off` is silent. The board's flash (settings.json,
the tally) is $XDG_STATE_HOME/oxo5110/sim-flash (~/.local/state/...), which `make clean` keeps;
`--flash DIR` picks another; the simulator names it as it ends. A key that only wakes the board
(the firmware swallows the first press after the backlight went off) says so under the legend.
"""

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INTERRUPTED = 130  # exit status after a Ctrl-C before the first picture: 128 + SIGINT, as deploy's


def stopped_starting():
    """Say, in one line, that a Ctrl-C stopped the start-up; the exit status."""
    print("\r\nsimulator: stopped by Ctrl-C before the firmware had started", file=sys.stderr)
    return INTERRUPTED


if __name__ == "__main__":  # a Ctrl-C while the modules below load (Pillow's take a while)
    signal.signal(signal.SIGINT, lambda *_: sys.exit(stopped_starting()))

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "testbed")]

import boardlist  # noqa: E402
import mpy_build  # noqa: E402
import mpyrun  # noqa: E402
from simcolours import colour_mode  # noqa: E402
from simkeys import Buttons, read_script, run_keyboard, run_script  # noqa: E402
from simsound import SOUND_MODES, Speaker  # noqa: E402
from simview import CONSOLE_KEPT, Screen, Terminal  # noqa: E402

TESTBED = ROOT / "testbed"
HOSTBOARD = TESTBED / "hostboard"
# The simulated board's flash (settings.json, the tally) was here, where `make clean` deleted it
# without a word; an old one is moved to default_flash() on first use.
OLD_FLASH = ROOT / "build" / "sim" / "flash"
FIRMWARE_STOPPED = 3  # exit status when the firmware stopped by itself
SAFE_MODE_HELP = (
    "the firmware started in safe mode (a button was held at power-on: --hold-at-boot)\n"
    'and stopped. The glass\'s "the REPL is free" and "press reset" are for a real board;\n'
    "here, run the simulator again without --hold-at-boot to play."
)
BOOT = "import simulator_mp\nsimulator_mp.boot(%r)\n"  # board, port model, main.py


def default_flash(environ=os.environ):
    """The simulated board's flash unless --flash names one: the player's settings and tally
    are state, not a build product, so they live where `make clean` (and a fresh clone) keep
    them, one board for every checkout: $XDG_STATE_HOME/oxo5110/sim-flash, by default under
    ~/.local/state."""
    state = environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(state) / "oxo5110" / "sim-flash"


def build(board, out):
    """Compile firmware and board (as board.mpy) into out/mpy like deploy; main.py stays source."""
    mpy = out / "mpy"
    sources = [p for p in mpy_build.firmware_sources(include_boards=False) if p.name != "main.py"]
    mpy_build.compile_all(mpy, sources)
    staged = out / "board" / "board.py"
    staged.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(boardlist.board_file(board), staged)
    mpy_build.compile_module(staged, mpy)
    return mpy


# -- the firmware process and its buttons ----------------------------------------------------


class Simulator:
    """The firmware under micropython, its LCD on a Screen, and a queue of button actions.

    Actions (a press, a hold, a wait) run strictly in order once the firmware has booted (the
    glass has shown a picture, so no key can reach its safe-mode check at power-on)."""

    def __init__(
        self,
        board="pico",
        png_dir=None,
        flash=None,
        heapsize="192k",
        clear=True,
        colours=None,
        hold_at_boot=None,
        sound="off",
    ):
        self.board = board
        self.screen = Screen(sys.stdout, png_dir, clear, colours)
        if flash is None:
            flash = default_flash()
            if OLD_FLASH.is_dir() and not flash.exists():
                flash.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(OLD_FLASH, flash)
                self.screen.note("the board's flash moved to %s (make clean keeps it)" % flash)
        self.flash = Path(flash)
        self.flash.mkdir(parents=True, exist_ok=True)
        self.speaker = Speaker(sound, self.screen)
        self.buttons = Buttons(self.screen)
        self.heapsize = heapsize
        self.hold_at_boot = hold_at_boot
        self.ready = False
        self.inputs = {}  # more fds for pump() to wait on: fd -> callback(fd)
        self.frames_buf = bytearray()
        self.key_began = None  # what the glass showed as the key action under way began
        self.proc = None
        self.build_dir = None
        self.console_open = True

    def start(self):
        if mpyrun.micropython_path() is None:  # before any pipe is made
            raise RuntimeError(
                mpyrun.UNAVAILABLE + "; `make play` needs it (pip install -r "
                "requirements-dev.txt on Linux x86-64 or macOS arm64)"
            )
        self.build_dir = tempfile.TemporaryDirectory(prefix="oxo5110-sim-")
        mpy = build(self.board, Path(self.build_dir.name))
        out_r, out_w = os.pipe()
        in_r, self.keys_w = os.pipe()
        env = dict(os.environ)
        env["SIMLINK_OUT"] = "/dev/fd/%d" % out_w
        env["SIMLINK_IN"] = "/dev/fd/%d" % in_r
        env.pop("SIMLINK_HOLD", None)
        if self.hold_at_boot:
            env["SIMLINK_HOLD"] = self.hold_at_boot
        boot = BOOT % str(ROOT / "firmware" / "main.py")
        self.proc = mpyrun.spawn(
            ["-c", boot],
            (HOSTBOARD, mpy, TESTBED),
            self.heapsize,
            child_fds=(out_w, in_r),
            env=env,
            cwd=self.flash,
        )
        self.out_r = out_r
        self.started = time.monotonic()

    def pump(self, timeout):
        """Wait up to timeout for firmware output or an input; False once the firmware ended."""
        now = time.monotonic()
        self._send(now)
        if self.buttons.wait_until is not None:
            timeout = min(timeout, max(0.0, self.buttons.wait_until - now))
        if self.speaker.wait() is not None:
            timeout = min(timeout, self.speaker.wait())
        fds = [self.out_r] + ([self.proc.stdout.fileno()] if self.console_open else [])
        ready, _, _ = select.select(fds + list(self.inputs), [], [], timeout)
        if self.out_r in ready:
            data = os.read(self.out_r, 65536)
            if not data:
                return self._ended()
            self.frames_buf += data
            self._frames()
        if self.proc.stdout.fileno() in ready and self._console():
            self.screen.refresh(force=True)
        for fd in ready:
            if fd in self.inputs:
                self.inputs[fd](fd)
        self.speaker.tick()
        if self.proc.poll() is not None:
            return self._ended()
        now = time.monotonic()
        self._send(now)
        self.buttons.drops_over(now)
        return True

    def _send(self, now):
        if self.ready:  # no key may reach the firmware's safe-mode check at power-on
            idle = self.buttons.in_flight == 0
            self.buttons.send(now, lambda line: os.write(self.keys_w, line))
            if idle and self.buttons.in_flight:
                self.key_began = self.screen.look()

    def _console(self):
        data = os.read(self.proc.stdout.fileno(), 65536)
        if not data:
            self.console_open = False
            return False
        text = data.decode(errors="replace")
        console = self.screen.console
        console.extend(t for t in text.splitlines() if t.strip())
        del console[:-CONSOLE_KEPT]
        return True

    def _frames(self):
        buf = self.frames_buf
        while len(buf) >= 5:
            n = int.from_bytes(buf[1:5], "big")
            if len(buf) < 5 + n:
                break
            kind, payload = bytes(buf[:1]), bytes(buf[5 : 5 + n])
            del buf[: 5 + n]
            if kind == b"K":
                self.buttons.done()
                if payload:
                    self.screen.note(payload.decode(errors="replace"))
                else:
                    self._key_done()
            elif kind == b"S":
                self.speaker.feed(payload)
            else:
                self.screen.feed(kind, payload)
        self.screen.refresh()
        look = self.screen.look()
        if not self.ready and look is not None and any(look[0]):
            self.ready = True  # boot is over: the firmware drew its first picture

    def _key_done(self):
        # The firmware swallows the first press after the backlight went off or the display
        # went to sleep (firmware/power.py): say so, or the key looks lost. The next action
        # begins as this one ends (simulator_mp runs them back to back).
        began, now = self.key_began, self.screen.look()
        self.key_began = now
        why = woken(began, now)
        if why:
            why = "simulator: that key only woke the board (%s): the next one plays" % why
        if why != self.screen.wake_note:
            self.screen.wake_note = why
            self.screen.refresh(force=True)

    def _ended(self):
        """The firmware process ended: take in everything it still wrote; False."""
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.set_blocking(self.out_r, True)
        while True:
            data = os.read(self.out_r, 65536)
            if not data:
                break
            self.frames_buf += data
        self._frames()
        while self.console_open and self._console():
            pass
        self.screen.refresh(force=True)
        return False

    def stopped_by_itself(self):
        return self.proc is not None and self.proc.returncode is not None

    def why(self):
        """Why the firmware stopped, for the person at the terminal."""
        said = "\n".join(self.screen.console)
        if "safe mode" in said or (self.hold_at_boot and self.proc.returncode == 0):
            return SAFE_MODE_HELP
        last = "\n".join("  " + line for line in self.screen.console[-6:])
        return "the firmware stopped (exit status %s); its last output:\n%s" % (
            self.proc.returncode,
            last or "  (none)",
        )

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None:
            for fd in (self.keys_w, self.out_r):
                try:
                    os.close(fd)
                except OSError:
                    pass  # closed already (a test closes the key pipe itself)
            self.proc.stdout.close()
        if self.build_dir is not None:
            self.build_dir.cleanup()
        self.speaker.close()


def woken(before, after):
    """Why a key that took the glass from look `before` to `after` (Screen.look()) only woke
    the board, or None: the display came back from sleep, or the backlight came on with the
    picture unchanged (a key that turns the Light setting ON changes the picture too)."""
    if before is None or after is None:
        return None
    if before[2] is None and after[2] is not None:
        return "the display had gone to sleep"
    if not before[1] and after[1] and before[0] == after[0]:
        return "the backlight had gone off"
    return None


# -- the command -----------------------------------------------------------------------------


def main(argv=None):
    # From here on a Ctrl-C is a KeyboardInterrupt again: play() quits on it once the game is
    # on; before the first picture it ends here, in one line (the terminal restored first).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return play(options().parse_args(argv))
    except KeyboardInterrupt:
        return stopped_starting()


def options():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog=__doc__.split("\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--board", default="pico", help="board file to simulate (default pico)")
    parser.add_argument("--png", type=Path, metavar="DIR", help="save every new frame as PNG")
    parser.add_argument("--script", type=Path, metavar="FILE", help="replay presses from FILE")
    parser.add_argument(
        "--flash",
        type=Path,
        help="the board's filesystem: settings.json, the tally (default %s)"
        % str(default_flash()).replace(str(Path.home()), "~", 1),
    )
    parser.add_argument(
        "--sound",
        choices=SOUND_MODES,
        default="on",
        help="the buzzer: on (a WAV to an audio player found on PATH, else the bell; the "
        "default), bell (the terminal bell), off",
    )
    parser.add_argument(
        "--hold-at-boot",
        choices=("select", "prev", "next"),
        help="hold this button from power-on: the firmware's safe mode (to see it)",
    )
    return parser


def play(args):
    try:
        boardlist.board_file(args.board)
        steps = read_script(args.script) if args.script else None
    except (ValueError, OSError) as err:
        print("simulator:", err, file=sys.stderr)
        return 2
    interactive = steps is None
    if interactive and not sys.stdin.isatty():
        print("simulator: the keyboard must be a terminal (or use --script FILE)", file=sys.stderr)
        return 2
    if mpyrun.micropython_path() is None:  # said before the terminal goes raw
        print("simulator: %s; `make play` needs it" % mpyrun.UNAVAILABLE, file=sys.stderr)
        return 1
    if args.png:
        args.png.mkdir(parents=True, exist_ok=True)
    tty_out = sys.stdout.isatty()
    sim = Simulator(
        args.board,
        args.png,
        args.flash,
        clear=tty_out,
        colours=colour_mode(os.environ, tty_out),
        hold_at_boot=args.hold_at_boot and args.hold_at_boot.upper(),
        sound=args.sound,
    )
    terminal = Terminal(sim, sys.stdin.fileno()) if interactive else None
    error = None
    finished = False
    try:
        if terminal is not None:
            terminal.enter()
        sim.screen.draw()
        sim.start()
        if interactive:
            finished = run_keyboard(sim, sys.stdin.fileno())
        else:
            finished = run_script(sim, steps)
    except RuntimeError as err:
        error = str(err)
    except KeyboardInterrupt:  # a SIGINT, or Ctrl-C typed (Keyboard)
        if not sim.ready:
            raise  # before the first picture: main() says so
        finished = True
    finally:
        sim.stop()
        if terminal is not None:
            terminal.restore()
    # Everything below is said with the terminal restored (cooked mode, cursor shown).
    if error is not None:
        print("\r\nsimulator:", error, file=sys.stderr)
        return 1
    if not finished and sim.stopped_by_itself():
        print("\r\nsimulator: %s" % sim.why(), file=sys.stderr)
        return FIRMWARE_STOPPED
    print("\r\n" + "\r\n".join(closing(sim, args)))
    return 0


def closing(sim, args):
    """What the simulator says as it ends: the frames saved (--png), where the board's flash
    keeps the settings and scores, and how to play on with them."""
    lines = []
    if args.png:
        lines.append(
            "simulator: %d frames saved in %s (frame00001.png on)" % (sim.screen.frames, args.png)
        )
    home = str(Path.home())
    where = str(sim.flash)
    if where.startswith(home + os.sep):
        where = "~" + where[len(home) :]
    if args.flash is None:
        again = "`make play%s`" % ("" if args.board == "pico" else " BOARD=" + args.board)
    else:
        again = "the same command"
    lines.append(
        "simulator: your settings and scores are kept in %s (the board's flash); %s "
        "plays on with them" % (where, again)
    )
    return lines


if __name__ == "__main__":
    sys.exit(main())
