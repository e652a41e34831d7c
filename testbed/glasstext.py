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
    cols = []
    for x in range(84):
        col = 0
        for bank in range(6):
            col |= glass[bank * 84 + x] << (8 * bank)
        cols.append(col)
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
