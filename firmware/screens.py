# Drawing of every app screen into the 84x48 frame buffer (no state, no allocation per frame).
# SPDX-License-Identifier: MIT
from glyphs import small_text, small_width
from micropython import const

# Screens (App.screen).
TITLE = const(0)
MENU = const(1)
PLAY = const(2)
SETTINGS = const(3)
DEMO_SCREEN = const(4)

# The board fills the left 47x47 pixels: three 15-pixel cells with 1-pixel grid lines.
CELL = const(15)
PITCH = const(16)
SIDE = const(47)
GLYPH_INSET = const(2)  # (15 - 11) // 2
# The status column: 4 characters of the 8x8 font from x=52 to the right edge.
STATUS_X = const(52)
ROW_Y = (0, 10, 22, 31, 40)  # turn, level/mode, three tally rows
RULE_Y = const(19)
CHAR = const(8)
DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")


def cell_x(i):
    return (i % 3) * PITCH


def cell_y(i):
    return (i // 3) * PITCH


def number(fb, n, right, y, c=1):
    """Draw non-negative n with its last digit ending at x=right (no string built)."""
    if n > 999:
        n = 999
    x = right - CHAR + 1
    while True:
        fb.text(DIGITS[n % 10], x, y, c)
        n //= 10
        if not n:
            return
        x -= CHAR


def grid(fb):
    for k in (CELL, CELL + PITCH):
        fb.vline(k, 0, SIDE, 1)
        fb.hline(0, k, SIDE, 1)


def marks(fb, gl, board):
    for i in range(9):
        p = (board >> (2 * i)) & 3
        if p:
            gl.draw(fb, p, cell_x(i) + GLYPH_INSET, cell_y(i) + GLYPH_INSET)


def cursor(fb, gl, i, player, solid):
    """The cursor: the cell inverted with the mover's mark in white; or the mark in black."""
    x = cell_x(i)
    y = cell_y(i)
    if solid:
        fb.fill_rect(x, y, CELL, CELL, 1)
        gl.draw(fb, player, x + GLYPH_INSET, y + GLYPH_INSET, True, True)
    else:
        gl.draw(fb, player, x + GLYPH_INSET, y + GLYPH_INSET)


def win_line(fb, line):
    """A 3-pixel stroke through the winning cells, with a white halo so it reads over marks."""
    a = line[0]
    b = line[2]
    dx = (b % 3 > a % 3) - (b % 3 < a % 3)
    dy = (b // 3 > a // 3) - (b // 3 < a // 3)
    x0 = cell_x(a) + 7 - 5 * dx
    y0 = cell_y(a) + 7 - 5 * dy
    x1 = cell_x(b) + 7 + 5 * dx
    y1 = cell_y(b) + 7 + 5 * dy
    for c, width in ((0, 2), (1, 1)):
        for o in range(-width, width + 1):
            if dy == 0:
                fb.line(x0, y0 + o, x1, y1 + o, c)
            else:
                fb.line(x0 + o, y0, x1 + o, y1, c)


def status_text(fb, row, text, c=1):
    fb.text(text, STATUS_X, ROW_Y[row], c)


def status_turn(fb, gl, player, text, row=0):
    """A small mark of `player` followed by up to three characters."""
    gl.draw(fb, player, STATUS_X - 1, ROW_Y[row], False)
    fb.text(text, STATUS_X + CHAR, ROW_Y[row], 1)


def status_count(fb, row, label, n):
    fb.text(label, STATUS_X, ROW_Y[row], 1)
    number(fb, n, 83, ROW_Y[row])


def status_rule(fb):
    fb.hline(STATUS_X - 2, RULE_Y, 84 - STATUS_X + 2, 1)


def sign(fb, text):
    """A short notice (bytes, small font) in white on a black bar over the status column's
    second row, where the eye already is: "NO UNDO" when a hold of PREV cannot undo."""
    x = STATUS_X - 2
    fb.fill_rect(x, ROW_Y[1] - 1, 84 - x, 9, 1)
    small_text(fb, text, x + (84 - x - small_width(text)) // 2, ROW_Y[1] + 1, 0)


def title(fb, gl, blink_on):
    fb.fill(0)
    x = 15
    for p in (2, 1, 2):
        fb.rect(x, 1, 15, 15, 1)
        gl.draw(fb, p, x + 2, 3)
        x += 19
    fb.text("OXO 5110", 10, 21, 1)
    fb.hline(10, 30, 64, 1)
    if blink_on:
        fb.text("press key", 6, 37, 1)


def menu_row(fb, row, label, value, highlight, editing):
    """One 8-pixel menu row: label left, value (str or int) right-aligned, inverted if chosen.

    While a value is being adjusted it is framed by < and > arrows.
    """
    y = row * CHAR
    ink = 1
    if highlight:
        fb.fill_rect(0, y, 84, CHAR, 1)
        ink = 0
    fb.text(label, 1, y, ink)
    if value is None:
        return
    right = 83
    if editing and highlight:
        fb.text("<", 43, y, ink)
        fb.text(">", 76, y, ink)
        right = 75
    if isinstance(value, int):
        number(fb, value, right, y, ink)
    else:
        fb.text(value, right + 1 - CHAR * len(value), y, ink)


_COUNT_1P = ("W", "D", "L")  # tally1: wins, draws, losses
_COUNT_2P = ("X", "O", "D")  # tally2: X wins, O wins, draws (and the demo's)
_DRAW = const(3)  # game.DRAW


def board(fb, gl, game, cur, solid, blink_on):
    """The board: grid, marks, the cursor on cell `cur` (-1: none), the winning line if on."""
    fb.fill(0)
    grid(fb)
    marks(fb, gl, game.board)
    if cur >= 0:
        cursor(fb, gl, cur, game.turn(), solid)
    if game.line is not None and blink_on:
        win_line(fb, game.line)


def status(fb, gl, game, label, tally, thinking, blink_on):
    """The status column of a 1P or 2P game: turn or result, level (or "2P"), the tally."""
    two = game.mode == 1  # game.TWO_PLAYERS
    turn = game.turn()
    if game.over():
        if game.result == _DRAW:
            if blink_on:
                status_text(fb, 0, "DRAW")
        elif two:
            status_turn(fb, gl, game.result, "WIN")
        else:
            status_text(fb, 0, "WIN!" if game.result == game.human else "LOST")
    elif two:
        status_turn(fb, gl, turn, "GO")
    elif turn == game.human:
        status_turn(fb, gl, turn, "YOU")
    else:
        status_turn(fb, gl, turn, "..." if thinking else "CPU")
    status_text(fb, 1, label)
    status_rule(fb)
    labels = _COUNT_2P if two else _COUNT_1P
    for i in range(3):
        status_count(fb, 2 + i, labels[i], tally[i])


def status_demo(fb, gl, game, label, tally, blink_on):
    """The status column of the demo: "DEMO", the mover and its level, or the result."""
    status_text(fb, 0, "DEMO")
    if not game.over():
        status_turn(fb, gl, game.turn(), label, 1)
    elif game.result != _DRAW:
        status_turn(fb, gl, game.result, "WIN", 1)
    elif blink_on:
        status_text(fb, 1, "DRAW")
    status_rule(fb)
    for i in range(3):
        status_count(fb, 2 + i, _COUNT_2P[i], tally[i])
