"""smallfont.py: the bytes table in the firmware is made from the drawing below.

The drawing is the font as people read it: one block per 16 characters (32..126), each glyph
its own width ("#" ink, "." paper), 6 rows: 5 for letters and digits, the 6th for descenders.
To change a glyph, edit the drawing and put the table this test prints into
firmware/screens/smallfont.py; then regenerate the golden screens that show small text (the
error and safe-mode screens)."""

from firmwaresource import assigned

DRAWING = r"""
SP ! "   #     $   %   &    ' (  )  *   +   ,  -   . /
.. . #.# .#.#. .## #.# .#.. # .# #. ... ... .. ... . ..#
.. # #.# ##### ##. ..# #.#. # #. .# #.# .#. .. ... . ..#
.. # ... .#.#. .#. .#. .#.. . #. .# .#. ### .. ### . .#.
.. . ... ##### .## #.. #.#. . #. .# #.# .#. .# ... . #..
.. # ... .#.#. ##. #.# .#.# . .# #. ... ... .# ... # #..
.. . ... ..... .#. ... .... . .. .. ... ... #. ... . ...
0   1   2   3   4   5   6   7   8   9   : ;  <   =   >   ?
### .#. ##. ##. #.# ### .## ### ### ### . .. ..# ... #.. ##.
#.# ##. ..# ..# #.# #.. #.. ..# #.# #.# # .# .#. ### .#. ..#
#.# .#. .#. .#. ### ##. ### .#. ### ### . .. #.. ... ..# .#.
#.# .#. #.. ..# ..# ..# #.# .#. #.# ..# # .# .#. ### .#. ...
### ### ### ##. ..# ##. ### .#. ### ##. . #. ..# ... #.. .#.
... ... ... ... ... ... ... ... ... ... . .. ... ... ... ...
@    A   B   C   D   E   F   G   H   I   J   K   L   M     N    O
.##. .#. ##. .## ##. ### ### .## #.# ### ..# #.# #.. #...# #..# .##.
#..# #.# #.# #.. #.# #.. #.. #.. #.# .#. ..# #.# #.. ##.## ##.# #..#
#.## ### ##. #.. #.# ##. ##. #.# ### .#. ..# ##. #.. #.#.# #.## #..#
#... #.# #.# #.. #.# #.. #.. #.# #.# .#. #.# #.# #.. #...# #..# #..#
.##. #.# ##. .## ##. ### #.. .## #.# ### .#. #.# ### #...# #..# .##.
.... ... ... ... ... ... ... ... ... ... ... ... ... ..... .... ....
P   Q    R   S   T   U   V   W     X   Y   Z   [  \   ]  ^   _
##. .##. ##. .## ### #.# #.# #...# #.# #.# ### ## #.. ## .#. ...
#.# #..# #.# #.. .#. #.# #.# #...# #.# #.# ..# #. #.. .# #.# ...
##. #..# ##. .#. .#. #.# #.# #.#.# .#. .#. .#. #. .#. .# ... ...
#.. #.## #.# ..# .#. #.# #.# ##.## #.# .#. #.. #. ..# .# ... ...
#.. .### #.# ##. .#. ### .#. #...# #.# .#. ### ## ..# ## ... ###
... .... ... ... ... ... ... ..... ... ... ... .. ... .. ... ...
`  a   b   c   d   e   f   g   h   i j  k   l  m     n   o
#. ... #.. ... ..# ... ..# ... #.. # .# #.. #. ..... ... ...
.# ##. ##. .## .## .#. .#. .## ##. . .. #.# #. ####. ##. .#.
.. .## #.# #.. #.# ### ### #.# #.# # .# ##. #. #.#.# #.# #.#
.. #.# #.# #.. #.# #.. .#. #.# #.# # .# ##. #. #.#.# #.# #.#
.. .## ##. .## .## .## .#. .## #.# # .# #.# .# #.#.# #.# .#.
.. ... ... ... ... ... ... ##. ... . #. ... .. ..... ... ...
p   q   r   s   t   u   v   w     x   y   z   {   | }   ~
... ... ... ... .#. ... ... ..... ... ... ... .## # ##. ....
##. .## #.# .## ### #.# #.# #...# #.# #.# ### .#. # .#. .#.#
#.# #.# ##. #.. .#. #.# #.# #...# .#. #.# ..# ##. # .## #.#.
#.# #.# #.. ..# .#. #.# #.# #.#.# .#. #.# .#. .#. # .#. ....
##. .## #.. ##. ..# .## .#. .#.#. #.# .## ### .## # ##. ....
#.. ..# ... ... ... ... ... ..... ... ##. ... ... . ... ....
"""


def drawn():
    """{character: [6 row strings]} from DRAWING (a block's header names its characters, SP
    for the space)."""
    lines = [line for line in DRAWING.split("\n") if line.strip()]
    font = {}
    for i in range(0, len(lines), 7):
        names = lines[i].split()
        rows = [line.split() for line in lines[i + 1 : i + 7]]
        for n, name in enumerate(names):
            glyph = [row[n] for row in rows]
            font[" " if name == "SP" else name] = glyph
    return font


def encode(font):
    """The firmware's table: 5 bytes per character, a space after the glyph's last column,
    0x30 + the column's pixels (bit r = row r) for each of its columns."""
    out = bytearray()
    for code in range(32, 127):
        glyph = font[chr(code)]
        width = len(glyph[0])
        for col in range(5):
            if col < width:
                out.append(0x30 + sum(1 << r for r in range(6) if glyph[r][col] == "#"))
            else:
                out.append(0x20)
    return bytes(out)


def test_drawing_is_well_formed():
    font = drawn()
    assert sorted(font) == [chr(c) for c in range(32, 127)]
    for ch, glyph in font.items():
        assert len(glyph) == 6 and set("".join(glyph)) <= set("#."), repr(ch)
        assert len({len(row) for row in glyph}) == 1 and 1 <= len(glyph[0]) <= 5, repr(ch)
    # Every character can be told from every other.
    shapes = ["/".join(glyph) for glyph in font.values()]
    assert len(set(shapes)) == len(shapes)
    # Only descenders use the 6th row; capitals and digits stay in 5.
    for ch, glyph in font.items():
        if "#" in glyph[5]:
            assert ch in "$,;Qgjpqy", repr(ch)
        if ch.isupper() or ch.isdigit():
            assert "#" not in glyph[5] or ch == "Q", repr(ch)


def test_firmware_table_is_the_drawing():
    table = encode(drawn())
    assert all(0x20 <= b < 0x7F for b in table)  # printable: a short literal in the source
    assert assigned("smallfont", "_FONT") == table, (
        "put this in firmware/screens/smallfont.py:\n_FONT = %r" % table
    )
