# The pieces the screens draw into the frame buffer: the board and the status column.
# SPDX-License-Identifier: MIT
# No state; a frame leaves no garbage.
import glyphs
from game import DEMO, DRAW, TWO_PLAYERS
from micropython import const
from pcd8544 import WIDTH

# The board fills the left 47x47 pixels: three 15-pixel cells with 1-pixel grid lines. The one
# home of its geometry: the coach and the review draw into its cells with these.
CELL = const(15)
PITCH = const(16)  # a cell and its grid line
INSET = const(2)  # (15 - 11) // 2: a big glyph in its cell
_SIDE = const(47)
# The winning line runs through the cells' centres and reaches this far past the two end ones.
_MID = const(7)  # a cell's centre from its top left corner: CELL // 2
_REACH = const(5)
# The status column: 4 characters of the 8x8 font from x=52 to the right edge.
STATUS_X = const(52)
ROW_Y = (0, 10, 22, 31, 40)  # turn, level/mode, three tally rows
_RULE_Y = const(19)
CHAR = const(8)  # the 8x8 font's advance
_DIGITS = const(("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"))
_COUNT_1P = const(("W", "D", "L"))  # tally1: wins, draws, losses
_COUNT_2P = const(("X", "O", "D"))  # tally2: X wins, O wins, draws (and the demo's)


def cell_x(i):
    """The left edge of cell i (0..8, reading order) on the board."""
    return (i % 3) * PITCH


def cell_y(i):
    """The top edge of cell i."""
    return (i // 3) * PITCH


def number(fb, n, right, y, c=1):
    """Draw non-negative n with its last digit ending at x=right (no string built)."""
    if n > 999:
        n = 999
    x = right - CHAR + 1
    while True:
        fb.text(_DIGITS[n % 10], x, y, c)
        n //= 10
        if not n:
            return
        x -= CHAR


def board(fb, game, cur, solid, blink_on):
    """The board: grid, marks, the cursor on cell `cur` (-1: none) - the cell inverted with the
    mover's mark in white if `solid`, else the mark in black - and the winning line if on."""
    fb.fill(0)
    for k in (CELL, CELL + PITCH):
        fb.vline(k, 0, _SIDE, 1)
        fb.hline(0, k, _SIDE, 1)
    marks = game.board
    for i in range(9):
        p = (marks >> (2 * i)) & 3
        if p:
            glyphs.draw(fb, p, cell_x(i) + INSET, cell_y(i) + INSET)
    if cur >= 0:
        x = cell_x(cur)
        y = cell_y(cur)
        if solid:
            fb.fill_rect(x, y, CELL, CELL, 1)
        glyphs.draw(fb, game.turn(), x + INSET, y + INSET, True, solid)
    if game.line is not None and blink_on:
        _win_line(fb, game.line)


def _win_line(fb, line):
    # A 3-pixel stroke through the winning cells, with a white halo so it reads over marks.
    a = line[0]
    b = line[2]
    dx = (b % 3 > a % 3) - (b % 3 < a % 3)
    dy = (b // 3 > a // 3) - (b // 3 < a // 3)
    x0 = cell_x(a) + _MID - _REACH * dx
    y0 = cell_y(a) + _MID - _REACH * dy
    x1 = cell_x(b) + _MID + _REACH * dx
    y1 = cell_y(b) + _MID + _REACH * dy
    for c, width in ((0, 2), (1, 1)):
        for o in range(-width, width + 1):
            if dy == 0:
                fb.line(x0, y0 + o, x1, y1 + o, c)
            else:
                fb.line(x0 + o, y0, x1 + o, y1, c)


def status_turn(fb, player, text, row=0):
    """A small mark of `player` followed by up to three characters, on a status row."""
    glyphs.draw(fb, player, STATUS_X - 1, ROW_Y[row], False)
    fb.text(text, STATUS_X + CHAR, ROW_Y[row], 1)


def tally(fb, counts, mode):
    """The rule under the first two status rows, then the three counts of a game of `mode`
    (two players or the demo: X O D; against the CPU or another board: W D L) with their
    labels."""
    labels = _COUNT_2P if mode == TWO_PLAYERS or mode == DEMO else _COUNT_1P
    fb.hline(STATUS_X - 2, _RULE_Y, WIDTH - STATUS_X + 2, 1)
    for i in range(3):
        y = ROW_Y[2 + i]
        fb.text(labels[i], STATUS_X, y, 1)
        number(fb, counts[i], WIDTH - 1, y)


def status(fb, game, label, counts, thinking, blink_on):
    """The status column of a game: turn or result, level (or "2P", "LINK"), the tally. A
    player's game (1P, link) says YOU on the player's turn, and on the other's its mark with
    "..." if `thinking` (the CPU searching, the other board's player), else "CPU"."""
    two = game.mode == TWO_PLAYERS
    turn = game.turn()
    if game.over():
        if game.result == DRAW:
            if blink_on:
                fb.text("DRAW", STATUS_X, ROW_Y[0], 1)
        elif two:
            status_turn(fb, game.result, "WIN")
        else:
            fb.text("WIN!" if game.result == game.human else "LOST", STATUS_X, ROW_Y[0], 1)
    elif two:
        status_turn(fb, turn, "GO")
    elif turn == game.human:
        status_turn(fb, turn, "YOU")
    else:
        status_turn(fb, turn, "..." if thinking else "CPU")
    fb.text(label, STATUS_X, ROW_Y[1], 1)
    tally(fb, counts, game.mode)


def sign(fb, text):
    """A short notice (bytes, small font) in white on a black bar over the status column's
    second row, where the eye already is: "NO UNDO" when a hold of PREV cannot undo."""
    import smallfont  # loaded by the first sign: a game that never shows one never holds it

    x = STATUS_X - 2
    fb.fill_rect(x, ROW_Y[1] - 1, WIDTH - x, 9, 1)
    smallfont.text(fb, text, x + (WIDTH - x - smallfont.width(text)) // 2, ROW_Y[1] + 1, 0)
