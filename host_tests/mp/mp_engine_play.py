# Perfect play on every position with the heap locked; no allocation in any search.
# SPDX-License-Identifier: MIT
# Run by host_tests/test_engine_mp.py through mp_engine_run.py, precompiled, in a 16k heap. A
# failure raises AssertionError(board) with the offending board; few names, few strings: each
# one costs heap here.
import random
import sys

import engine
import micropython

REC = bytearray(6)


def positions():
    # (board, player, mask of optimal cells) for the 4,520 positions of the reference file
    # (argv[1], from the brute-force minimax in test_engine.py: per position the board in 3
    # bytes little-endian, the player, the mask in 2 bytes), reusing one buffer.
    with open(sys.argv[1], "rb") as f:
        while f.readinto(REC) == 6:
            yield REC[0] | REC[1] << 8 | REC[2] << 16, REC[3], REC[4] | REC[5] << 8


def locked(board, player, rng):
    # best_move with the heap locked: any allocation in the search raises MemoryError.
    micropython.heap_lock()
    try:
        return engine.best_move(board, player, 9, rng)
    finally:
        micropython.heap_unlock()


def test_perfect_play_every_position_heap_locked():
    n = 0
    for board, player, best in positions():
        n += 1
        if not best >> locked(board, player, None) & 1:
            raise AssertionError(board)
        if not best >> locked(board, player, random) & 1:
            raise AssertionError(board)
    if n != 4520:
        raise AssertionError(n)


def test_no_allocation_during_any_search():
    for board, player, _ in positions():
        n = micropython.mem_total()
        engine.best_move(board, player, 9, random)
        if micropython.mem_total() != n:
            raise AssertionError(board)


def test_rng_covers_every_equal_best_move():
    random.seed(5)
    for board, player, best in positions():
        seen = n = 0
        while seen != best and n < 300:
            seen |= 1 << locked(board, player, random)
            n += 1
        if seen != best:
            raise AssertionError(board)
