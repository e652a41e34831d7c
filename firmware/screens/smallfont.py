# A small proportional font for text screens and short signs: about 20 characters a line.
# SPDX-License-Identifier: MIT
# Its own module, imported only where text is drawn in it (the "NO UNDO" sign, the error and
# safe-mode screens), so a game that never shows one never holds the font in RAM.
from micropython import const

# The small font: characters 32..126, each 1..5 columns wide, 5 pixels high plus a descender
# row (g, j, p, q, y, Q...), drawn with 1 pixel between characters: about 20 characters on a line
# of 84 pixels where the 8x8 font fits 10, so the error screen can show a whole exception name
# and the start of its message. 5 bytes per character, one per column, printable so the table
# stays short: a space ends the glyph early, any other byte is 0x30 + the column's pixels (bit
# r = row r from the top, as in MONO_VLSB). The readable drawing it is made from, and the
# check that the two agree, are in host_tests/test_smallfont.py.
_FONT = (
    b"00   F    303  :O:O:Bo9  I4C  :E:@ 3    >A   A>   :4:  4>4  PH   444  @    H43  OAO  "
    b"BO@  IEB  AE:  74O  GE9  NEM  1M3  OEO  GE?  :    @:   4:A  :::  A:4  1E2  >AE6 N5N  "
    b"OE:  >AA  OA>  OEA  O51  >AM  O4O  AOA  8@?  O4K  O@@  O242OO24O >AA> O52  >AIN O5J  "
    b"BE9  1O1  O@O  ?@?  O848OK4K  3L3  IEC  OA   34H  AO   212  @@@  12   :FL  OB<  <BB  "
    b"<BO  <FD  4N5  \\bN  O2L  M    PM   O<B  ?@   N2N2LN2L  <B<  nB<  <Bn  N42  DB:  2?B  "
    b">@N  >@>  >@8@>B<B  ^`N  BJF  4OA  O    AO4  4242 "
)
LINE = const(7)  # pixels from one line of small text to the next (6 rows and a gap)
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


def width(data, start=0, end=-1):
    """Width in pixels of data[start:end] (bytes) in the small font, without the last gap."""
    if end < 0:
        end = len(data)
    w = 0
    for k in range(start, end):
        w += _advance(data[k])
    return w - 1 if w else 0


def text(fb, data, x, y, c=1, start=0, end=-1):
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


def line(data, start, width):
    """Where the line of text starting at data[start] ends when wrapped at `width` pixels: the
    index after its last character, breaking after a word (a newline forces a break; a word
    wider than a line is cut), spaces at its end left out. Start a line with skip()."""
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


def skip(data, k):
    """The start of the next line after a line ending at k: past spaces and one newline."""
    end = len(data)
    if k < end and data[k] == 10:
        k += 1
    while k < end and data[k] == _SPACE:
        k += 1
    return k
