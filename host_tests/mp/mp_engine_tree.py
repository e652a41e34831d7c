# Never loses against every line of play, as X and as O; the search's recursion depth.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=24k runner={mp_engine}/run.py paths={mp_engine}
# mpcheck: args={mp_engine}/reference.bin,mp_engine_tree
# Runs through mp_engine_run.py, precompiled (the mp_engine fixture, conftest.py).
# Few names: each is a qstr on this heap. A failure raises AssertionError(board).
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
