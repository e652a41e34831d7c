# The API under MicroPython: pack/unpack/to_move/winner/winning_line/evaluate.
# SPDX-License-Identifier: MIT
# Run by host_tests/test_engine_mp.py through mp_engine_run.py, precompiled, in a 16k heap. A
# failure raises AssertionError with the offending board or fault.
import sys

import engine

REC = bytearray(6)


def positions():
    # (board, player) for the 4,520 positions of the reference file (see mp_engine_play.py).
    with open(sys.argv[1], "rb") as f:
        while f.readinto(REC) == 6:
            yield REC[0] | REC[1] << 8 | REC[2] << 16, REC[3]


def test_pack_unpack_to_move_winner_evaluate():
    for board, player in positions():
        if engine.pack(engine.unpack(board)) != board or engine.to_move(board) != player:
            raise AssertionError(board)
        if engine.winner(board) or engine.winning_line(board) is not None:
            raise AssertionError(board)
        if not -8 <= engine.evaluate(board, engine.X) <= 8:
            raise AssertionError(board)
        if engine.evaluate(board, engine.X) != -engine.evaluate(board, engine.O):
            raise AssertionError(board)
    board = engine.pack([1, 1, 1, 2, 2, 0, 0, 0, 0])
    if engine.winner(board) != engine.X or engine.winning_line(board) != (0, 1, 2):
        raise AssertionError(board)
    if engine.evaluate(board, engine.X) != 100 or engine.evaluate(board, engine.O) != -100:
        raise AssertionError(board)
