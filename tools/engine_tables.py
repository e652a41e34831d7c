"""Build the engine's lookup tables and write them into firmware/game/engine.py as constants.

A board used to build them at every import (118 ms of a Pico's boot); as `const()` bytes in
the source they cost no time at import, no global names and no RAM beyond the code's own
constants. The tables follow from engine.WIN_LINES and engine._ORDER, which stay the truth:
change those, run `python tools/engine_tables.py`, and the block between the markers in
engine.py is written anew; host_tests/test_engine_tables.py fails while it is stale.
"""

import sys
from pathlib import Path

import layout

ROOT = Path(__file__).resolve().parents[1]
ENGINE = layout.source("engine")
BEGIN = "# -- begin tables: written by tools/engine_tables.py from WIN_LINES and _ORDER --\n"
END = "# -- end tables --\n"
PER_LINE = 22  # bytes per source line: 4 + 22 * 4 + 1 = 93 characters, under ruff's 99


def engine_module():
    """The engine imported by CPython (testbed/cpython gives it `micropython.const`)."""
    for path in (ROOT / "testbed" / "cpython", ENGINE.parent):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    import engine

    return engine


def build(win_lines, order):
    """The tables, by name, as bytes: what each holds is said above them in engine.py."""
    popcount, avoiding, two = bytearray(512), bytearray(512), bytearray(512)
    cells, crossings, images = bytearray(256), bytearray(256), bytearray(7 * 32)
    lines = [0] * 8  # win_lines as masks
    for i in range(8):
        for c in win_lines[i]:
            lines[i] |= 1 << order.index(c)
    for m in range(512):
        popcount[m] = popcount[m >> 1] + (m & 1)
        for i in range(8):
            if not m & lines[i]:
                avoiding[m] |= 1 << i
            elif popcount[m & lines[i]] == 2:  # m & line <= m: already counted
                two[m] |= 1 << i
    for k in range(256):  # every set of lines
        for i in range(8):
            if k >> i & 1:
                crossings[k] |= cells[k] & lines[i]
                cells[k] |= lines[i] & 255
    for s in range(7):  # symmetry s: a mirror image if s >= 3, then (s + 1) % 4 quarter turns
        for j in range(1, 9):
            row, col = divmod(order[j], 3)
            if s >= 3:
                col = 2 - col
            for _ in range((s + 1) % 4):
                row, col = col, 2 - row
            image = 1 << order.index(3 * row + col)
            if j < 5:  # a corner, in the sets of corners at 32s + c
                low, at = 1, 32 * s
            else:  # an edge, in the sets of edges at 32s + 16 + e
                low, at = 5, 32 * s + 16
            for m in range(16):
                if m >> j - low & 1:
                    images[at + m] |= image >> low
    return {
        "_POPCOUNT": bytes(popcount),
        "_LINES_AVOIDING": bytes(avoiding),
        "_LINES_WITH_TWO": bytes(two),
        "_LINE_CELLS": bytes(cells),
        "_CROSSINGS": bytes(crossings),
        "_IMAGES": bytes(images),
    }


def render(tables):
    """The block of source between (and with) the markers."""
    out = [BEGIN]
    for name, data in tables.items():
        out.append("%s = const(\n" % name)
        for at in range(0, len(data), PER_LINE):
            chunk = data[at : at + PER_LINE]
            out.append('    b"%s"\n' % "".join("\\x%02x" % b for b in chunk))
        out.append(")\n")
    out.append(END)
    return "".join(out)


def split(text):
    """engine.py's text as (before, block, after); ValueError without exactly one block."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError("%s needs one block between %r and %r" % (ENGINE, BEGIN, END))
    start = text.index(BEGIN)
    stop = text.index(END) + len(END)
    return text[:start], text[start:stop], text[stop:]


def expected_block():
    engine = engine_module()
    return render(build(engine.WIN_LINES, engine._ORDER))


def main():
    """Write the tables into engine.py if its block differs from what build() makes."""
    before, block, after = split(ENGINE.read_text())
    want = expected_block()
    if block == want:
        print("engine_tables: firmware/game/engine.py's tables are up to date")
    else:
        ENGINE.write_text(before + want + after)
        print("engine_tables: wrote the tables into firmware/game/engine.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
