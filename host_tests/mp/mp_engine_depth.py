# The depth-limited search under MicroPython: every reachable position at every depth 1..8
# against the full-width reference minimax, the heap locked (depth 9: mp_engine_play).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=24k runner={mp_engine}/run.py paths={mp_engine}
# mpcheck: args={mp_engine}/depths.bin,mp_engine_depth
# Runs through mp_engine_run.py, precompiled (the mp_engine fixture, conftest.py).
# One test, one loop, few names: each is a qstr on this heap. A failure raises
# AssertionError((board, depth)).
import sys

import engine
import micropython


def test_every_position_at_every_depth():
    # The reference file (argv[1], from the brute-force minimax in test_engine.py): per
    # non-final reachable position and depth 1..8 the board (3 bytes, little-endian), the
    # player to move, the depth, the mask of the cells that search ranks best (2 bytes) and the
    # score of each cell + 128 (0: taken).
    rec = bytearray(16)
    out = bytearray(9)
    n = 0
    with open(sys.argv[1], "rb") as f:
        while f.readinto(rec) == 16:
            n += 1
            board = rec[0] | rec[1] << 8 | rec[2] << 16
            micropython.heap_lock()
            try:
                engine.scores_into(out, board, rec[3], rec[4])
                move = engine.best_move(board, rec[3], rec[4])
            finally:
                micropython.heap_unlock()
            if out != rec[7:16] or not (rec[5] | rec[6] << 8) >> move & 1:
                raise AssertionError((board, rec[4]))
    if n != 4520 * 8:
        raise AssertionError(n)
