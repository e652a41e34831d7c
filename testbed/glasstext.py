# Finds text drawn in the firmware's small font (smallfont.py) on a glass, for MicroPython tests.
# SPDX-License-Identifier: MIT
# The expected pixels come from the firmware's own font, so this checks what a screen says and
# where (a whole name, a wrapped message), not how the letters look: the golden images do that.
import framebuf
import smallfont

ROWS = 6  # a line of the small font: 5 rows and a descender


def find(glass, text, inverted=False, area=(0, 0, 84, 48)):
    """(x, y) of the first place the glass (504 bytes, MONO_VLSB) shows `text` in the small font,
    dark on light (inverted: light on dark), or None. Every pixel of the text's box must match,
    and the box lie inside `area` (x, y, width, height): a board cell, say."""
    data = text.encode()
    w = smallfont.width(data)
    buf = bytearray(w)
    smallfont.text(framebuf.FrameBuffer(buf, w, 8, framebuf.MONO_VLSB), data, 0, 0)
    flip = (1 << ROWS) - 1 if inverted else 0
    mask = (1 << ROWS) - 1
    cols = columns(glass, 0, 0, 84, 48)
    left, top, width, height = area
    for y in range(top, top + height - ROWS + 1):
        for x in range(left, left + width - w + 1):
            k = 0
            while k < w and ((cols[x + k] >> y) & mask) ^ flip == buf[k] & mask:
                k += 1
            if k == w:
                return x, y
    return None


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


def read_columns(cols):
    """The text in the small font that columns (as columns() gives them) show, read glyph by
    glyph: glyphs are split at blank columns, and lined up by the top of the tallest (a
    capital's or a digit's), so a line of capitals, digits and lower case reads; "" if blank,
    "?" for a glyph that is no character of the font."""
    if not _GLYPHS:
        buf = bytearray(6)
        fb = framebuf.FrameBuffer(buf, 6, 8, framebuf.MONO_VLSB)
        codes = [ord(c) for c in _ORDER] + list(range(33, 127))
        for code in codes:
            fb.fill(0)
            end = smallfont.text(fb, bytes((code,)), 0, 0) - 1
            key = bytes(buf[:end])
            if key not in _GLYPHS:
                _GLYPHS[key] = chr(code)
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
    for col in list(cols) + [0]:
        if col:
            run.append((col >> top) & 0xFF)
        elif run:
            text.append(_GLYPHS.get(bytes(run), "?"))
            run = bytearray()
    return "".join(text)
