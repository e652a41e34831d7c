# Under MicroPython every ValueError of best_move and level_move names the fault.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=24k runner={mp_engine}/run.py paths={mp_engine}
# mpcheck: args={mp_engine}/reference.bin,mp_engine_errors
# Runs through mp_engine_run.py, precompiled (the mp_engine fixture, conftest.py).
# The expected messages are the engine's own strings, which are already qstrs on this heap.
import random

import engine


def raises(fault, board, player, depth):
    try:
        if depth < 0:
            engine.level_move(board, player, 9, random)
        else:
            engine.best_move(board, player, depth)
    except ValueError as exc:
        if str(exc) != fault:
            raise AssertionError(fault) from exc
        return
    raise AssertionError(fault)


def test_value_errors_name_the_fault():
    raises("board must be an int, 0 <= board < 2**18", "1", 1, 9)
    raises("board must be an int, 0 <= board < 2**18", 1 << 18, 1, 9)
    raises("board must be an int, 0 <= board < 2**18", -1, 1, 9)
    raises("cell %d is 0b11: allowed 0b00, 0b01 X, 0b10 O" % 4, 3 << 8, 1, 9)
    raises("impossible counts: X moves first, so X has as many as O or one more", 5, 1, 9)
    raises("player must be X (1) or O (2)", 0, 3, 9)
    raises("player is not the side to move", 0, 2, 9)
    raises("the game is over", 0b1010010101, 2, 9)  # X X X / O O .: X has a row
    raises("the game is over", 0b10110101001011001, 2, 9)  # X O X / X O O / O X X: full
    raises("depth must be 1..9", 0, 1, 0)
    raises("level must index LEVELS", 0, 1, -1)
