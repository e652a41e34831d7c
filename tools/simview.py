"""The simulator's terminal (tools/simulator.py): the LCD model's glass at its true 84x48 in half
blocks where the terminal has room, else in braille with what braille makes unreadable read back
as text (simread.py); its legend and notes; the terminal's modes while playing (raw keys, a
hidden cursor, a redraw on resize)."""

import atexit
import os
import re
import shutil
import signal
import sys
import termios
import textwrap
import tty

import lcd_render
import pcd8544_model
from simcolours import glass_paint, painted
from simread import GRID_WIDTH, coach_line, coach_marks, coach_panel, read_table, status_text

CONSOLE_KEPT = 100  # lines of the firmware's output (and of notes) kept
NOTE = "simulator: "  # begins each of the simulator's own remarks (Screen.note())
HALF_BLOCK_SIZE = (86, 33)  # columns, lines the half-block frame needs with legend and console
# Said under the compact view from the first time it is drawn until the full view is, in the
# first form that fits the terminal as it is now: how big a terminal shows every pixel.
FULL_VIEW_NOTES = (
    "this terminal is %dx%d; the full view (every pixel) needs %dx%d",
    "%dx%d: the full view (every pixel) needs %dx%d",
    "%dx%d; full view: %dx%d",
)
PANEL_GAP = 2  # spaces between the braille frame and the coach's marks beside it
# The legend's items: the buttons on its first line, the holds and q on its second (legend()).
LEGEND_ITEMS = (
    ("\u2190/\u2191 PREV", "\u2192/\u2193 NEXT", "space/enter SELECT"),
    ("h hint (hold SELECT)", "u undo (hold PREV)", "p menu (hold NEXT)", "q quit"),
)
TITLES = (
    "oxo5110 simulator - Nokia 5110 (84x48), %s",
    "oxo5110 simulator, %s",
    "oxo5110, %s",
)
# While the terminal is too small, keys are ignored (simkeys.Buttons.typed): a key that acted
# unseen (Enter leaving the title for the menu) would surprise whoever makes it big again.
KEYS_IGNORED = "keys ignored"
TOO_SMALL = (
    "terminal too small: %dx%d, need at least %dx%d; " + KEYS_IGNORED + " until then",
    "terminal too small: %dx%d, need %dx%d; " + KEYS_IGNORED,
    "too small: %dx%d, need %dx%d; " + KEYS_IGNORED,
    "too small: %dx%d, need %dx%d",  # KEYS_IGNORED on a line of its own (too_small())
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


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
        self.wake_note = None  # the last key only woke the board (till the next key plays)
        self.table = None  # simulator_mp's fonts, board marks and status layout (simread)
        self.resized = False
        self.full_view_note = None  # None: not said yet; True: said (while compact); False: gone

    def note(self, text):
        """A remark of the simulator's own, shown under the legend."""
        self.notes.append(NOTE + text)
        del self.notes[:-CONSOLE_KEPT]

    def feed(self, kind, payload):
        if kind == b"P":  # the pin names, "-" for none: dc cs rst light light_on
            *pins, light_on = (None if n == "-" else n for n in payload.decode().split())
            self.model = pcd8544_model.Model(*pins, light_on=int(light_on))
        elif kind == b"B" and self.model is not None:
            self.model.feed(payload)
        elif kind == b"T":
            self.table = read_table(payload)

    def look(self):
        """What a person sees: the glass, the backlight and the contrast (None before boot)."""
        if self.model is None:
            return None
        m = self.model
        return bytes(m.glass()), m.backlight, m.vop if m.showing else None

    def refresh(self, force=False):
        look = self.look()
        if look is None or (look == self.last and not force):
            return
        if look != self.last:
            self.frames += 1
            if self.png_dir is not None:
                lcd_render.save_png(self.model, self.png_dir / ("frame%05d.png" % self.frames))
        self.last = look
        self.draw()

    def size(self):
        """The terminal's size now (COLUMNS/LINES in the environment may be stale)."""
        try:
            return os.get_terminal_size(self.out.fileno())
        except (OSError, ValueError, AttributeError):
            return shutil.get_terminal_size((100, 40))

    def shows_glass(self, size=None):
        """False while the terminal is too small for even the braille view (compact_size())."""
        size = size or self.size()
        need = compact_size(size.columns)
        return size.columns >= need[0] and size.lines >= need[1]

    def draw(self):
        # Half blocks (84x24 characters) show every pixel; a terminal too small for that frame
        # gets braille (42x12) with what it makes unreadable as text, and until the full view
        # shows, a note on what it needs (the terminal's size now, so not kept with the notes).
        # Smaller than the braille view: one line that says so (more would wrap into garbage).
        size = self.size()
        compact = size.columns < HALF_BLOCK_SIZE[0] or size.lines < HALF_BLOCK_SIZE[1]
        if not self.shows_glass(size):
            rows = too_small(size, compact_size(size.columns))
        else:
            if compact and self.clear and self.full_view_note is None:  # a terminal can grow
                self.full_view_note = True
            elif not compact and self.full_view_note:
                self.full_view_note = False
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
            text = "\n" + "".join(ANSI.sub("", row) + "\r\n" for row in rows)
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
            rows.append("\u2502" + painted(line, parts) + "\u2502")
        rows.append("\u2514" + "\u2500" * width + "\u2518")
        if compact:
            status = status_text(look[0], self.table) if look else None
            rows.append("  status: " + status if status else "")
            marks = coach_marks(look[0], self.table) if look else None
            beside = room - len(rows[1]) - PANEL_GAP
            if marks and beside >= GRID_WIDTH:
                for k, text in enumerate(coach_panel(marks, beside)):
                    rows[1 + k] += " " * PANEL_GAP + text if text else ""
            elif marks and len(rows) + len(legend(room)) < size.lines:  # under the status line
                rows.append(("  " + coach_line(marks))[:room])
        rows.extend(legend(room))
        notes = self.console + self.notes
        notes += [note for note in (self.drop_note, self.wake_note) if note]
        if compact and self.full_view_note:
            notes.append(
                NOTE + fitting(FULL_VIEW_NOTES, room - len(NOTE), *size, *HALF_BLOCK_SIZE)
            )
        rows.extend(wrapped(notes[-4:], room, size.lines - len(rows)))
        return rows


def legend(room):
    """The key legend in lines of at most `room` characters: each line of LEGEND_ITEMS,
    wrapped between items where it is too long (an item is never cut)."""
    lines = []
    for items in LEGEND_ITEMS:
        lines.append("  " + items[0])
        for item in items[1:]:
            if len(lines[-1]) + 2 + len(item) <= room:
                lines[-1] += "  " + item
            else:
                lines.append("  " + item)
    return lines


LEGEND = legend(99)  # in a terminal wide enough: two lines


def wrapped(notes, room, lines):
    """The newest of `notes` that fit in `lines` lines of `room` characters, each wrapped at
    spaces with its later lines indented: cut at the edge, a note lost its end (a folder's
    name), and an older note shown by its first line only would read as whole."""
    rows = []
    for note in reversed(notes):
        note_rows = textwrap.wrap(note, room, subsequent_indent="  ", break_on_hyphens=False)
        if len(rows) + len(note_rows) > lines:
            return rows or note_rows[: max(0, lines)]  # the newest, as much as fits
        rows[:0] = note_rows
    return rows


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
    """The rows that say the terminal is too small and that keys are ignored: one where it
    fits, else a second line for the keys if there is one."""
    line = fitting(TOO_SMALL, size.columns - 1, size.columns, size.lines, need[0], need[1])
    if KEYS_IGNORED in line or size.lines < 2:
        return [line]
    return [line, KEYS_IGNORED[: size.columns - 1]]


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
        try:
            os.read(fd, 4096)  # a byte a signal: the pipe holds no more than this
        except BlockingIOError:
            pass
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
