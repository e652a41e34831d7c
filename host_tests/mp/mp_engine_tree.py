# Never loses against every line of play, as X and as O; the search's recursion depth; every
# ValueError of best_move and level_move names the fault (the engine's own strings, which are
# already qstrs on this heap).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=24k runner={mp_engine}/run.py paths={mp_engine}
# mpcheck: args={mp_engine}/reference.bin,mp_engine_tree
# Runs through mp_engine_run.py, precompiled (the mp_engine fixture, conftest.py).
# Few names: each is a qstr on this heap. A failure raises AssertionError(board).
import random

import engine
import micropython


def tree(board, player, level):
    # Every line of opponent play from board, the engine playing `level` (X or O) with the heap
    # locked. Returns the number of engine moves made; raises if the engine ever loses.
    if engine.winner(board):
        if engine.winner(board) != level:
            raise AssertionError(board)
        return 0
    if (board | board >> 1) & 0x15555 == 0x15555:
        return 0  # full: a draw
    if player == level:
        micropython.heap_lock()
        try:
            player = engine.best_move(board, level)
        finally:
            micropython.heap_unlock()
        return 1 + tree(board | level << 2 * player, 3 - level, level)
    n = 0
    for i in range(9):
        if not board >> 2 * i & 3:
            n += tree(board | player << 2 * i, 3 - player, level)
    return n


def test_never_loses_and_recursion_depth():
    if tree(0, engine.X, engine.X) < 50 or tree(0, engine.X, engine.O) < 50:
        raise AssertionError(0)
    # best_move -> _root -> nested _search: at most 10 frames. Count the nesting by wrapping
    # the module global through which _search calls itself; 9 empty cells give at most 8
    # nested searches, since the last 2 plies are closed without a call.
    search = engine._search
    nest = [0, 0]  # now, deepest

    def counting(me, opp, alpha, beta):
        nest[0] += 1
        if nest[0] > nest[1]:
            nest[1] = nest[0]
        me = search(me, opp, alpha, beta)
        nest[0] -= 1
        return me

    engine._search = counting
    try:
        for depth in (9, 8, 7):
            engine.best_move(0, engine.X, depth)
    finally:
        engine._search = search
    if not 7 <= nest[1] <= 8:
        raise AssertionError(nest[1])


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
