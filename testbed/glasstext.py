# Finds text drawn in the firmware's small font (smallfont.py) on a glass, for MicroPython tests.
# SPDX-License-Identifier: MIT
# The expected pixels come from the firmware's own font, so this checks what a screen says and
# where (a whole name, a wrapped message), not how the letters look: the golden images do that.
# find() also runs under CPython (the Pico lab reads its glass with it), and the reading
# (columns, read_columns, coach_cell) too, given reader()'s table of a font that MicroPython
# drew: the simulator's terminal reads the coach's marks with it.

ROWS = 6  # a line of the small font: 5 rows and a descender


def find(glass, text, inverted=False, area=(0, 0, 84, 48)):
    """(x, y) of the first place the glass (504 bytes, MONO_VLSB) shows `text` in the small font,
    dark on light (inverted: light on dark), or None. Every pixel of the text's box must match,
    and the box lie inside `area` (x, y, width, height): a board cell, say."""
    import smallfont

    data = text.encode()
    buf = bytearray(smallfont.width(data))
    smallfont.text(_Columns(buf), data, 0, 0)
    return find_columns(glass, buf, ROWS, inverted, area)


def find_columns(glass, pattern, rows, inverted=False, area=(0, 0, 84, 48)):
    """find() of any drawing: `pattern` its columns (bit 0 the top row), `rows` high; the 8x8
    framebuf font's text too (glass.Glass.shows, text_at)."""
    mask = (1 << rows) - 1
    flip = mask if inverted else 0
    want = bytes(col & mask for col in pattern)
    left, top, width, height = area
    strip = columns(glass, left, 0, width, 48)
    for y in range(top, top + height - rows + 1):
        x = bytes(((col >> y) & mask) ^ flip for col in strip).find(want)
        if x >= 0:
            return left + x, y
    return None


class _Columns:
    # What smallfont.text draws on (its only call is pixel): a column a byte, top row at bit 0,
    # as MONO_VLSB; without framebuf, so CPython reads the Pico lab's glass with it too.
    def __init__(self, buf):
        self.buf = buf

    def pixel(self, x, y, c):
        self.buf[x] |= c << y


def shows(glass, text, inverted=False):
    return find(glass, text, inverted) is not None


def columns(glass, x, y, w, h):
    """The box x, y, w, h of the glass as w ints, one a column: bit r is row y + r, 1 = ink."""
    mask = (1 << h) - 1
    first = y >> 3
    last = (y + h - 1) >> 3
    out = []
    for xx in range(x, x + w):
        col = 0
        for bank in range(last, first - 1, -1):
            col = col << 8 | glass[bank * 84 + xx]
        col = (col >> (y - 8 * first)) & mask
        out.append(col)
    return out


_GLYPHS = {}  # a glyph's columns (its top row at bit 0) -> its character, made when first read
# Where two characters are drawn the same, the first of this order is read.
_ORDER = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def reader(font):
    """read_columns' table for a font given as character -> its columns (bytes, top row at bit
    0): columns -> character, the first of _ORDER where two characters are drawn the same."""
    out = {}
    for c in _ORDER + "".join(chr(code) for code in range(33, 127)):
        if c in font and font[c] not in out:
            out[font[c]] = c
    return out


def glyphs():
    """reader() of the firmware's smallfont.py as it draws here (under MicroPython), made once."""
    if not _GLYPHS:
        import framebuf
        import smallfont

        buf = bytearray(6)
        fb = framebuf.FrameBuffer(buf, 6, 8, framebuf.MONO_VLSB)
        font = {}
        for code in range(33, 127):
            fb.fill(0)
            end = smallfont.text(fb, bytes((code,)), 0, 0) - 1
            font[chr(code)] = bytes(buf[:end])
        _GLYPHS.update(reader(font))
    return _GLYPHS


# Two words are 4 blank columns apart in the small font (a letter's gap, a space's 2 columns and
# its gap), two letters 1: read_columns() puts a space where at least this many part two glyphs.
_WORD_GAP = 3


def read_columns(cols, known=None):
    """The text in the small font that columns (as columns() gives them) show, read glyph by
    glyph: glyphs are split at blank columns, and lined up by the top of the tallest (a
    capital's or a digit's), so a line of capitals, digits and lower case reads (and its words
    apart); "" if blank, "?" for a glyph that is no character of the font. `known`: reader()'s
    table (glyphs())."""
    if known is None:
        known = glyphs()
    top = 0
    ink = 0
    for col in cols:
        ink |= col
    if not ink:
        return ""
    while not ink >> top & 1:
        top += 1
    text = []
    run = bytearray()
    blank = 0  # blank columns since the last glyph
    for col in list(cols) + [0]:
        if col:
            if text and blank >= _WORD_GAP:
                text.append(" ")
            blank = 0
            run.append((col >> top) & 0xFF)
        else:
            blank += 1
            if run:
                text.append(known.get(bytes(run), "?"))
                run = bytearray()
    return "".join(text)


def coach_cell(cols, known=None):
    """What the coach (coach.py) shows in a board cell, given its 15 columns of 15 rows (as
    columns() gives them): (its mark read in the small font, "" for none; boxed: the four
    corners of a square 1 px inside the cell; the cell inverted, as the cursor's)."""
    inverted = sum(bin(col).count("1") for col in cols) > 112  # over half the cell dark
    if inverted:
        cols = [col ^ 0x7FFF for col in cols]
    arms = 0b11110000011110  # rows (or columns) 1..4 and 10..13 of the cell
    ends = 1 << 1 | 1 << 13  # rows (or columns) 1 and 13
    boxed = cols[1] & 0x7FFE == arms and cols[13] & 0x7FFE == arms
    for k in (2, 3, 4, 10, 11, 12):
        boxed = boxed and cols[k] & ends == ends
    for k in range(5, 10):
        boxed = boxed and not cols[k] & ends
    inside = [col >> 2 & 0x7FF for col in cols[2:13]]  # within the box's lines
    return read_columns(inside, known), boxed, inverted
