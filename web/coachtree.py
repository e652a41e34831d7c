# The page's tree explorer: a position's moves with the engine's scores, expanded on demand.
# SPDX-License-Identifier: MIT
"""Fetched (explorer.bin) and imported by oxoweb.Page when the explorer is first opened. What
each node shows, from the explorer's root (the position on the glass, or the empty board):

- score, mark: engine.scores_into's exact score of the move from the mover's side (a win n
  plies away 100 - n, a loss -(100 - n), a draw 0) and coach.mark of it (W n, L n, D).
- best: the cells the device's coach boxes (coach.Coach.boxed): the top score among siblings,
  none when every move ties (the empty board; a position where every move loses as soon).
- line: on the best line, engine.best_move from the root on (of equal moves the first in the
  engine's order: centre, corners, edges) to the end.
- cut: a plain alpha-beta run once from the root never visits the node: textbook fail-hard
  negamax, no memo, no symmetries, window (-inf, inf) at the root, moves in the engine's order,
  the moves after one that reaches beta (and all below them) cut off. A finished game scores
  as the engine scores it, plies counted from the root; a full board 0.
- minimax: the size of the game tree below the node's position, itself included (a memoised
  count by position: no search of the 549,946 positions under the empty board).
- alphabeta: the positions that alpha-beta run visited at and below the node (0 if cut off).
- engine: engine.last_nodes() after scores_into of the node's position; None for a finished
  game, which it does not search.
"""

import json

import coach
import engine
from micropython import const

# The engine's move order: the centre, the corners, the edges.
ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)
_LINES_THROUGH = tuple(tuple(line for line in engine.WIN_LINES if i in line) for i in range(9))
_WIN = const(100)  # a win n plies from the root scores _WIN - n (engine.py's scores)
_INF = const(1000)
_POSITIONS = const(19683)  # 3 ** 9: a position's base-3 code, cell i's 0/X/O times 3 ** i
_POW3 = const((1, 3, 9, 27, 81, 243, 729, 2187, 6561))
_BIG = const(65536)  # a size that needs more than 2 bytes: only the empty board's (549,946)
# The game tree's size under each position (minimax's count), 2 bytes a position by its code,
# 0 not yet counted: shared by every tree, since it depends on the position only, so the
# explorer re-rooted after a move counts nothing again. 39 KB, made when first needed: a dict
# of the game's 5,478 positions asked for one table of 115 KB on the 64-bit unix port.
_sizes = None


def _won(cells, i):
    # The move just made on cell i completed a line.
    side = cells[i]
    for a, b, c in _LINES_THROUGH[i]:
        if cells[a] == side and cells[b] == side and cells[c] == side:
            return True
    return False


def _code(cells):
    # A position's index in _sizes.
    code = 0
    for i in range(9):
        code += cells[i] * _POW3[i]
    return code


class Tree:
    """The explorer for `board` (engine's packed board) with `player` to move. Nodes are named
    by their path: the cells played from the root, as a string of digits ("" the root)."""

    def __init__(self, board, player):
        self.board = board
        self.player = player
        engine.winner(board)  # checks the board: ValueError naming the fault
        self.cells = [board >> 2 * i & 3 for i in range(9)]
        self._visits = 0  # alpha-beta's positions visited, a running count
        # path -> the alpha-beta window its node was searched with, or None if it was not
        # searched (cut off); filled as nodes are listed, for their expansion.
        self._windows = {"": (-_INF, _INF)}
        self._root_ab = None  # alpha-beta's count at the root, once the root is expanded
        # path -> (coach.Coach of the node's position, engine.last_nodes() of its search): the
        # engine searches each listed position once, for its count and, opened, its moves.
        self._engine = {}
        self.over = engine.winner(board) != engine.EMPTY or 0 not in self.cells
        self.line = self._best_line()

    # -- positions ----------------------------------------------------------------------------

    def _play(self, path):
        # The cells and the packed board after `path` from the root, and the side to move.
        cells = list(self.cells)
        board = self.board
        side = self.player
        for ch in path:
            i = ord(ch) - 48
            if not 0 <= i < 9 or cells[i]:
                raise ValueError("path %r: cell %s is not a free cell" % (path, ch))
            cells[i] = side
            board |= side << 2 * i
            side = 3 - side
        return cells, board, side

    def _over(self, cells, last):
        # The game has ended at this position, reached by playing `last` (-1: the root).
        return self.over if last < 0 else _won(cells, last) or 0 not in cells

    def _best_line(self):
        # The cells engine.best_move plays from the root to the end, as a path.
        if self.over:
            return ""
        cells, board, side = list(self.cells), self.board, self.player
        line = ""
        while True:
            i = engine.best_move(board, side)
            cells[i] = side
            board |= side << 2 * i
            line += chr(48 + i)
            if self._over(cells, i):
                return line
            side = 3 - side

    # -- the counts ---------------------------------------------------------------------------

    def size(self, cells, code, last):
        """Plain minimax's positions for this position (its base-3 `code`, reached by playing
        `last`, -1 for the root): itself and every one below it."""
        global _sizes
        if _sizes is None:
            _sizes = bytearray(2 * _POSITIONS)
        known = _sizes[2 * code] | _sizes[2 * code + 1] << 8
        if known:
            return known
        total = 1
        if not self._over(cells, last):
            side = 2 - (cells.count(0) & 1)  # X moves on an odd number of empty cells
            for i in range(9):
                if not cells[i]:
                    cells[i] = side
                    total += self.size(cells, code + side * _POW3[i], i)
                    cells[i] = 0
        if total < _BIG:
            _sizes[2 * code] = total & 255
            _sizes[2 * code + 1] = total >> 8
        return total

    def _alphabeta(self, cells, side, last, ply, alpha, beta):
        # Plain negamax alpha-beta (fail-hard): the value for `side`, to move, of the position
        # reached `ply` plies from the root by playing cell `last`.
        self._visits += 1
        if last >= 0 and _won(cells, last):
            return ply - _WIN  # the other side won ply plies from the root
        if 0 not in cells:
            return 0
        for i in ORDER:
            if cells[i]:
                continue
            cells[i] = side
            value = -self._alphabeta(cells, 3 - side, i, ply + 1, -beta, -alpha)
            cells[i] = 0
            if value >= beta:
                return beta
            if value > alpha:
                alpha = value
        return alpha

    def _searched(self, path, board, side):
        # The engine's search of the position at `path`: (its coach.Coach, its node count).
        found = self._engine.get(path)
        if found is None:
            c = coach.Coach()
            c.read(board, side)  # engine.scores_into: every move's exact score
            found = self._engine[path] = (c, engine.last_nodes())
        return found

    # -- what the page shows --------------------------------------------------------------------

    def root(self):
        """The root as JSON: board, player, over, the best line, the counts. The alpha-beta
        count is the whole run's, known once the root is expanded (null before)."""
        cells = list(self.cells)
        engine_nodes = None if self.over else self._searched("", self.board, self.player)[1]
        return json.dumps(
            {
                "board": self.board,
                "player": self.player,
                "over": self.over,
                "line": self.line,
                "minimax": self.size(cells, _code(cells), -1),
                "alphabeta": self._root_ab,
                "engine": engine_nodes,
            }
        )

    def expand(self, path):
        """The moves from the node `path` (a listed node or the root) as a JSON list, in the
        engine's move order; [] for a finished game. ValueError for a path that is not one."""
        if path not in self._windows:
            raise ValueError("node %r is not listed: expand its parent first" % path)
        cells, board, side = self._play(path)
        last = ord(path[-1]) - 48 if path else -1
        if self._over(cells, last):
            return "[]"
        moves = self._searched(path, board, side)[0]  # the moves' scores, the cells it boxes
        window = self._windows[path]
        ply = len(path)
        out = []
        total = 0
        for i in ORDER:
            if cells[i]:
                continue
            child = path + chr(48 + i)
            cells[i] = side
            child_board = board | side << 2 * i
            over = self._over(cells, i)
            visits = 0
            if window is None or window[0] >= window[1]:
                self._windows[child] = None  # alpha-beta cut this node off
            else:
                alpha, beta = window
                self._windows[child] = (-beta, -alpha)
                before = self._visits
                value = -self._alphabeta(cells, 3 - side, i, ply + 1, -beta, -alpha)
                visits = self._visits - before
                if value >= beta:
                    alpha = beta  # a cut: the moves after this one are not searched
                elif value > alpha:
                    alpha = value
                window = (alpha, beta)
            total += visits
            engine_nodes = None if over else self._searched(child, child_board, 3 - side)[1]
            scored = moves.scores[i]  # as engine.scores_into gives it: the score + 128
            out.append(
                {
                    "cell": i,
                    "path": child,
                    "side": side,
                    "score": scored - 128,
                    "mark": coach.mark(scored).decode(),
                    "best": scored == moves.boxed,
                    "line": self.line.startswith(child),
                    "cut": self._windows[child] is None,
                    "over": over,
                    "minimax": self.size(cells, _code(cells), i),
                    "alphabeta": visits,
                    "engine": engine_nodes,
                }
            )
            cells[i] = 0
        if not path and self._windows[""] is not None:
            self._root_ab = total + 1
        return json.dumps(out)
