# The coach: every free cell's exact value for the side to move, and what a player reads of it.
# SPDX-License-Identifier: MIT
# Loaded only where it is used (the Coach setting on, a review): a game without it never holds
# this code in RAM. The marks are drawn on the glass by screens/coachmarks.py.
import engine
from micropython import const

# engine.scores_into's values: a score + 128, where a win n plies away scores 100 - n, a loss
# -(100 - n), a draw 0.
_OFFSET = const(128)
_WIN = const(100)
# What a player reads: W n, you win with your n-th move from here (this one is the first); L n,
# the other side wins with its n-th move from here, whatever you do; D, a draw with best play.
_MARKS = const((b"D", b"W1", b"W2", b"W3", b"W4", b"W5", b"L1", b"L2", b"L3", b"L4"))
_LOSSES = const(5)  # _MARKS[_LOSSES + n] is L n


def mark(value):
    """The mark (bytes) of a cell's value from engine.scores_into, which must not be 0."""
    score = value - _OFFSET
    if score > 0:  # a win n = 100 - score plies away, n odd: my ((n + 1) // 2)-th move
        return _MARKS[(_WIN - score + 1) // 2]
    if score < 0:  # a loss n = 100 + score plies away, n even: their (n // 2)-th move
        return _MARKS[_LOSSES + (_WIN + score) // 2]
    return _MARKS[0]


def outcome(value):
    """1 for a win, 0 for a draw, -1 for a loss: a value of engine.scores_into, not 0."""
    return (value > _OFFSET) - (value < _OFFSET)


class Coach:
    """The values of one position's moves, searched once per position (a frame draws them
    again without a search) and leaving no garbage."""

    def __init__(self):
        self.scores = bytearray(9)  # by cell, as engine.scores_into gives them
        self.best = 0  # the highest of them
        self.boxed = 0  # the value the cells set apart hold: best, or 0 when every move ties
        self.board = -1  # the position they are for (-1: none yet)
        self.player = 0

    def read(self, board, player):
        """Search `board` with `player` to move, unless it is the position last searched."""
        if board == self.board and player == self.player:
            return
        scores = self.scores
        engine.scores_into(scores, board, player)
        self.board = board
        self.player = player
        best = 0
        worst = 255
        for i in range(9):
            value = scores[i]
            if value:
                if value > best:
                    best = value
                if value < worst:
                    worst = value
        self.best = best
        # All the same (the empty board: every move draws): none is better, so none is set apart.
        self.boxed = best if worst < best else 0


# What a move cost, as the review says it (review.py): the result the best move kept (W, D, L)
# and the one the move played leads to, by name. BEST: one of the best moves; SLOWER/SOONER:
# the same result, a win taken later or a loss let come sooner; the rest threw a result away.
BEST_WIN = const(0)
BEST_DRAW = const(1)
BEST_LOSS = const(2)
SLOWER_WIN = const(3)
SOONER_LOSS = const(4)
WIN_DRAW = const(5)
WIN_LOSS = const(6)
DRAW_LOSS = const(7)
COSTS = const(8)  # how many there are


def cost(best, value):
    """What playing a move of `value` cost where the position's best move has `best` (both
    engine.scores_into values, not 0; value <= best): BEST_WIN .. DRAW_LOSS. ValueError if
    value is above best (then `best` is not the best)."""
    if not 0 < value <= best:
        raise ValueError("need 0 < value <= best, got value %r, best %r" % (value, best))
    before = outcome(best)
    after = outcome(value)
    if before == after:
        if value == best:
            return BEST_WIN if before > 0 else BEST_LOSS if before < 0 else BEST_DRAW
        return SLOWER_WIN if before > 0 else SOONER_LOSS  # a draw's value is always 128
    if before > 0:
        return WIN_DRAW if after == 0 else WIN_LOSS
    return DRAW_LOSS
