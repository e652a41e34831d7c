"""What the simulator's compact view (simview.py) reads back off the glass as text, where braille
makes it too small to read: the status column (or the review's), signs in the small font over it
included, and the coach's marks in the board's cells; read from the pixels, whatever screen drew
them, with simulator_mp's table (read_table(): the fonts, the board's X and O, the status
layout)."""

import re
import struct
from collections import namedtuple
from functools import reduce
from itertools import groupby
from operator import or_

import glasstext
from pcd8544_model import HEIGHT, WIDTH

CELL = 15  # the board's cell as glasstext.coach_cell reads it, 15 pixels square
PITCH = CELL + 1  # a grid line between cells


def status_text(glass, table):
    """The game's status column read back from the glass as one line of text, e.g.
    "X YOU  HARD  W 0  D 1  L 2", or the review's, e.g. "X 3/7  MISTAKE  WIN  >LOSS  YOU";
    None when the glass shows neither, or without a `table` (read_table()'s) to read it with:
    the status column's layout and marks and the 8x8 font, and the small font for what is
    drawn in it (a sign over the level such as "READY", the review's lines)."""
    if table is None:
        return None
    x0, rows, rule, marks = table["status"]
    shapes = dict(marks)  # "X YOU": the player's mark, then the 8x8 font's text
    shapes.update(table["font"])
    small = table["small"]
    if not all(glasstext.columns(glass, x0 - 2, rule, WIDTH - x0 + 2, 1)):
        return _review_text(glass, shapes, small, x0, rows[0])  # no rule under the level
    texts = [_row_text(glass, shapes, small, x0, y) for y in rows]
    return "%-5s  %-4s  %s" % (texts[0], texts[1], "  ".join(texts[2:]))


def _row_text(glass, shapes, small, x, y):
    # A status row in the 8x8 font; where that does not read, in the small font, as a sign
    # (widgets.sign) covers the row and a little more: white on its black bar.
    text = " ".join(font_text(glass, shapes, x, y).split())
    if "?" in text:
        signed = _small_text(glass, small, x - 2, y, 8)
        if signed and "?" not in signed:
            return signed
    return text


_REVIEW_TOP = re.compile(r"[XO] \d+/\d+")  # the review's first row: the mover, "3/7"


def _review_text(glass, shapes, small, x, y):
    # The review's column (review.py): "X 3/7" in the 8x8 font, then its lines in the small
    # font, each a band of inked rows (the verdict may be white on a black bar); None when the
    # first row is not the review's.
    first = " ".join(font_text(glass, shapes, x, y).split())
    if not _REVIEW_TOP.fullmatch(first):
        return None
    top = y + 8
    ink = reduce(or_, glasstext.columns(glass, x - 2, top, WIDTH - x + 2, HEIGHT - top))
    texts = [first]
    for inked, band in groupby(ink >> r & 1 for r in range(HEIGHT - top)):
        rows = len(list(band))
        if inked:
            texts.append(_small_text(glass, small, x - 2, top, rows))
        top += rows
    return "  ".join(texts)


def _small_text(glass, small, x, y, h):
    """The glass's box from x, y to its right edge, h rows, read in the small font with `small`
    (read_table()'s); light on dark where most of the box is dark, as a sign's bar."""
    cols = glasstext.columns(glass, x, y, WIDTH - x, h)
    if 2 * sum(bin(col).count("1") for col in cols) > h * len(cols):
        cols = [col ^ ((1 << h) - 1) for col in cols]
    return glasstext.read_columns(cols, small)


def font_text(glass, shapes, x, y):
    """The glass's 8x8 cells from x, y to its right edge as text, each read with `shapes` (its 8
    column bytes, bit r = row y + r, as framebuf draws text -> its text; "?" unknown)."""
    cells = (bytes(glasstext.columns(glass, cx, y, 8, 8)) for cx in range(x, WIDTH - 7, 8))
    return "".join(shapes.get(cell, "?") for cell in cells)


def _shows_board(cols):
    """Whether the glass's columns show the board whose cells coach_cell reads: its grid, two
    one-pixel lines each way through the whole board, after the first and the second cell."""
    side = 3 * CELL + 2
    whole = (1 << side) - 1
    lines = [x for x in range(WIDTH) if cols[x] & whole == whole]
    if [x for x in lines if x < side] != [CELL, CELL + PITCH]:
        return False
    return all(cols[x] >> y & 1 for y in (CELL, CELL + PITCH) for x in range(side))


def _shape(cols):
    """Columns with the blank ones at either end left out and the ink moved to the top row."""
    inked = [k for k, col in enumerate(cols) if col]
    cols = cols[inked[0] : inked[-1] + 1] if inked else []
    ink = reduce(or_, cols, 0)
    top = (ink & -ink).bit_length() - 1 if ink else 0
    return tuple(col >> top for col in cols)


def read_table(payload):
    """simulator_mp.table()'s bytes as {"font": the 8x8 font (its columns -> character),
    "small": glasstext.reader()'s table of the small font, "X" and "O": the board's marks as
    _shape()s, "status": (x, row tops, rule row, {the 8x8 cell of a player's mark: "X "...})}."""
    at, fonts = 0, []
    for _ in range(2):  # the 8x8 font, the small font
        first, count, columns = payload[at : at + 3]
        at += 3
        font = {}
        for code in range(first, first + count):
            font[chr(code)] = bytes(payload[at + 1 : at + 1 + payload[at]])
            at += 1 + columns
        fonts.append(font)
    out = {
        "font": {cols: ch for ch, cols in fonts[0].items()},
        "small": glasstext.reader(fonts[1]),
    }
    big = payload[at]
    at += 1
    for name in ("X", "O"):
        out[name] = _shape(struct.unpack_from("<%dH" % big, payload, at))  # 16-bit columns
        at += 2 * big
    x, count = payload[at : at + 2]
    rows, rule = list(payload[at + 2 : at + 2 + count]), payload[at + 2 + count]
    at += 3 + count
    marks = {
        bytes(payload[at + 8 * k : at + 8 * k + 8]): name + " " for k, name in enumerate("XO")
    }
    out["status"] = (x, rows, rule, marks)
    return out


# A coach's mark as board_cells() reads it: its text ("W1", "L2", "D"), boxed as a best move,
# on the cursor's inverted cell.
Mark = namedtuple("Mark", "text boxed cursor")


def board_cells(glass, table):
    """The board's nine cells as the glass shows them, read with `table` (read_table()); None when
    it shows no board: each "X", "O", "" (empty), "?" (unread), or a Mark (coach.py's)."""
    if table is None:
        return None
    if not _shows_board(glasstext.columns(glass, 0, 0, WIDTH, HEIGHT)):
        return None
    players = {table["X"]: "X", table["O"]: "O"}
    cells = []
    for i in range(9):
        x, y = (i % 3) * PITCH, (i // 3) * PITCH
        box = glasstext.columns(glass, x, y, CELL, CELL)
        if not any(box):
            cells.append("")
            continue
        text, boxed, inverted = glasstext.coach_cell(box, table["small"])
        if text and "?" not in text:
            cells.append(Mark(text, boxed, inverted))
        else:
            cells.append(players.get(_shape(box), "?"))
    return cells


def coach_marks(glass, table):
    """board_cells() when at least one cell shows a coach's mark, else None."""
    cells = board_cells(glass, table)
    return cells if cells and any(isinstance(c, Mark) for c in cells) else None


LABEL = 4  # characters of a cell in the marks' text board
GRID_WIDTH = 3 * LABEL + 2  # the text board: three cells and two lines between them
REVERSE = "\x1b[7m%s\x1b[27m"  # the cursor's cell, inverted as on the glass


def cell_label(cell):
    """A cell of board_cells() in LABEL characters: " W1 ", "[W1]" for a boxed mark, " X  "."""
    if isinstance(cell, Mark):
        return ("[%s]" % cell.text if cell.boxed else cell.text.center(LABEL)).ljust(LABEL)
    return cell.center(LABEL)


# The coach's marks beside the braille board (coach_panel()): a heading over the text board,
# the marks' meaning under it (the Coach's words on the device, shortened).
PANEL_HEADING = "the coach's marks ([ ] = best)"
PANEL_KEY = ("W2 you win on your 2nd move", "L1 they win next   D a draw")


def coach_panel(cells, room):
    """The marks as a text board GRID_WIDTH wide, in 14 lines that line up with the braille
    frame: its top border, the board's 12 rows (a cell is 4 of them: 3 of the cell and 1 of the
    grid line), its bottom border; PANEL_HEADING over it and PANEL_KEY under it. A line longer
    than `room` characters is left blank. The cursor's cell is in reverse video."""
    between = "\u2502".join([" " * LABEL] * 3).rstrip()
    rule = "\u253c".join(["\u2500" * LABEL] * 3)
    lines = [(PANEL_HEADING, PANEL_HEADING)]  # (as it reads, as it is written)
    for r in range(3):
        row = cells[3 * r : 3 * r + 3]
        marks = ("\u2502".join(cell_label(c) for c in row), "\u2502".join(_inked(c) for c in row))
        lines += [(between, between), marks, (between, between), (rule, rule)]
    lines[-1:] = [(key, key) for key in PANEL_KEY]
    return [written if len(text) <= room else "" for text, written in lines]


def _inked(cell):
    # cell_label(), in reverse video on the cursor's cell.
    label = cell_label(cell)
    return REVERSE % label if isinstance(cell, Mark) and cell.cursor else label


def coach_line(cells):
    """The marks on one line, row by row: "coach: X W1 [W1] / L2 . O / D D X"."""
    label = lambda cell: cell_label(cell).strip() or "."  # noqa: E731
    rows = (" ".join(label(cells[3 * r + c]) for c in range(3)) for r in range(3))
    return "coach: " + " / ".join(rows)
