# The coach's marks on the glass: each free cell's mark (coach.mark), the best ones boxed.
# SPDX-License-Identifier: MIT
# Loaded with the coach (the App lets both go with the Coach setting), by the screens that show
# it: the game's scoring (game/coach.py) needs no display, so the host checks it on every
# position under CPython.
import coach
import smallfont
import widgets
from micropython import const

_TEXT_Y = const(5)  # the small font's 5 rows, centred in the cell: (15 - 5) // 2
# A best cell is boxed by four corners, this far inside the cell's edges and this long each
# way: a whole frame there read as a doubled grid line. The cursor's inverted cell shows them in
# white.
_FRAME = const(1)
_ARM = const(4)


def draw(fb, c, cur=-1, solid=False):
    """The marks of the coach `c` (a coach.Coach that has read the position) in the free cells
    of the board widgets.board drew; the best boxed (by corners) unless every move ties. The
    cursor's cell `cur` shows its mark in white on black if `solid`, else in black: the mover's
    mark there gives way to it (the status column says whose turn it is)."""
    scores = c.scores
    cell = widgets.CELL
    for i in range(9):
        value = scores[i]
        if not value:
            continue
        x = widgets.cell_x(i)
        y = widgets.cell_y(i)
        ink = 1
        if i == cur:
            fb.fill_rect(x, y, cell, cell, 1 if solid else 0)
            ink = 0 if solid else 1
        text = coach.mark(value)
        left = x + (cell + 1 - smallfont.width(text)) // 2  # centred in the cell
        smallfont.text(fb, text, left, y + _TEXT_Y, ink)
        if value == c.boxed:
            _corners(fb, x + _FRAME, y + _FRAME, cell - 2 * _FRAME, ink)


def _corners(fb, x, y, side, ink):
    # A square's four corners, _ARM pixels each way, its top left at x, y: the whole square less
    # the middle of each side.
    gap = side - 2 * _ARM
    fb.rect(x, y, side, side, ink)
    fb.hline(x + _ARM, y, gap, 1 - ink)
    fb.hline(x + _ARM, y + side - 1, gap, 1 - ink)
    fb.vline(x, y + _ARM, gap, 1 - ink)
    fb.vline(x + side - 1, y + _ARM, gap, 1 - ink)
