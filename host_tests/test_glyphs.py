"""glyphs.py: the bitmaps in the firmware are made from the drawing below.

The drawing is the marks as people see them ("#" ink, "." paper). To change a mark, edit the
drawing and put the bytes this test prints into firmware/screens/glyphs.py; then regenerate the
golden screens (every board shows the marks). That the tuples are blit() sources in framebuf's
MONO_HLSB, and that the inverse palette draws a mark white on black (the cursor's), is shown by
those golden frames, drawn by MicroPython's framebuf."""

import glyphs

BIG_X = """
##.......##
###.....###
.###...###.
..###.###..
...#####...
....###....
...#####...
..###.###..
.###...###.
###.....###
##.......##
"""
BIG_O = """
...#####...
.#########.
.###...###.
###.....###
##.......##
##.......##
##.......##
###.....###
.###...###.
.#########.
...#####...
"""
SMALL_X = """
#.....#
##...##
.##.##.
..###..
.##.##.
##...##
#.....#
"""
SMALL_O = """
..###..
.##.##.
##...##
#.....#
##...##
.##.##.
..###..
"""


def hlsb(drawing):
    """(bytes, width, height) of a drawing in MONO_HLSB: each row in whole bytes, its leftmost
    pixel in the top bit of the first."""
    rows = drawing.split()
    width = len(rows[0])
    stride = (width + 7) // 8
    out = bytearray()
    for row in rows:
        assert len(row) == width
        bits = int(row.replace("#", "1").replace(".", "0"), 2) << (8 * stride - width)
        out += bits.to_bytes(stride, "big")
    return bytes(out), width, len(rows)


def test_firmware_bitmaps_are_the_drawing():
    for table, x, o in ((glyphs._BIG, BIG_X, BIG_O), (glyphs._SMALL, SMALL_X, SMALL_O)):
        assert table[0] is None  # no mark
        for glyph, drawing in ((table[1], x), (table[2], o)):
            assert glyph[:3] == hlsb(drawing), "put this in firmware/screens/glyphs.py: %r" % (
                hlsb(drawing),
            )
            assert glyph[3] == glyphs._MONO_HLSB
