# For the simulator's tests (host_tests/test_simulator.py, test_simview.py): the pixels of each
# result word in the game's status column (framebuf), then the tables simulator_mp sends the
# simulator: the firmware's font and status layout as JSON, the small font and the board's marks
# (glyph_table) in hex. Runs on testbed/hostboard.
# SPDX-License-Identifier: MIT
import binascii
import json
import sys

import framebuf
import mptest
import simulator_mp
import widgets
from mptest import check


def test_result_words():
    # A line a word: "WORD X Y x,y x,y ...", its dark pixels, all inside its 8-pixel-high box.
    for word in ("WIN!", "LOST", "DRAW"):
        buf = bytearray(84 * 6)
        fb = framebuf.FrameBuffer(buf, 84, 48, framebuf.MONO_VLSB)
        x0, y0 = widgets.STATUS_X, widgets.ROW_Y[0]
        fb.text(word, widgets.STATUS_X, widgets.ROW_Y[0], 1)
        dark = []
        for y in range(48):
            for x in range(84):
                if fb.pixel(x, y):
                    check(x0 <= x < x0 + 8 * len(word) and y0 <= y < y0 + 8, word + " out of box")
                    dark.append("%d,%d" % (x, y))
        check(dark, word + " drew nothing")
        print(word, x0, y0, " ".join(dark))


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


mptest.run(globals())
