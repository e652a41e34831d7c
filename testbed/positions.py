# Every position a game of tic-tac-toe can go on from, for the exhaustive tests and benchmarks.
# SPDX-License-Identifier: MIT
import engine

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
