"""play.py: whole games on the board screen under the MicroPython unix port, read off the glass
(the controller model): every level, win, loss, draw, hint, undo and NO UNDO, the cursor after a
hold or a chord, the CPU's turn, a 5-way pad."""

import mpcheck


class mp_play(mpcheck.Script):
    """Its checks, each a pytest item: mp_play.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
