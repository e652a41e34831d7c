# Board helpers for tests and benches: cells <-> the engine's board int, whose turn,
# every move's exact score.
# SPDX-License-Identifier: MIT
# The firmware never needs these: a game keeps the board as the engine's int and knows whose
# turn it is, so they live here, off the board's heap (issue 19: heap while playing). They run
# under CPython and MicroPython, and check a board through the engine (engine.winner raises
# ValueError for a malformed one, naming the fault).
import engine

_CELLS = (engine.EMPTY, engine.X, engine.O)


def pack(cells):
    """The board int of 9 cell values (EMPTY, X or O), row-major from the top-left."""
    if len(cells) != 9:
        raise ValueError("pack needs 9 cells, each 0, 1 or 2")
    board = 0
    for i in range(9):
        if cells[i] not in _CELLS:
            raise ValueError("pack needs 9 cells, each 0, 1 or 2")
        board |= cells[i] << 2 * i
    return board


def unpack(board):
    """The list of the 9 cell values of a board (ValueError for a malformed one)."""
    engine.winner(board)
    return [board >> 2 * i & 3 for i in range(9)]


def to_move(board):
    """X or O: whose turn it is by the counts (ValueError for a malformed board)."""
    cells = unpack(board)
    return engine.X if cells.count(engine.X) == cells.count(engine.O) else engine.O


def root_scores(board, player, depth=9):
    """engine.scores_into's scores as a new list by cell: the score itself, None for a taken
    cell (scores_into gives a score + 128, 0 for a taken cell)."""
    out = bytearray(9)
    engine.scores_into(out, board, player, depth)
    return [None if value == 0 else value - 128 for value in out]
