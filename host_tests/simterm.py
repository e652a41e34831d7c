"""The simulator for its tests: run in a pty, with each LCD picture the terminal shows read
back (half blocks or braille), or in this process (Board: its glass read as text)."""

import io
import os
import re
import shlex
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pexpect
import simread
import simulator
import simview

ROOT = Path(__file__).resolve().parents[1]
ANSI = simview.ANSI  # the escape sequences the view writes
SILENT = ("--sound", "off")  # the tests run the simulator quietly (the default plays sound)


# tools/simulator.py's closing line: where the board's flash is kept, and how to play on with it.
CLOSING = (
    r"simulator: your settings and scores are kept in (\S+) \(the board's flash\); (.+) plays"
)


def screens_in(text):
    """Every LCD picture the terminal output shows, in order: (its lines as lcd_render draws
    them, half blocks or braille; the status line or None). Colours are stripped."""
    out = []
    for block in ANSI.sub("", text).split("\u250c")[1:]:
        frame, _, after = block.partition("\u2514")
        rows = [line[1:] for line in frame.split("\n") if line.startswith("\u2502")]
        width = {24: 84, 12: 42}.get(len(rows))  # half blocks: 1x2 pixels; braille: 2x4
        if "q quit" not in after or not width or any(len(r) <= width for r in rows):
            continue  # cut short at the end of the output read so far
        status = re.search(r"^\s*status: (.*?)\s*$", after.split("\u250c")[0], re.M)
        out.append(([r[:width] for r in rows], status.group(1) if status else None))
    return out


def last_screen(text):
    """The lines of the last LCD the terminal shows."""
    shown = screens_in(text)
    assert shown, text[-3000:]
    return shown[-1][0]


def dots(braille):
    """The dark pixels in lines of braille (lcd_render.braille's; " " is blank)."""
    return sum(bin(max(0, ord(ch) - 0x2800)).count("1") for line in braille for ch in line)


def cursor_cell(braille):
    """The board cell drawn solid (the cursor) in lcd_render.braille's lines, or None: a cell
    and its grid lines are 8x4 characters, the cursor's over half of them dark."""
    for i in range(9):
        x, y = 8 * (i % 3), 4 * (i // 3)
        if dots(line[x : x + 8] for line in braille[y : y + 4]) > 120:
            return i
    return None


def read_until(child, out, check, timeout=15):
    """Read the simulator's output (appending to out[0]) until check(the new output since this
    call) is true; fail with the screens seen if it never is. Returns the new output."""
    start = len(out[0])
    for _ in range(int(timeout / 0.1)):
        if check(out[0][start:]):
            return out[0][start:]
        try:
            out[0] += child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            break
    new = out[0][start:]
    assert check(new), [(cursor_cell(d), s) for d, s in screens_in(new)][-20:] or new[-2000:]
    return new


def last_is(predicate):
    """A check for read_until: the last screen shown (its lines, status line) satisfies it."""
    return lambda text: bool(screens_in(text)) and predicate(*screens_in(text)[-1])


def last_drawn(text):
    """The rows of the last picture drawn in place (after its cursor-home), colours stripped."""
    return ANSI.sub("", text.split("\x1b[H")[-1]).split("\r\n")


def command(flash, *args):
    """The simulator's command line on the board's flash `flash` (tests add SILENT)."""
    return [sys.executable, str(ROOT / "tools/simulator.py"), "--flash", str(flash), *args]


def in_shell(tmp_path, *args, first="", key=None, after=None):
    """The simulator run by bash in a pty of its own, after the shell commands `first` (stty
    there sets the pty's modes), `key` typed once it has written `after` (else at once), then
    `stty -a`: (its exit status, what it wrote, the words of the pty's modes after it)."""
    line = shlex.join(command(tmp_path / "flash", *SILENT, *args))
    script = "%s echo GO; %s; echo EXIT=$?; stty -a" % (first, line)
    child = pexpect.spawn(
        "bash", ["--norc", "-c", script], encoding="utf-8", timeout=30, dimensions=(40, 100)
    )
    child.expect("GO")
    if after:
        child.expect(after)
    if key:
        child.send(key)
    child.expect(r"EXIT=(\d+)")
    status, said = int(child.match.group(1)), child.before
    child.expect(pexpect.EOF)
    return status, said, child.before.split()


def spawn(tmp_path, *args, dimensions=(40, 100)):
    """The simulator in a pty of `dimensions` (lines, columns), in 24-bit colours."""
    env = dict(os.environ, COLORTERM="truecolor")
    env.pop("NO_COLOR", None)
    argv = command(tmp_path / "flash", *SILENT, *args)
    return pexpect.spawn(argv[0], argv[1:], env=env, encoding="utf-8", dimensions=dimensions)


class Board(simulator.Simulator):
    """A simulator as `make play` runs it (LINK=`cable`), drawing into a string, started."""

    def __init__(self, flash, cable=None):
        super().__init__(flash=flash, clear=False, cable=cable)
        self.screen.out = io.StringIO()
        self.start()

    def glass(self):
        look = self.screen.look()
        return None if look is None else look[0]

    def lines(self):
        """The glass's six rows of the 8x8 font as text (link play's words)."""
        font = self.screen.table["font"]
        return [simread.font_text(self.glass(), font, 0, 8 * row).strip() for row in range(6)]

    def status(self):
        return simread.status_text(self.glass(), self.screen.table) or ""

    def cells(self):
        """The marks on the board ("" elsewhere, the cursor's cell too), or None: no board."""
        cells = simread.board_cells(self.glass(), self.screen.table)
        return None if cells is None else [c if c in ("X", "O") else "" for c in cells]

    def press(self, *buttons):
        for button in buttons:
            self.buttons.press(button)


def pump(boards, until, seconds=30):
    """Run the boards' simulators until until() holds (each pump must find its firmware
    running); fails after `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for board in boards:
            assert board.pump(0.01), board.screen.console
        if until():
            return
    raise AssertionError("never: %s" % [(b.lines(), b.status()) for b in boards if b.ready])


@contextmanager
def booted(flash):
    """A Board pumped until the firmware has drawn its first picture; stopped after."""
    board = Board(flash)
    try:
        pump((board,), lambda: board.ready)
        yield board
    finally:
        board.stop()
