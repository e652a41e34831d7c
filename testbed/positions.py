# Every position a game of tic-tac-toe can go on from, and how a move there ends with best play:
# for the exhaustive tests and benchmarks.
# SPDX-License-Identifier: MIT
import engine
import gameboard

GOING_ON = 4520  # reachable from the empty board, nobody has three in a row, a cell is free


def going_on():
    """{board: how many marks are on it} (the engine's board ints) for every position reachable
    from the empty board where the game is not over: GOING_ON of them. X moves on an even count."""
    seen = {0: 0}
    todo = [0]
    out = {}
    while todo:
        board = todo.pop()
        n = seen[board]
        if engine.winner(board) or n == 9:
            continue
        out[board] = n
        player = engine.O if n & 1 else engine.X
        for i in range(9):
            if not (board >> 2 * i) & 3:
                after = board | player << 2 * i
                if after not in seen:
                    seen[after] = n + 1
                    todo.append(after)
    return out


def sign(n):
    return (n > 0) - (n < 0)


def best_score(board):
    """The best root score (gameboard.root_scores) of the side to move, the game not over."""
    return max(s for s in gameboard.root_scores(board, gameboard.to_move(board)) if s is not None)


def result_after(board, cell, best=best_score):
    """The mover's result (1 a win, 0 a draw, -1 a loss) once `cell` is played and both sides
    play their best: the game's end, or the opponent's best from there, negated. `best`:
    best_score, or a cached copy of it."""
    after = board | gameboard.to_move(board) << 2 * cell
    if engine.winner(after):
        return 1
    if all(after >> 2 * i & 3 for i in range(9)):
        return 0
    return -sign(best(after))
