# Reads the glass of the app under test: text, the board's cells and cursor, the status column.
# SPDX-License-Identifier: MIT
"""`Glass`, the one reader of what a HostApp's display shows. The controller model is imported
when first needed: the simulator's MicroPython half, which feeds its recording to the host
instead, does not carry it."""

import binascii

import framebuf
import glasstext

# The board screen (widgets.py): 3x3 cells of 16 px from the top left, the status column at
# x=52 with its rows' tops.
CELL_PX = 16
STATUS_X = 52
STATUS_ROWS = (0, 10, 22, 31, 40)


def _font8(text):
    """`text` in the 8x8 framebuf font as its columns, MONO_VLSB (bit 0 the top row)."""
    buf = bytearray(8 * len(text))
    framebuf.FrameBuffer(buf, len(buf), 8, framebuf.MONO_VLSB).text(text, 0, 0, 1)
    return buf


class Glass:
    """What the glass shows, read from `self.model` (a pcd8544_model.Model kept up to date by
    the HostApp): text in either font, the board's cells and cursor, the status column, menu
    rows."""

    def glass(self):
        """The 504 bytes the glass shows (MONO_VLSB, 1 = dark): blank when powered down."""
        return self.model.glass()

    def pixel(self, x, y):
        return self.model.pixel(x, y)

    def lit(self):
        """The backlight is on."""
        return self.model.backlight

    def showing(self):
        """The display is powered and out of reset (not in power-down)."""
        return self.model.showing

    def screen(self, border=False):
        """The glass as text: 24 lines of 84 Unicode half blocks."""
        import pcd8544_model

        return pcd8544_model.glass_text(self.glass(), border)

    def show(self):
        """The glass as text in a frame, for a failure message."""
        return self.screen(True)

    def dark(self, x, y, w, h):
        """How many pixels of the box are dark."""
        pixel = self.model.pixel
        n = 0
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                n += pixel(xx, yy)
        return n

    def blank(self):
        return self.dark(0, 0, 84, 48) == 0

    def shows(self, text, inverted=None):
        """True if `text` in the 8x8 framebuf font is on the glass at any position, dark on
        light or (inverted=True) light on dark; None tries both."""
        if inverted is None:
            return self.shows(text, False) or self.shows(text, True)
        return glasstext.find_columns(self.glass(), _font8(text), 8, inverted) is not None

    def text_at(self, text, x, y, inverse=False):
        """True if the glass shows exactly `text` (8x8 font) at x, y: dark on light, or light
        on dark when inverse (a highlighted menu row); what runs off the right edge is not
        read."""
        cols = _font8(text)[: 84 - x]
        box = (x, y, len(cols), 8)
        return glasstext.find_columns(self.glass(), cols, 8, inverse, box) == (x, y)

    def small(self, text, inverted=False):
        """(x, y) where the glass shows text in the small font (smallfont.py), or None."""
        return glasstext.find(self.glass(), text, inverted)

    def cell(self, i):
        """'X', 'O', '.' (empty), 'cursor' (inverted cell) or '?' as the glass shows cell i."""
        x = (i % 3) * CELL_PX
        y = (i // 3) * CELL_PX
        n = self.dark(x, y, 15, 15)
        if n == 0:
            return "."
        if n > 150:
            return "cursor"
        p = self.model.pixel
        corners = p(x + 2, y + 2) + p(x + 12, y + 2) + p(x + 2, y + 12) + p(x + 12, y + 12)
        edges = p(x + 7, y + 2) + p(x + 7, y + 12) + p(x + 2, y + 7) + p(x + 12, y + 7)
        if corners == 4 and p(x + 7, y + 7) and edges == 0:
            return "X"
        if edges == 4 and not p(x + 7, y + 7) and corners == 0:
            return "O"
        return "?"

    def coach_mark(self, i):
        """What the coach (coach.py) shows in cell i: glasstext.coach_cell's (mark, boxed,
        inverted)."""
        x = (i % 3) * CELL_PX
        y = (i // 3) * CELL_PX
        return glasstext.coach_cell(glasstext.columns(self.glass(), x, y, 15, 15))

    def cursor(self):
        """The cell the cursor is on, -1 when none is."""
        for i in range(9):
            if self.cell(i) == "cursor":
                return i
        return -1

    def board_and_cursor(self):
        """(the board as the engine takes it, the cursor's cell or -1) as the glass shows
        them; AssertionError if a cell cannot be read."""
        board = 0
        cursor = -1
        for i in range(9):
            c = self.cell(i)
            if c == "?":
                raise AssertionError("unreadable cell %d:\n%s" % (i, self.screen()))
            if c == "cursor":
                cursor = i
            board |= (1 if c == "X" else 2 if c == "O" else 0) << (2 * i)
        return board, cursor

    def status(self, row, text):
        """The status column shows `text` on row 0..4."""
        return self.text_at(text, STATUS_X, STATUS_ROWS[row])

    def status_after_glyph(self, row, text):
        return self.text_at(text, STATUS_X + 8, STATUS_ROWS[row])

    def count(self, row, label, n):
        """A tally row shows label and n right-aligned."""
        digits = str(n)
        return self.status(row, label) and self.text_at(
            digits, 84 - 8 * len(digits), STATUS_ROWS[row]
        )

    def menu_row(self, row):
        """Menu row `row` is highlighted (inverted)."""
        return self.model.pixel(0, row * 8) == 1 and self.model.pixel(83, row * 8) == 1

    def snap(self, name):
        """Print "GLASS <name> <1008 hex digits> <backlight 0/1> <Vop>" for a CPython test to
        render (testbed/lcd_render.py) or compare with a golden image (host_tests/goldens.py)."""
        model = self.model
        print(
            "GLASS",
            name,
            binascii.hexlify(model.glass()).decode(),
            1 if model.backlight else 0,
            model.vop,
        )
