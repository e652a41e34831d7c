# Every reachable position under MicroPython: perfect play with the heap locked (an optimal
# cell wherever it is to move, so it never loses), no allocation, rng covering every equal-best
# move, every root move's exact score, no winner yet; and the depth-limited search at every
# depth 1..8 against the full-width reference minimax; the search's recursion depth; every
# ValueError of best_move and level_move names the fault (the engine's own strings, which are
# already qstrs on this heap).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=24k runner={mp_engine}/run.py paths={mp_engine}
# mpcheck: args={mp_engine}/reference.bin,mp_engine_play,{mp_engine}/depths.bin
# Runs through mp_engine_run.py, precompiled (the mp_engine fixture, conftest.py).
# One loop a test, few names: every name is a qstr on this heap and a new qstr pool would not
# fit beside the engine. A failure raises AssertionError(board) or AssertionError((board,
# depth)).
import random
import sys

import engine
import gameboard
import micropython


def test_every_position():
    # The reference file (argv[1], from the brute-force minimax in test_engine.py): per
    # non-final reachable position the board (3 bytes, little-endian), the player to move, the
    # mask of its optimal cells (2 bytes) and the score of each cell + 128 (0: taken).
    rec = bytearray(15)
    n = 0
    random.seed(5)
    with open(sys.argv[1], "rb") as f:
        while f.readinto(rec) == 15:
            n += 1
            board, player, best = rec[0] | rec[1] << 8 | rec[2] << 16, rec[3], rec[4] | rec[5] << 8
            # Perfect, heap locked: with the fixed order, then with rng until every equal-best
            # cell has come up (at most 300 tries).
            seen = tries = 0
            micropython.heap_lock()
            try:
                move = engine.best_move(board, player)
                while seen != best and tries < 300:
                    seen |= 1 << engine.best_move(board, player, 9, random)
                    tries += 1
            finally:
                micropython.heap_unlock()
            if not best >> move & 1 or seen != best:
                raise AssertionError(board)
            # mem_total() does not move across a search (frames on the heap would show here),
            # nor across the move of a level (the level cycles with the position).
            tries = micropython.mem_total()
            engine.best_move(board, player, 9, random)
            engine.level_move(board, player, n & 3, random)
            if micropython.mem_total() != tries:
                raise AssertionError(board)
            # root_scores: every move's exact score.
            scores = gameboard.root_scores(board, player)
            for move in range(9):
                if (0 if scores[move] is None else scores[move] + 128) != rec[6 + move]:
                    raise AssertionError(board)
            # A live position has no winner and no winning line.
            if engine.winner(board) or engine.winning_line(board) is not None:
                raise AssertionError(board)
    if n != 4520:
        raise AssertionError(n)


def test_every_position_at_every_depth():
    # The reference file (argv[3], from the brute-force minimax in test_engine.py): per
    # non-final reachable position and depth 1..8 the board (3 bytes, little-endian), the
    # player to move, the depth, the mask of the cells that search ranks best (2 bytes) and the
    # score of each cell + 128 (0: taken).
    rec = bytearray(16)
    out = bytearray(9)
    n = 0
    with open(sys.argv[3], "rb") as f:
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


def test_recursion_depth():
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
