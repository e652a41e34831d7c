# Under MicroPython every ValueError of best_move and level_move names the fault.
# SPDX-License-Identifier: MIT
# Run by host_tests/test_engine_mp.py through mp_engine_run.py, precompiled, in a 16k heap. A
# failure raises AssertionError with the fault expected.
import random

import engine


def raises(fault, board, player, depth=9):
    try:
        engine.best_move(board, player, depth)
    except ValueError as exc:
        if fault not in str(exc):
            raise AssertionError(fault) from exc
        return
    raise AssertionError(fault)


def test_value_errors_name_the_fault():
    raises("must be an int", "1", 1)
    raises("0 <= board < 2**18", 1 << 18, 1)
    raises("0 <= board", -1, 1)
    raises("cell 4 is 0b11", 3 << 8, 1)
    raises("impossible counts", 5, 1)
    raises("player must be X", 0, 3)
    raises("not the side to move", 0, 2)
    raises("game is over", engine.pack([1, 1, 1, 2, 2, 0, 0, 0, 0]), 2)
    raises("game is over", engine.pack([1, 2, 1, 1, 2, 2, 2, 1, 1]), 2)
    raises("depth must be", 0, 1, 0)
    try:
        engine.level_move(0, 1, 9, random)
    except ValueError as exc:
        if "level must index" not in str(exc):
            raise AssertionError(exc) from exc
    else:
        raise AssertionError(9)
