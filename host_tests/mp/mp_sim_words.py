# For test_simview.py: the tables simulator_mp sends the simulator, the firmware's font and
# status layout as JSON, the small font and the board's marks (glyph_table) in hex. Runs on
# testbed/hostboard.
# SPDX-License-Identifier: MIT
import binascii
import json
import sys

import mptest
import simulator_mp
from mptest import check


def test_table():
    table = simulator_mp.table()
    check("font" in json.loads(table), "no font in the table")
    print(table)


def test_glyph_table():
    # The small font is the firmware's to load where it draws with it: the table lets it go.
    check("smallfont" not in sys.modules, "smallfont loaded before the table")
    glyphs = simulator_mp.glyph_table()
    check("smallfont" not in sys.modules, "the glyph table kept smallfont loaded")
    print(binascii.hexlify(glyphs).decode())


def test_signed_status():
    # The status column with each sign in the small font over its level (widgets.sign), as the
    # firmware draws them: a line "sign glass-in-hex" each.
    import framebuf
    import game
    import widgets

    glass = bytearray(504)
    fb = framebuf.FrameBuffer(glass, 84, 48, framebuf.MONO_VLSB)
    link = game.Game()
    link.start(game.LINK)
    for sign in (b"READY", b"NO LINK", b"NO UNDO"):
        fb.fill(0)
        widgets.status(fb, link, "LINK", (0, 2, 2), False, True)
        widgets.sign(fb, sign)
        print(sign.decode(), binascii.hexlify(glass).decode())
    del sys.modules["smallfont"]  # loaded by the sign: test_glyph_table wants it gone


mptest.run(globals())
