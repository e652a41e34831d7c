# Board helpers for tests and benches: cells <-> the engine's board int, whose turn, a score,
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


def evaluate(board, player):
    """Static score for `player` (X or O): 100 with three in a row, -100 if the opponent has
    three, else the lines still open to player minus those open to the opponent (-8..8): what
    the engine scores where its depth limit cuts a line of play off."""
    if player != engine.X and player != engine.O:
        raise ValueError("player must be X (1) or O (2)")
    won = engine.winner(board)
    if won:
        return 100 if won == player else -100
    cells = unpack(board)
    score = 0
    for line in engine.WIN_LINES:
        marks = {cells[i] for i in line}
        if engine.O not in marks:
            score += 1 if player == engine.X else -1  # open to X
        if engine.X not in marks:
            score += 1 if player == engine.O else -1  # open to O
    return score


def root_scores(board, player, depth=9):
    """engine.scores_into's scores as a new list by cell: the score itself, None for a taken
    cell (scores_into gives a score + 128, 0 for a taken cell)."""
    out = bytearray(9)
    engine.scores_into(out, board, player, depth)
    return [None if value == 0 else value - 128 for value in out]
