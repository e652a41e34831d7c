# X and O glyphs for the board (11x11) and the status column (7x7), as frame buffers to blit;
# a small proportional font for text screens and short signs.
# SPDX-License-Identifier: MIT
import framebuf
from micropython import const

# One int per row, the leftmost pixel in the highest bit; drawn for an 84x48 glass, where a
# 3-pixel stroke stays crisp and reads well at arm's length.
BIG = 11
_BIG_X = (
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
_BIG_O = (
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
SMALL = 7
_SMALL_X = (0b1000001, 0b1100011, 0b0110110, 0b0011100, 0b0110110, 0b1100011, 0b1000001)
_SMALL_O = (0b0011100, 0b0110110, 0b1100011, 0b1000001, 0b1100011, 0b0110110, 0b0011100)


def _make(rows, width):
    stride = (width + 7) // 8
    buf = bytearray(stride * len(rows))
    for y in range(len(rows)):
        row = rows[y]
        for x in range(width):
            if (row >> (width - 1 - x)) & 1:
                buf[y * stride + (x >> 3)] |= 0x80 >> (x & 7)
    return framebuf.FrameBuffer(buf, width, len(rows), framebuf.MONO_HLSB)


class Glyphs:
    """The glyph frame buffers, built once (about 120 bytes). Index 1 is X, 2 is O (engine)."""

    def __init__(self):
        self.big = (None, _make(_BIG_X, BIG), _make(_BIG_O, BIG))
        self.small = (None, _make(_SMALL_X, SMALL), _make(_SMALL_O, SMALL))
        # Palette that swaps ink and paper: blit(glyph, x, y, 1, inverse) draws white on black.
        self.inverse = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
        self.inverse.pixel(0, 0, 1)

    def draw(self, fb, player, x, y, big=True, white=False):
        glyph = (self.big if big else self.small)[player]
        if white:
            fb.blit(glyph, x, y, 1, self.inverse)
        else:
            fb.blit(glyph, x, y, 0)


# The small font: characters 32..126, each 1..5 columns wide, 5 pixels high plus a descender
# row (g, j, p, q, y, Q...), drawn with 1 pixel between characters: about 20 characters on a line
# of 84 pixels where the 8x8 font fits 10, so the error screen can show a whole exception name
# and the start of its message. 5 bytes per character, one per column, printable so the table
# stays short: a space ends the glyph early, any other byte is 0x30 + the column's pixels (bit
# r = row r from the top, as in MONO_VLSB). The readable drawing it is made from, and the
# check that the two agree, are in host_tests/test_glyphs.py.
_FONT = (
    b"00   F    303  :O:O:Bo9  I4C  :E:@ 3    >A   A>   :4:  4>4  PH   444  @    H43  OAO  "
    b"BO@  IEB  AE:  74O  GE9  NEM  1M3  OEO  GE?  :    @:   4:A  :::  A:4  1E2  >AE6 N5N  "
    b"OE:  >AA  OA>  OEA  O51  >AM  O4O  AOA  8@?  O4K  O@@  O242OO24O >AA> O52  >AIN O5J  "
    b"BE9  1O1  O@O  ?@?  O848OK4K  3L3  IEC  OA   34H  AO   212  @@@  12   :FL  OB<  <BB  "
    b"<BO  <FD  4N5  \\bN  O2L  M    PM   O<B  ?@   N2N2LN2L  <B<  nB<  <Bn  N42  DB:  2?B  "
    b">@N  >@>  >@8@>B<B  ^`N  BJF  4OA  O    AO4  4242 "
)
SMALL_LINE = const(7)  # pixels from one line of small text to the next (6 rows and a gap)
_SPACE = const(32)
_UNKNOWN = const(63)  # "?" stands for a character the font has not got


def _glyph(code):
    """Offset of code's glyph in _FONT; -1 for the continuation bytes of a UTF-8 character, so
    a character outside ASCII shows as one "?"."""
    if 32 <= code <= 126:
        return (code - 32) * 5
    if 0x80 <= code < 0xC0:
        return -1
    return (_UNKNOWN - 32) * 5


def _advance(code):
    # The glyph's width and the gap after it.
    i = _glyph(code)
    if i < 0:
        return 0
    n = 0
    while n < 5 and _FONT[i + n] != _SPACE:
        n += 1
    return n + 1


def small_width(data, start=0, end=-1):
    """Width in pixels of data[start:end] (bytes) in the small font, without the last gap."""
    if end < 0:
        end = len(data)
    w = 0
    for k in range(start, end):
        w += _advance(data[k])
    return w - 1 if w else 0


def small_text(fb, data, x, y, c=1, start=0, end=-1):
    """Draw data[start:end] (bytes: nothing is allocated) in the small font with its top-left
    corner at x, y in colour c; return the x after the last character."""
    if end < 0:
        end = len(data)
    for k in range(start, end):
        i = _glyph(data[k])
        if i < 0:
            continue
        for col in range(5):
            bits = _FONT[i + col]
            if bits == _SPACE:
                break
            bits -= 0x30
            row = 0
            while bits:
                if bits & 1:
                    fb.pixel(x, y + row, c)
                bits >>= 1
                row += 1
            x += 1
        x += 1
    return x


def small_line(data, start, width):
    """Where the line of text starting at data[start] ends when wrapped at `width` pixels: the
    index after its last character, breaking after a word (a newline forces a break; a word
    wider than a line is cut), spaces at its end left out. Start a line with small_skip()."""
    end = len(data)
    w = -1  # no gap before the first character
    cut = -1  # the last space seen: the line may end there
    k = start
    while k < end:
        code = data[k]
        if code == 10:
            break
        if code == _SPACE:
            cut = k
        w += _advance(code)
        if w > width:
            if code != _SPACE and cut > start:
                k = cut
            elif k == start:
                k += 1  # even one character too wide takes a line of its own
            break
        k += 1
    while k > start and data[k - 1] == _SPACE:
        k -= 1  # spaces at the end would shift a centred line
    return k


def small_skip(data, k):
    """The start of the next line after a line ending at k: past spaces and one newline."""
    end = len(data)
    if k < end and data[k] == 10:
        k += 1
    while k < end and data[k] == _SPACE:
        k += 1
    return k
