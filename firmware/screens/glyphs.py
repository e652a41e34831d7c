# X and O glyphs for the board (11x11) and the status column (7x7), blitted from constant bytes.
# SPDX-License-Identifier: MIT
from micropython import const

# Each glyph is what framebuf's blit() takes as a source or a palette besides a FrameBuffer:
# (buffer, width, height, format), here of constant bytes, so the bitmaps stay with the code
# (in flash on a board with the game frozen in) and nothing is built at boot. MONO_HLSB: a row
# in whole bytes, its leftmost pixel in the top bit of the first. The drawing they are made
# from, and the check that the two agree, are in host_tests/test_glyphs.py; one made for an
# 84x48 glass, where a 3-pixel stroke stays crisp and reads well at arm's length.
_MONO_HLSB = const(3)  # framebuf.MONO_HLSB (the golden frames show it is)
_BIG_SIDE = const(11)
_SMALL_SIDE = const(7)
# By the engine's marks: index 1 is X, 2 is O.
_BIG = const(
    (
        None,
        (
            b"\xc0`\xe0\xe0q\xc0;\x80\x1f\x00\x0e\x00\x1f\x00;\x80q\xc0\xe0\xe0\xc0`",
            _BIG_SIDE,
            _BIG_SIDE,
            _MONO_HLSB,
        ),
        (
            b"\x1f\x00\x7f\xc0q\xc0\xe0\xe0\xc0`\xc0`\xc0`\xe0\xe0q\xc0\x7f\xc0\x1f\x00",
            _BIG_SIDE,
            _BIG_SIDE,
            _MONO_HLSB,
        ),
    )
)
_SMALL = const(
    (
        None,
        (b"\x82\xc6l8l\xc6\x82", _SMALL_SIDE, _SMALL_SIDE, _MONO_HLSB),
        (b"8l\xc6\x82\xc6l8", _SMALL_SIDE, _SMALL_SIDE, _MONO_HLSB),
    )
)
# The palette that swaps ink and paper (pixel 0 is 1, pixel 1 is 0): blit(glyph, x, y, 1,
# _INVERSE) draws white on black.
_INVERSE = const((b"\x80", 2, 1, _MONO_HLSB))


# A function rather than a class with an instance: it holds nothing, and a class would cost
# the heap its type and dict for as long as a game runs.
def draw(fb, player, x, y, big=True, white=False):
    """Draw mark `player` (1 is X, 2 is O: engine) at x, y on `fb`: 11x11 if `big`, else 7x7;
    black on white, or white on black if `white`."""
    glyph = (_BIG if big else _SMALL)[player]
    if white:
        fb.blit(glyph, x, y, 1, _INVERSE)
    else:
        fb.blit(glyph, x, y, 0)
