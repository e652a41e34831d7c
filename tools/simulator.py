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
rings the bell as each sound begins, `--sound off` is silent.
"""

import argparse
import atexit
import bisect
import collections
import functools
import importlib.util
import inspect
import json
import math
import os
import re
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
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "testbed")]

import boardlist  # noqa: E402
import glasslook  # noqa: E402
import lcd_render  # noqa: E402
import mpy_build  # noqa: E402
import mpyrun  # noqa: E402
import pcd8544_model  # noqa: E402

TESTBED = ROOT / "testbed"
HOSTBOARD = TESTBED / "hostboard"
BUILD = ROOT / "build" / "sim"


def _pad_defaults():
    """debounce_ms, long_ms, repeat_delay_ms as firmware/buttons.py's Pad has them (the board
    files take the defaults)."""
    sys.path.insert(0, str(TESTBED / "cpython"))
    import micropython  # noqa: F401 - the CPython shim: const(), and the ticks buttons.py takes

    spec = importlib.util.spec_from_file_location("oxo5110_buttons", ROOT / "firmware/buttons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    params = inspect.signature(module.Pad.__init__).parameters
    return tuple(params[name].default for name in ("debounce_ms", "long_ms", "repeat_delay_ms"))


DEBOUNCE_MS, LONG_MS, REPEAT_DELAY_MS = _pad_defaults()
POLL_MS = 10  # firmware/app.py App.poll_ms: the buttons are sampled every 10 ms while awake
# Down (or up) this long is seen as one whole press (release) by a debouncer that ignores the
# level for DEBOUNCE_MS after an edge and only samples every POLL_MS: one poll late, one spare.
PRESS_MS = GAP_MS = DEBOUNCE_MS + 2 * POLL_MS
# A hold outlasts the time the firmware acts on it (SELECT's LONG; PREV/NEXT's first REPEAT,
# which the game reads as their long press) by a poll or two and some spare.
HOLD_SPARE_MS = 50
HOLD_MS = {
    "SELECT": LONG_MS + HOLD_SPARE_MS,
    "PREV": REPEAT_DELAY_MS + HOLD_SPARE_MS,
    "NEXT": REPEAT_DELAY_MS + HOLD_SPARE_MS,
}
AHEAD = 2  # actions handed to the firmware side at once: the next starts without a round trip
KEY_QUEUE_MAX = 16  # keyboard actions waiting (about 1.6 s of presses); more are dropped, said
DROP_NOTE_S = 3  # the dropped-keys note stays this long after the last drop, queue drained
REPEAT_MAX = 1000  # script `xN`
WAIT_MAX_MS = 600000  # script `wait`
SCRIPT_MAX_ACTIONS = 10000
BOOT_TIMEOUT_S = 30  # a script gives up if the firmware shows nothing for this long
FIRMWARE_STOPPED = 3  # exit status when the firmware stopped by itself
CONSOLE_KEPT = 100  # lines of the firmware's output (and of notes) kept

KEYS = {
    b"\x1b[D": ("PREV", False),
    b"\x1b[A": ("PREV", False),
    b"\x1b[C": ("NEXT", False),
    b"\x1b[B": ("NEXT", False),
    b" ": ("SELECT", False),
    b"\r": ("SELECT", False),
    b"\n": ("SELECT", False),
    b"h": ("SELECT", True),
    b"u": ("PREV", True),
    b"p": ("NEXT", True),
}
HALF_BLOCK_SIZE = (86, 33)  # columns, lines the half-block frame needs with legend and console
LEGEND = (
    "  \u2190/\u2191 PREV   \u2192/\u2193 NEXT   space/enter SELECT",
    "  h hint (hold SELECT)  u undo (hold PREV)  p menu (hold NEXT)  q quit",
)
# The legend's items, for narrow terminals (legend()).
LEGEND_ITEMS = (
    "\u2190/\u2191 PREV",
    "\u2192/\u2193 NEXT",
    "space/enter SELECT",
    "h hint (hold SELECT)",
    "u undo (hold PREV)",
    "p menu (hold NEXT)",
    "q quit",
)
TITLES = (
    "oxo5110 simulator - Nokia 5110 (84x48), %s",
    "oxo5110 simulator, %s",
    "oxo5110, %s",
)
TOO_SMALL = (
    "terminal too small: %dx%d, need at least %dx%d",
    "terminal too small: %dx%d, need %dx%d",
    "too small: %dx%d, need %dx%d",
)
SAFE_MODE_HELP = (
    "the firmware started in safe mode (a button was held at power-on: --hold-at-boot)\n"
    'and stopped. The glass\'s "the REPL is free" and "press reset" are for a real board;\n'
    "here, run the simulator again without --hold-at-boot to play."
)
BOOT = "import simulator_mp\nsimulator_mp.boot(%r)\n"  # board, port model, main.py
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


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


# -- the terminal view ---------------------------------------------------------------------


def colour_mode(environ, tty_out):
    """ "24bit", "256" or None: how the terminal is told the glass colours."""
    if not tty_out or "NO_COLOR" in environ:
        return None
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "24bit"
    return "256"


_CUBE = (0, 95, 135, 175, 215, 255)


def xterm256(rgb):
    """The nearest colour of the xterm 256-colour palette (its 6x6x6 cube or its greys)."""
    best = None
    for index in range(16, 256):
        if index < 232:
            n = index - 16
            c = (_CUBE[n // 36], _CUBE[n // 6 % 6], _CUBE[n % 6])
        else:
            c = (8 + 10 * (index - 232),) * 3
        d = sum((a - b) ** 2 for a, b in zip(rgb, c, strict=True))
        if best is None or d < best[0]:
            best = (d, index)
    return best[1]


def sgr(ink, paper, mode):
    """The escape sequence for ink on paper (RGB), or "" without colours."""
    if mode == "24bit":
        return "\x1b[38;2;%d;%d;%d;48;2;%d;%d;%dm" % (ink + paper)
    if mode == "256":
        return "\x1b[38;5;%d;48;5;%dm" % (xterm256(ink), xterm256(paper))
    return ""


# 256 colours are too coarse for one Vop step (about 1 RGB unit of the cell's shade): the
# glass is split into picture lines x DITHER_SEGMENTS parts, each painted with one of the two
# palette colours next to the shade on its path (an ordered dither), so each step changes some.
DITHER_SEGMENTS = 4
LADDER_SAMPLES = 256


@functools.lru_cache(maxsize=2)
def _ladder(light):
    """The xterm-256 colours met along the glass's cell-to-ink path (glasslook.shade()) for
    the backlight on/off, with the place on the path each stands for (the ends at 0 and 1)."""
    _, cell, ink = glasslook.LIT if light else glasslook.UNLIT
    codes, starts = [], []
    for i in range(LADDER_SAMPLES + 1):
        code = xterm256(glasslook.mix(cell, ink, i / LADDER_SAMPLES))
        if not codes or codes[-1] != code:
            codes.append(code)
            starts.append(i / LADDER_SAMPLES)
    places = [(a + b) / 2 for a, b in zip(starts, starts[1:] + [1.0], strict=True)]
    places[0], places[-1] = 0.0, 1.0
    return tuple(codes), tuple(places)


def _on_ladder(ladder, place, threshold):
    codes, places = ladder
    k = min(bisect.bisect_right(places, place) - 1, len(codes) - 2)
    part = (place - places[k]) / (places[k + 1] - places[k])
    return codes[k + 1] if part > threshold else codes[k]


def glass_paint(light, vop, mode, lines):
    """The escape sequence for each of DITHER_SEGMENTS parts of each of `lines` picture lines:
    the glass's ink on its cell colour; with 256 colours dithered (see DITHER_SEGMENTS)."""
    _, paper, ink = glasslook.colours(light, vop)
    if mode != "256":
        return [[sgr(ink, paper, mode)] * DITHER_SEGMENTS for _ in range(lines)]
    ladder = _ladder(bool(light))
    paper_at, ink_at = glasslook.shade(vop)
    count = lines * DITHER_SEGMENTS
    stride = _spread(count)
    paint = []
    for line in range(lines):
        row = []
        for part in range(DITHER_SEGMENTS):
            threshold = ((line * DITHER_SEGMENTS + part) * stride % count + 0.5) / count
            codes = _on_ladder(ladder, ink_at, threshold), _on_ladder(ladder, paper_at, threshold)
            row.append("\x1b[38;5;%d;48;5;%dm" % codes)
        paint.append(row)
    return paint


def _spread(count):
    """A stride coprime to count near its golden section: consecutive parts get thresholds far
    apart, so the parts that change shade are scattered over the glass."""
    stride = round(count * 0.618)
    while math.gcd(stride, count) != 1:
        stride += 1
    return stride


def _cell(glass, x, y):
    """The 8x8 pixels at (x, y) as 8 column bytes (bit r = row y + r), as framebuf draws text."""
    out = bytearray(8)
    for c in range(8):
        for r in range(8):
            yy = y + r
            if glass[(yy >> 3) * 84 + x + c] >> (yy & 7) & 1:
                out[c] |= 1 << r
    return bytes(out)


def status_text(glass, table):
    """The game's status column read back from the glass as one line of text, e.g.
    "X YOU  HARD  W 0  D 1  L 2"; None when the glass does not show one. `table` is what
    simulator_mp sends: the firmware's 8x8 font and the status column's layout and marks."""
    layout = table.get("status") if table else None
    if not layout:
        return None
    x0, rows, rule = layout["x"], layout["rows"], layout["rule"]
    dark = lambda x, y: glass[(y >> 3) * 84 + x] >> (y & 7) & 1  # noqa: E731
    if not all(dark(x, rule) for x in range(x0 - 2, 84)):
        return None  # no rule under the level: not a board screen
    shapes = {bytes.fromhex(v): k + " " for k, v in layout["marks"].items()}  # "X YOU"
    shapes.update((bytes.fromhex(v), k) for k, v in table["font"].items())
    texts = []
    for y in rows:
        chars = "".join(shapes.get(_cell(glass, x, y), "?") for x in range(x0, 84 - 7, 8))
        texts.append(" ".join(chars.split()))
    return "%-5s  %-4s  %s" % (texts[0], texts[1], "  ".join(texts[2:]))


class Screen:
    """The LCD model and its drawing; draws only frames that differ from the last one."""

    def __init__(self, out, png_dir=None, clear=True, colours=None):
        self.out = out
        self.model = None
        self.last = None
        self.frames = 0
        self.png_dir = png_dir
        self.clear = clear
        self.colours = colours
        self.console = []
        self.notes = []  # the simulator's own remarks
        self.drop_note = None  # keys dropped (one line, updated in place)
        self.table = None  # font and status layout from simulator_mp
        self.resized = False

    def note(self, text):
        """A remark of the simulator's own, shown under the legend."""
        self.notes.append("simulator: " + text)
        del self.notes[:-CONSOLE_KEPT]

    def feed(self, kind, payload):
        if kind == b"P":
            dc, cs, rst, light, light_on = payload.decode().split()
            pick = lambda name: None if name == "-" else name  # noqa: E731
            self.model = pcd8544_model.Model(
                dc=pick(dc), cs=pick(cs), rst=pick(rst), light=pick(light), light_on=int(light_on)
            )
        elif kind == b"B" and self.model is not None:
            self.model.feed(payload)
        elif kind == b"F":
            self.table = json.loads(payload)

    def look(self):
        """What a person sees: the glass, the backlight and the contrast (None before boot)."""
        if self.model is None:
            return None
        m = self.model
        return bytes(m.glass()), m.backlight, m.vop if m.showing else None

    def refresh(self, force=False):
        look = self.look()
        if look is None:
            return
        if not force and look == self.last:
            return
        if look != self.last:
            self.frames += 1
            if self.png_dir is not None:
                lcd_render.save_png(self.model, self.png_dir / ("frame%05d.png" % self.frames))
        self.last = look
        self.draw()

    def draw(self):
        # Half blocks (84x24 characters) show every pixel square; a terminal too small for
        # that frame (86x33 with the legend) gets braille, 2x4 pixels a character (42x12),
        # and the status column as text, as it is hard to read there. Smaller than the braille
        # view (compact_size()): one line that says so, as anything more would wrap into
        # garbage; the terminal's resize redraws.
        try:  # the terminal itself (COLUMNS/LINES in the environment may be stale)
            size = os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError):
            size = shutil.get_terminal_size((100, 40))
        compact = size.columns < HALF_BLOCK_SIZE[0] or size.lines < HALF_BLOCK_SIZE[1]
        need = compact_size(size.columns)
        if size.columns < need[0] or size.lines < need[1]:
            rows = [too_small(size, need)]
        else:
            rows = self._rows(size, compact)
        if self.clear:
            # Overwrite in place (no flicker): home, for each row erase the line then write it
            # (erasing after a row that fills the last column would take its last character),
            # erase the rest; no line feed after the last row, which would scroll a terminal
            # just tall enough.
            text = "\x1b[H" + "\r\n".join("\x1b[K" + row for row in rows) + "\x1b[J"
            if self.resized:  # the terminal may have rewrapped the old frame: start clean
                text = "\x1b[2J" + text
                self.resized = False
        else:
            text = "\n" + "".join(_ANSI.sub("", row) + "\r\n" for row in rows)
        self.out.write(text)
        self.out.flush()

    def _rows(self, size, compact):
        look = self.look()
        if look is None:
            lines = [" " * 42] * 12 if compact else [" " * 84] * 24
            state, paint = "starting", None
        else:
            glass, light, vop = look
            lines = lcd_render.braille(glass) if compact else lcd_render.text(glass, False)
            lines = lines.split("\n")
            paint = glass_paint(light, vop, self.colours, len(lines))
            state = "backlight %s" % ("on" if light else "off")
            if vop is None:
                state += ", display asleep"
        width = len(lines[0])
        room = size.columns - 1  # text rows keep off the last column
        rows = [fitting(TITLES, room, state)]
        rows.append("\u250c" + "\u2500" * width + "\u2510")
        for line, parts in zip(lines, paint or [None] * len(lines), strict=True):
            rows.append("\u2502" + _painted(line, parts) + "\u2502")
        rows.append("\u2514" + "\u2500" * width + "\u2518")
        if compact:
            status = status_text(look[0], self.table) if look else None
            rows.append("  status: " + status if status else "")
        rows.extend(legend(room))
        notes = self.console + self.notes + ([self.drop_note] if self.drop_note else [])
        tail = [line[:room] for line in notes[-4:]]
        rows.extend(tail[max(0, len(rows) + len(tail) - size.lines) :])
        return rows


def _painted(line, parts):
    """The picture line with each of its DITHER_SEGMENTS parts in its colours (parts None or
    all "": no colours)."""
    if not parts or not parts[0]:
        return line
    n = len(parts)
    out, last = [], None
    for i, paint in enumerate(parts):
        if paint != last:
            out.append(paint)
            last = paint
        out.append(line[len(line) * i // n : len(line) * (i + 1) // n])
    return "".join(out) + "\x1b[0m"


def legend(room):
    """The key legend in lines of at most `room` characters: LEGEND's two lines where they fit,
    else its items wrapped between items (an item is never cut)."""
    if all(len(line) <= room for line in LEGEND):
        return list(LEGEND)
    lines = ["  " + LEGEND_ITEMS[0]]
    for item in LEGEND_ITEMS[1:]:
        if len(lines[-1]) + 2 + len(item) <= room:
            lines[-1] += "  " + item
        else:
            lines.append("  " + item)
    return lines


def fitting(forms, room, *args):
    """The first of the %-forms that fits in `room` characters, else the last one cut."""
    for form in forms:
        text = form % args
        if len(text) <= room:
            return text
    return text[:room]


def compact_size(columns):
    """(columns, lines) the braille view needs: its frame, a title, the status line and the
    legend as wrapped at that width (console lines are shown as room allows)."""
    frame_columns, frame_lines = pcd8544_model.WIDTH // 2 + 2, pcd8544_model.HEIGHT // 4 + 2
    room = max(columns, frame_columns) - 1
    return frame_columns, 1 + frame_lines + 1 + len(legend(room))


def too_small(size, need):
    return fitting(TOO_SMALL, size.columns - 1, size.columns, size.lines, need[0], need[1])


# -- the buzzer ------------------------------------------------------------------------------

SOUND_MODES = ("on", "bell", "off")
PLAYERS = (("paplay",), ("pw-play",), ("aplay", "-q"), ("afplay",))  # the first found on PATH
SOUND_GAP_S = 0.15  # silence this long (longer than any rest in sound.py) ends a sound
WAV_RATE = 22050
WAV_LEVEL = 6000  # of 32767: a square wave at 2-4 kHz is shrill; this is about a fifth


def find_player(path=None):
    """The command line (a tuple) of the first audio player found on PATH, or None."""
    for command in PLAYERS:
        found = shutil.which(command[0], path=path)
        if found:
            return (found,) + command[1:]
    return None


def render_wav(notes, target, rate=WAV_RATE):
    """Write `notes` - [(ms, Hz)], each a change of the buzzer from that ms on, 0 Hz silent,
    the last entry the silence at the end - to `target` as a mono 16-bit WAV: a square wave,
    as a PWM at 50 % drives a piezo, its phase carried across notes."""
    import array
    import wave

    samples = array.array("h")
    phase = 0.0
    for (_, hz), (end, _) in zip(notes, notes[1:], strict=False):
        count = round((end - notes[0][0]) * rate / 1000) - len(samples)
        step = hz / rate
        for _ in range(count):
            samples.append((WAV_LEVEL if phase < 0.5 else -WAV_LEVEL) if hz else 0)
            phase = (phase + step) % 1.0
    with wave.open(str(target), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())


class Speaker:
    """What the firmware's buzzer plays (simulator_mp's b"S" frames: "<ms> <hz> <duty>" lines),
    made audible. "on": each sound (a run of tones ended by SOUND_GAP_S of silence) is
    rendered to a WAV and handed to an audio player in the background as soon as it ends, a
    new one stopping the one still playing; without a player, "bell" instead. "bell": the
    terminal bell as each sound begins. "off": nothing."""

    def __init__(self, mode, screen, player=None):
        if mode not in SOUND_MODES:
            raise ValueError("sound must be one of %s, not %r" % ("/".join(SOUND_MODES), mode))
        self.screen = screen
        self.player = None
        if mode == "on":
            self.player = player or find_player()
            if self.player is None:
                mode = "bell"
                screen.note("no audio player found (paplay, pw-play, aplay, afplay): the bell")
        self.mode = mode
        self.notes = []  # the sound under way: [(ms, Hz)]
        self.quiet_since = None  # monotonic time the buzzer went silent, while a sound is open
        self.folder = None
        self.sounds = 0  # sounds finished (WAVs written)
        self.playing = None  # the player process of the last sound

    def feed(self, payload):
        for line in payload.decode().splitlines():
            ms, hz, duty = (int(v) for v in line.split())
            hz = hz if 0 < duty < 65535 else 0
            if hz and not self.notes and self.mode == "bell":
                self.screen.out.write("\a")
                self.screen.out.flush()
            if hz or self.notes:
                self.notes.append((ms, hz))
            self.quiet_since = None if hz else time.monotonic()

    def wait(self):
        """Seconds until a sound under way may be over (for pump's select), or None."""
        if self.quiet_since is None or not self.notes:
            return None
        return max(0.0, self.quiet_since + SOUND_GAP_S - time.monotonic())

    def tick(self):
        """Finish the sound under way once the buzzer has been silent for SOUND_GAP_S."""
        if self.wait() != 0.0:
            return
        notes, self.notes, self.quiet_since = self.notes, [], None
        if self.mode != "on":
            return
        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="oxo5110-sound-")
        self.sounds += 1
        wav = Path(self.folder.name) / ("sound%04d.wav" % self.sounds)
        render_wav(notes, wav)
        self.stop_playing()
        self.playing = subprocess.Popen(
            self.player + (str(wav),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop_playing(self):
        if self.playing is not None and self.playing.poll() is None:
            self.playing.terminate()
            self.playing.wait()
        self.playing = None

    def close(self):
        self.stop_playing()
        if self.folder is not None:
            self.folder.cleanup()


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
        self.flash = Path(flash or BUILD / "flash")
        self.flash.mkdir(parents=True, exist_ok=True)
        self.screen = Screen(sys.stdout, png_dir, clear, colours)
        self.speaker = Speaker(sound, self.screen)
        self.heapsize = heapsize
        self.hold_at_boot = hold_at_boot
        self.queue = collections.deque()  # (button, down ms) or (None, wait ms)
        self.in_flight = 0  # actions handed to simulator_mp, not yet reported done
        self.wait_until = None
        self.ready = False
        self.dropped = 0  # keys dropped since the last one taken (Screen.drop_note)
        self.dropped_at = None
        self.inputs = {}  # more fds for pump() to wait on: fd -> callback(fd)
        self.frames_buf = bytearray()
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

    # The queue ---------------------------------------------------------------------------

    def press(self, button, hold=False):
        """Queue a press (or a hold) of button "PREV", "NEXT" or "SELECT"."""
        self.queue.append((button, HOLD_MS[button] if hold else PRESS_MS))

    def wait(self, ms):
        """Queue a pause of ms after the actions before it have finished."""
        self.queue.append((None, ms))

    def pending(self):
        """Actions not finished yet (queued or under way)."""
        return len(self.queue) + self.in_flight

    def busy(self):
        return bool(self.queue) or self.in_flight > 0 or self.wait_until is not None

    def key_dropped(self, now=None):
        """A key found the queue full: count it into the one note that says so."""
        self.dropped += 1
        self.dropped_at = time.monotonic() if now is None else now
        self.screen.drop_note = "simulator: %d key%s dropped: %d were already waiting" % (
            self.dropped,
            "" if self.dropped == 1 else "s",
            KEY_QUEUE_MAX,
        )
        self.screen.refresh(force=True)

    def drops_over(self, now=None):
        """Clear the dropped-keys note: at once (a key was taken), or given `now`, once the
        queue has drained and DROP_NOTE_S have passed since the last drop."""
        if not self.dropped:
            return
        if now is not None and (self.pending() or now - self.dropped_at < DROP_NOTE_S):
            return
        self.dropped = 0
        self.screen.drop_note = None
        self.screen.refresh(force=True)

    def _feed(self, now):
        while self.ready and self.queue:
            button, ms = self.queue[0]
            if button is None:
                if self.in_flight:
                    return  # a wait counts from the end of the action before it
                if self.wait_until is None:
                    self.wait_until = now + ms / 1000
                if now < self.wait_until:
                    return
                self.wait_until = None
            elif self.in_flight >= AHEAD:
                return
            else:
                os.write(self.keys_w, b"%s %d %d\n" % (button.encode(), ms, GAP_MS))
                self.in_flight += 1
            self.queue.popleft()

    # The loop ----------------------------------------------------------------------------

    def pump(self, timeout):
        """Wait up to timeout for firmware output or an input; False once the firmware ended."""
        now = time.monotonic()
        self._feed(now)
        if self.wait_until is not None:
            timeout = min(timeout, max(0.0, self.wait_until - now))
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
        self._feed(now)
        self.drops_over(now)
        return True

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
                self.in_flight -= 1
                if payload:
                    self.screen.note(payload.decode(errors="replace"))
            elif kind == b"S":
                self.speaker.feed(payload)
            else:
                self.screen.feed(kind, payload)
        self.screen.refresh()
        look = self.screen.look()
        if not self.ready and look is not None and any(look[0]):
            self.ready = True  # boot is over: the firmware drew its first picture

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


# -- scripts and the keyboard ----------------------------------------------------------------

SCRIPT_HELP = (
    "a line is one of: select | prev | next [xN] (N 1..%d), hold select|prev|next, "
    "wait MS (0..%d), or a # comment" % (REPEAT_MAX, WAIT_MAX_MS)
)


def read_script(path):
    """[(button, False) press, (button, True) hold, (None, ms) wait] from a script file (see
    the module docstring); ValueError naming the file and line for anything else."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            "%s: not a text script (not UTF-8 at byte %d); %s" % (path, err.start, SCRIPT_HELP)
        ) from None
    steps = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#")[0].lower().split()
        if not words:
            continue
        count = 1
        where = "%s:%d: %r" % (path, number, line.strip())
        if len(words) == 2 and re.fullmatch(r"x\d+", words[1]) and words[0] != "hold":
            count, words = int(words[1][1:]), words[:1]
            if not 1 <= count <= REPEAT_MAX:
                raise ValueError("%s: repeat count must be 1..%d" % (where, REPEAT_MAX))
        if words[0] == "wait" and len(words) == 2 and words[1].isdigit():
            if int(words[1]) > WAIT_MAX_MS:
                raise ValueError("%s: wait at most %d ms" % (where, WAIT_MAX_MS))
            steps.append((None, int(words[1])))
        elif words[0] in ("select", "prev", "next") and len(words) == 1:
            steps += [(words[0].upper(), False)] * count
        elif words[0] == "hold" and len(words) == 2 and words[1] in ("select", "prev", "next"):
            steps.append((words[1].upper(), True))
        else:
            raise ValueError("%s: cannot read this; %s" % (where, SCRIPT_HELP))
        if len(steps) > SCRIPT_MAX_ACTIONS:
            raise ValueError("%s: a script has at most %d actions" % (where, SCRIPT_MAX_ACTIONS))
    return steps


def queue_script(sim, steps):
    for button, arg in steps:
        if button is None:
            sim.wait(arg)
        else:
            sim.press(button, arg)


def run_script(sim, steps):
    """Run the steps from boot on, then let the last frames settle; False if the firmware
    stopped."""
    queue_script(sim, steps)
    while sim.busy() or not sim.ready:
        if not sim.ready and time.monotonic() - sim.started > BOOT_TIMEOUT_S:
            raise RuntimeError("the firmware showed nothing for %d s" % BOOT_TIMEOUT_S)
        if not sim.pump(0.5):
            return False
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        if not sim.pump(end - time.monotonic()):
            return False
    return True


class Keyboard:
    """Raw keys in, button actions queued; q or Ctrl-C asks to quit."""

    def __init__(self, sim, fd):
        self.sim = sim
        self.fd = fd
        self.pending = b""
        self.quit = False

    def __call__(self, fd):
        data = os.read(fd, 1024)
        if not data:
            self.quit = True
        self.pending += data
        while self.pending:
            if self.pending[:1] in (b"q", b"Q", b"\x03"):
                self.quit = True
                return
            for key, (button, hold) in KEYS.items():
                if self.pending.startswith(key):
                    self.pending = self.pending[len(key) :]
                    self.add(button, hold)
                    break
            else:
                if self.pending in (b"\x1b", b"\x1b["):
                    break  # the rest of an arrow key is on its way
                self.pending = self.pending[1:]

    def add(self, button, hold):
        sim = self.sim
        if sim.pending() >= KEY_QUEUE_MAX:
            sim.key_dropped()
            return
        sim.drops_over()  # room again: the note would be old news
        sim.press(button, hold)


def run_keyboard(sim, fd):
    keyboard = Keyboard(sim, fd)
    sim.inputs[fd] = keyboard
    while not keyboard.quit:
        if not sim.pump(1.0):
            return False
    return True


# -- the command -----------------------------------------------------------------------------


class Terminal:
    """Raw keys and a hidden cursor while playing; redraw on resize; restored exactly once."""

    def __init__(self, sim, fd):
        self.sim = sim
        self.fd = fd
        self.saved = termios.tcgetattr(fd)
        self.wake_r, self.wake_w = os.pipe()
        for end in (self.wake_r, self.wake_w):
            os.set_blocking(end, False)
        self.old_wakeup = None
        self.done = False

    def enter(self):
        atexit.register(self.restore)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        signal.signal(signal.SIGHUP, lambda *_: sys.exit(0))
        # SIGWINCH wakes the select in pump() through this pipe; the redraw happens there.
        signal.signal(signal.SIGWINCH, lambda *_: None)
        self.old_wakeup = signal.set_wakeup_fd(self.wake_w)
        self.sim.inputs[self.wake_r] = self.resized
        tty.setraw(self.fd, termios.TCSANOW)  # keys typed already are kept, not flushed
        sys.stdout.write("\x1b[?25l")
        sys.stdout.flush()

    def resized(self, fd):
        while True:
            try:
                if not os.read(fd, 64):
                    break
            except BlockingIOError:
                break
        self.sim.screen.resized = True
        self.sim.screen.draw()

    def restore(self):
        if self.done:
            return
        self.done = True
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        signal.signal(signal.SIGWINCH, signal.SIG_DFL)
        if self.old_wakeup is not None:
            signal.set_wakeup_fd(self.old_wakeup)
        sys.stdout.write("\x1b[0m\x1b[?25h")
        sys.stdout.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog=__doc__.split("\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--board", default="pico", help="board file to simulate (default pico)")
    parser.add_argument("--png", type=Path, metavar="DIR", help="save every new frame as PNG")
    parser.add_argument("--script", type=Path, metavar="FILE", help="replay presses from FILE")
    parser.add_argument("--flash", type=Path, help="the board's filesystem (build/sim/flash)")
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
    args = parser.parse_args(argv)
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
    except KeyboardInterrupt:
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
    print("\r\nsimulator: %d frames" % sim.screen.frames)
    return 0


if __name__ == "__main__":
    sys.exit(main())
