# For test_simview.py: the table simulator_mp sends the simulator (its fonts, the board's marks,
# the status layout) in hex, and the status column under each sign. Runs on testbed/hostboard.
# SPDX-License-Identifier: MIT
import binascii
import sys

import mptest
import simulator_mp
from mptest import check


def test_table():
    # The small font is the firmware's to load where it draws with it: the table lets it go.
    check("smallfont" not in sys.modules, "smallfont loaded before the table")
    table = simulator_mp.table()
    check("smallfont" not in sys.modules, "the table kept smallfont loaded")
    print(binascii.hexlify(table).decode())


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
    del sys.modules["smallfont"]  # loaded by the sign: test_table wants it gone


mptest.run(globals())
