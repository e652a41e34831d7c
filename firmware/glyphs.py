# X and O glyphs for the board (11x11) and the status column (7x7), as frame buffers to blit.
# SPDX-License-Identifier: MIT
import framebuf
from micropython import const

# One int per row, the leftmost pixel in the highest bit; drawn for an 84x48 glass, where a
# 3-pixel stroke stays crisp and reads well at arm's length.
_BIG = const(11)
_BIG_X = const(
    (
        0b11000000011,
        0b11100000111,
        0b01110001110,
        0b00111011100,
        0b00011111000,
        0b00001110000,
        0b00011111000,
        0b00111011100,
        0b01110001110,
        0b11100000111,
        0b11000000011,
    )
)
_BIG_O = const(
    (
        0b00011111000,
        0b01111111110,
        0b01110001110,
        0b11100000111,
        0b11000000011,
        0b11000000011,
        0b11000000011,
        0b11100000111,
        0b01110001110,
        0b01111111110,
        0b00011111000,
    )
)
_SMALL = const(7)
_SMALL_X = const((0b1000001, 0b1100011, 0b0110110, 0b0011100, 0b0110110, 0b1100011, 0b1000001))
_SMALL_O = const((0b0011100, 0b0110110, 0b1100011, 0b1000001, 0b1100011, 0b0110110, 0b0011100))


def _make(rows, width):
    # MONO_HLSB: a row in whole bytes, its leftmost pixel in the top bit of the first. A row at
    # a time, not a pixel: this runs at boot, before the title's first frame.
    stride = (width + 7) // 8
    buf = bytearray(stride * len(rows))
    for y in range(len(rows)):
        row = rows[y] << (8 * stride - width)
        for i in range(stride):
            buf[y * stride + i] = row >> 8 * (stride - 1 - i) & 0xFF
    return framebuf.FrameBuffer(buf, width, len(rows), framebuf.MONO_HLSB)


class Glyphs:
    """The glyph frame buffers, built once (about 120 bytes). Index 1 is X, 2 is O (engine)."""

    def __init__(self):
        self.big = (None, _make(_BIG_X, _BIG), _make(_BIG_O, _BIG))
        self.small = (None, _make(_SMALL_X, _SMALL), _make(_SMALL_O, _SMALL))
        # Palette that swaps ink and paper: blit(glyph, x, y, 1, inverse) draws white on black.
        self.inverse = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        self.inverse.pixel(0, 0, 1)

    def draw(self, fb, player, x, y, big=True, white=False):
        glyph = (self.big if big else self.small)[player]
        if white:
            fb.blit(glyph, x, y, 1, self.inverse)
        else:
            fb.blit(glyph, x, y, 0)
