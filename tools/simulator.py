"""Play oxo5110 in a terminal: the unchanged firmware on the MicroPython unix port (make play).

main.py, the board file, the app and the drivers run as deployed (compiled by mpy-cross) under
the real `micropython`; only `machine` and `time` are host stand-ins (tools/hostboard). The
LCD is the PCD8544 controller model fed with the SPI bytes and pin levels the driver sends,
drawn at its true 84x48 with Unicode half blocks (84 x 24 characters). Keys are the buttons:

    Left / Up      PREV          Right / Down   NEXT          Space / Enter   SELECT
    h  hold SELECT (hint)        u  hold PREV (undo)          p  hold NEXT (pause)
    q / Ctrl-C     quit

A press is the button down now and up 80 ms later (a hold: 800 ms). `--png DIR` saves every
new frame as a PNG; `--script FILE` replays presses instead of reading the keyboard.
Script lines: `select`, `prev`, `next` (optionally `xN` to repeat), `hold select|prev|next`,
`wait MS`, `#` comments; the simulator quits when the script ends.
"""

import argparse
import atexit
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import boardlist  # noqa: E402
import mpy_build  # noqa: E402
import mpyrun  # noqa: E402
import pcd8544_model  # noqa: E402

HOSTBOARD = ROOT / "tools" / "hostboard"
BUILD = ROOT / "build" / "sim"
PRESS_MS = 80
HOLD_MS = 800
KEYS = {
    b"\x1b[D": ("PREV", PRESS_MS),
    b"\x1b[A": ("PREV", PRESS_MS),
    b"\x1b[C": ("NEXT", PRESS_MS),
    b"\x1b[B": ("NEXT", PRESS_MS),
    b" ": ("SELECT", PRESS_MS),
    b"\r": ("SELECT", PRESS_MS),
    b"\n": ("SELECT", PRESS_MS),
    b"h": ("SELECT", HOLD_MS),
    b"u": ("PREV", HOLD_MS),
    b"p": ("NEXT", HOLD_MS),
}
HALF_BLOCK_SIZE = (86, 33)  # columns, lines the half-block frame needs with legend and console
LEGEND = (
    "  \u2190/\u2191 PREV   \u2192/\u2193 NEXT   space/enter SELECT",
    "  h hint (hold SELECT)  u undo (hold PREV)  p pause (hold NEXT)  q quit",
)
BOOT = (
    "import machine\n"
    "machine.use_port(%r)\n"  # the board file's PORT: the fake machine models that port
    "import simlink\n"
    "with open(%r) as f:\n"
    "    exec(compile(f.read(), 'main.py', 'exec'), {'__name__': '__main__'})\n"
)


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


class Screen:
    """The LCD model and its drawing; draws only frames that differ from the last one."""

    def __init__(self, out, png_dir=None, clear=True):
        self.out = out
        self.model = None
        self.last = None
        self.frames = 0
        self.png_dir = png_dir
        self.clear = clear
        self.console = []
        self.pending = bytearray()

    def feed(self, kind, payload):
        if kind == b"P":
            dc, cs, rst, light, light_on = payload.decode().split()
            pick = lambda name: None if name == "-" else name  # noqa: E731
            self.model = pcd8544_model.Model(
                dc=pick(dc), cs=pick(cs), rst=pick(rst), light=pick(light), light_on=int(light_on)
            )
        elif kind == b"B" and self.model is not None:
            self.model.feed(payload)

    def refresh(self, force=False):
        if self.model is None:
            return
        glass = bytes(self.model.glass())
        light = self.model.backlight
        if not force and (glass, light) == self.last:
            return
        self.last = (glass, light)
        self.frames += 1
        if self.png_dir is not None:
            import lcd_render

            lcd_render.save_png(self.model, self.png_dir / ("frame%05d.png" % self.frames))
        self.draw()

    def draw(self):
        # Half blocks (84x24 characters) show every pixel square; a terminal too small for
        # that frame (86x33 with the legend) gets braille, 2x4 pixels a character (42x12).
        try:  # the terminal itself (COLUMNS/LINES in the environment may be stale)
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError):
            size = shutil.get_terminal_size((100, 40))
        compact = size.columns < HALF_BLOCK_SIZE[0] or size.lines < HALF_BLOCK_SIZE[1]
        if self.model is None:
            lines = [" " * 42] * 12 if compact else [" " * 84] * 24
        elif compact:
            import lcd_render

            lines = lcd_render.braille(self.model).split("\n")
        else:
            lines = self.model.text().split("\n")
        width = len(lines[0])
        light = "on " if self.model is not None and self.model.backlight else "off"
        rows = ["oxo5110 simulator - Nokia 5110 (84x48), backlight %s" % light]
        rows.append("\u250c" + "\u2500" * width + "\u2510")
        rows.extend("\u2502" + line + "\u2502" for line in lines)
        rows.append("\u2514" + "\u2500" * width + "\u2518")
        rows.extend(LEGEND)
        rows.extend(self.console[-4:])
        if self.clear:  # overwrite in place (no flicker): home, each row, erase the rest
            text = "\x1b[H" + "".join(row + "\x1b[K\r\n" for row in rows) + "\x1b[J"
        else:
            text = "\n" + "".join(row + "\r\n" for row in rows)
        self.out.write(text)
        self.out.flush()


class Simulator:
    def __init__(self, board="pico", png_dir=None, flash=None, heapsize="192k", clear=True):
        self.board = board
        self.flash = Path(flash or BUILD / "flash")
        self.flash.mkdir(parents=True, exist_ok=True)
        self.screen = Screen(sys.stdout, png_dir, clear)
        self.heapsize = heapsize
        self.releases = []  # (time, button) to send "up" at
        self.frames_buf = bytearray()
        self.proc = None
        self.build_dir = None

    def start(self):
        exe = mpyrun.micropython_path()
        if exe is None:
            raise RuntimeError(
                mpyrun.UNAVAILABLE + "; `make play` needs it (pip install -r "
                "requirements-dev.txt on Linux x86-64 or macOS arm64)"
            )
        self.build_dir = tempfile.TemporaryDirectory(prefix="oxo5110-sim-")
        mpy = build(self.board, Path(self.build_dir.name))
        out_r, out_w = os.pipe()
        in_r, self.keys_w = os.pipe()
        env = dict(os.environ)
        env["MICROPYPATH"] = os.pathsep.join([str(HOSTBOARD), str(mpy), str(ROOT / "tools")])
        env["SIMLINK_OUT"] = "/dev/fd/%d" % out_w
        env["SIMLINK_IN"] = "/dev/fd/%d" % in_r
        boot = BOOT % (boardlist.port_of(self.board), str(ROOT / "firmware" / "main.py"))
        self.proc = subprocess.Popen(
            [exe, "-X", "heapsize=" + self.heapsize, "-c", boot],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(out_w, in_r),
            env=env,
            cwd=self.flash,
        )
        os.close(out_w)
        os.close(in_r)
        self.out_r = out_r
        os.set_blocking(self.proc.stdout.fileno(), False)

    def press(self, button, ms=PRESS_MS):
        os.write(self.keys_w, b"%s 0\n" % button.encode())
        self.releases.append((time.monotonic() + ms / 1000, button))

    def pump(self, timeout):
        """Wait up to timeout for firmware output; handle releases, frames and console text."""
        now = time.monotonic()
        for due, button in list(self.releases):
            if due <= now:
                os.write(self.keys_w, b"%s 1\n" % button.encode())
                self.releases.remove((due, button))
        if self.releases:
            timeout = min(timeout, max(0.0, min(d for d, _ in self.releases) - now))
        ready, _, _ = select.select([self.out_r, self.proc.stdout.fileno()], [], [], timeout)
        if self.out_r in ready:
            data = os.read(self.out_r, 65536)
            if not data:
                return False
            self.frames_buf += data
            self._frames()
        if self.proc.stdout.fileno() in ready:
            text = os.read(self.proc.stdout.fileno(), 65536).decode(errors="replace")
            self.screen.console.extend(t for t in text.splitlines() if t.strip())
            self.screen.refresh(force=True)
        if self.proc.poll() is not None:
            return False
        return True

    def _frames(self):
        buf = self.frames_buf
        while len(buf) >= 5:
            n = int.from_bytes(buf[1:5], "big")
            if len(buf) < 5 + n:
                break
            self.screen.feed(bytes(buf[:1]), bytes(buf[5 : 5 + n]))
            del buf[: 5 + n]
        self.screen.refresh()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.build_dir is not None:
            self.build_dir.cleanup()


def read_script(path):
    """[(button or None, hold ms or wait ms)] from a script file (see the module docstring)."""
    steps = []
    for number, raw in enumerate(Path(path).read_text().splitlines(), 1):
        words = raw.split("#")[0].split()
        if not words:
            continue
        count = 1
        if len(words) == 2 and words[1].startswith("x") and words[1][1:].isdigit():
            count, words = int(words[1][1:]), words[:1]
        if words[0] == "wait" and len(words) == 2 and words[1].isdigit():
            steps.append((None, int(words[1])))
        elif words[0] in ("select", "prev", "next") and len(words) == 1:
            steps += [(words[0].upper(), PRESS_MS)] * count
        elif words[0] == "hold" and len(words) == 2 and words[1] in ("select", "prev", "next"):
            steps.append((words[1].upper(), HOLD_MS))
        else:
            raise ValueError("%s:%d: cannot read %r" % (path, number, raw))
    return steps


def run_script(sim, steps):
    for button, ms in steps:
        if button is not None:
            sim.press(button, ms)
            ms += PRESS_MS  # the gap after a release, as a person's next press
        end = time.monotonic() + ms / 1000
        while time.monotonic() < end:
            if not sim.pump(end - time.monotonic()):
                return
    end = time.monotonic() + 0.5
    while time.monotonic() < end and sim.pump(end - time.monotonic()):
        pass


def run_keyboard(sim):
    fd = sys.stdin.fileno()
    pending = b""
    while True:
        if not sim.pump(0.02):
            return
        if not select.select([fd], [], [], 0)[0]:
            continue
        pending += os.read(fd, 64)
        while pending:
            if pending[:1] in (b"q", b"Q", b"\x03"):
                return
            for key, (button, ms) in KEYS.items():
                if pending.startswith(key):
                    sim.press(button, ms)
                    pending = pending[len(key) :]
                    break
            else:
                if pending == b"\x1b" or pending == b"\x1b[":
                    break  # the rest of an arrow key is on its way
                pending = pending[1:]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--board", default="pico", help="board file to simulate (default pico)")
    parser.add_argument("--png", type=Path, metavar="DIR", help="save every new frame as PNG")
    parser.add_argument("--script", type=Path, metavar="FILE", help="replay presses from FILE")
    parser.add_argument("--flash", type=Path, help="the board's filesystem (build/sim/flash)")
    args = parser.parse_args(argv)
    try:
        boardlist.board_file(args.board)
        steps = read_script(args.script) if args.script else None
    except (ValueError, OSError) as err:
        print("simulator:", err, file=sys.stderr)
        return 2
    if args.png:
        args.png.mkdir(parents=True, exist_ok=True)
    interactive = steps is None
    if interactive and not sys.stdin.isatty():
        print("simulator: the keyboard must be a terminal (or use --script FILE)", file=sys.stderr)
        return 2
    sim = Simulator(args.board, args.png, args.flash, clear=sys.stdout.isatty())
    saved = None
    if interactive:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)

        def restore(*_):
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            sys.stdout.write("\x1b[?25h")
            sys.stdout.flush()

        atexit.register(restore)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        signal.signal(signal.SIGHUP, lambda *_: sys.exit(0))
        tty.setraw(fd)
        sys.stdout.write("\x1b[?25l")
    try:
        sim.start()
        sim.screen.draw()
        if interactive:
            run_keyboard(sim)
        else:
            run_script(sim, steps)
    except RuntimeError as err:
        print("simulator:", err, file=sys.stderr)
        return 1
    finally:
        sim.stop()
        if saved is not None:
            restore()
    if sim.proc.returncode not in (None, 0, -signal.SIGTERM, -signal.SIGKILL):
        print("simulator: the firmware stopped (exit %s)" % sim.proc.returncode, file=sys.stderr)
    print("\r\nsimulator: %d frames" % sim.screen.frames)
    return 0


if __name__ == "__main__":
    sys.exit(main())
