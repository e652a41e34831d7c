"""Playing the emulated Pico (testbed/picolab.py) by its buttons, reading only its glass.

The board's geometry is widgets.py's, as testbed/glass.py reads it (that reader draws text
with MicroPython's framebuf, which CPython lacks; the cells need only pixels).
"""

import json
import subprocess

import glasstext
import lfsimage
import littlefs
import mpyrun
import pcd8544_model

CELL_PX = 16  # testbed/glass.py: 3x3 cells of 16 px from the top left


def pixel(glass, x, y):
    return (glass[(y >> 3) * pcd8544_model.WIDTH + x] >> (y & 7)) & 1


def cell(glass, i):
    """'X', 'O', '.', 'cursor' or '?' as the glass shows cell i (testbed/glass.py, cell)."""
    x = (i % 3) * CELL_PX
    y = (i // 3) * CELL_PX
    dark = sum(pixel(glass, x + dx, y + dy) for dx in range(15) for dy in range(15))
    if dark == 0:
        return "."
    if dark > 150:
        return "cursor"

    def p(dx, dy):
        return pixel(glass, x + dx, y + dy)

    corners = p(2, 2) + p(12, 2) + p(2, 12) + p(12, 12)
    edges = p(7, 2) + p(7, 12) + p(2, 7) + p(12, 7)
    if corners == 4 and p(7, 7) and edges == 0:
        return "X"
    if edges == 4 and not p(7, 7) and corners == 0:
        return "O"
    return "?"


def cursor(glass):
    """The cell the cursor is on, -1 when none is."""
    for i in range(9):
        if cell(glass, i) == "cursor":
            return i
    return -1


def glass(board):
    return board.frames[-1].glass


def play_cell(board, target):
    """Move the cursor to `target` with NEXT (reading the glass) and place the mark there."""
    for _ in range(9):
        if cursor(glass(board)) == target:
            board.press("select", ms=80, after=120)
            return
        board.press("next", ms=80, after=60)
    raise AssertionError("the cursor never reached cell %d" % target)


def join(pair, ms=600):
    """Both boards of a picopair.Pair, each on its title, to the main menu's last row, Link
    play (any key gives the menu, PREV from its first row wraps to the last, SELECT): the name
    of the board whose player is X once they have found each other (its glass shows the
    cursor, the other's none); AssertionError if not exactly one does within `ms`."""
    for name in "ab":
        pair.boards[name].press("select", "prev")
    for name in "ab":
        pair.boards[name].press("select")
    turn = []
    end = pair.boards["a"].t + ms
    while pair.boards["a"].t < end and not turn:
        pair.run(20)
        turn = [n for n in "ab" if cursor(pair.boards[n].frames[-1].glass) >= 0]
    assert len(turn) == 1, "a cursor on %s after joining" % (turn or "neither board")
    return turn[0]


def marks(glass):
    """The nine cells as the glass shows them, X, O or . (the cursor's cell is empty)."""
    return "".join("." if c == "cursor" else c for c in map(cell, [glass] * 9, range(9)))


def wait_frame(board, ms, done, after=None):
    """Run until a frame for which done(glass) holds is on the glass; that frame, else None.
    The frame there now counts, unless `after` (ms) asks for one drawn later than that."""
    seen = max(len(board.frames) - 1, 0)
    if after is not None:
        seen = next((i for i, f in enumerate(board.frames) if f.t > after), len(board.frames))
    end = board.t + ms
    while True:
        for frame in board.frames[seen:]:
            if (after is None or frame.t > after) and done(frame.glass):
                return frame
        seen = len(board.frames)
        if board.t >= end:
            return None
        board.run(min(20, end - board.t))


_TEXT8 = {}  # text -> its columns in the 8x8 font, drawn once


def text8(text):
    """`text` in MicroPython's 8x8 font as framebuf.text draws it, a column an int (bit 0 the top
    row): drawn by the unix port's framebuf, the same extmod code as the board's (CPython has
    none)."""
    if text not in _TEXT8:
        cmd, env = mpyrun.command(["-c", _DRAW8 % (text, text)], (), "64k")
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        _TEXT8[text] = list(bytes.fromhex(out.strip()))
    return _TEXT8[text]


_DRAW8 = """import framebuf
b = bytearray(8 * len(%r))
framebuf.FrameBuffer(b, len(b), 8, framebuf.MONO_VLSB).text(%r, 0, 0, 1)
print(b.hex())"""


def shows8(glass, text):
    """True if the glass shows `text` in the 8x8 font, dark on light, anywhere."""
    want = text8(text)
    w = len(want)
    for y in range(pcd8544_model.HEIGHT - 7):
        cols = glasstext.columns(glass, 0, y, pcd8544_model.WIDTH, 8)
        for x in range(pcd8544_model.WIDTH - w + 1):
            if cols[x : x + w] == want:
                return True
    return False


def settings(board):
    """settings.json as the board's flash holds it (littlefs-python mounting the flash's
    filesystem as rp2's _boot.py does), or None when there is none."""
    data = board.flash()
    context = littlefs.UserContext(len(data))
    context.buffer[:] = data
    fs = littlefs.LittleFS(
        context=context,
        block_size=lfsimage.BLOCK_SIZE,
        block_count=len(data) // lfsimage.BLOCK_SIZE,
        read_size=lfsimage.READ_SIZE,
        prog_size=lfsimage.PROG_SIZE["rp2"],
        disk_version=lfsimage.DISK_VERSION,
    )
    try:
        with fs.open("settings.json", "r") as f:
            return json.loads(f.read())
    except FileNotFoundError:
        return None
