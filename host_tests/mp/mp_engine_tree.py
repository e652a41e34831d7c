# Never loses against every line of play, as X and as O; the search's recursion depth.
# SPDX-License-Identifier: MIT
# Run by host_tests/test_engine_mp.py through mp_engine_run.py, precompiled, in a 16k heap. A
# failure raises AssertionError(board) with the offending board.
import engine
import micropython


def tree(board, player, side):
    # Every line of opponent play from board, the engine (side) answering with the heap
    # locked. Returns the number of engine moves made; raises if the engine ever loses.
    if engine.winner(board):
        if engine.winner(board) != side:
            raise AssertionError(board)
        return 0
    if (board | board >> 1) & 0x15555 == 0x15555:
        return 0  # full: a draw
    if player == side:
        micropython.heap_lock()
        try:
            player = engine.best_move(board, side, 9)
        finally:
            micropython.heap_unlock()
        return 1 + tree(board | side << 2 * player, 3 - side, side)
    n = 0
    for i in range(9):
        if not board >> 2 * i & 3:
            n += tree(board | player << 2 * i, 3 - player, side)
    return n


def test_never_loses_as_x():
    if tree(0, engine.X, engine.X) < 50:
        raise AssertionError(0)


def test_never_loses_as_o():
    if tree(0, engine.X, engine.O) < 50:
        raise AssertionError(0)


def test_recursion_depth_at_most_10_frames():
    # best_move -> _root -> nested _search: count the nesting by wrapping the module global
    # through which _search calls itself. 9 empty cells: at most 8 nested searches, since the
    # last 2 plies are closed without a call.
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
