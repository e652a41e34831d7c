# The baseline for the engine benchmark: a full-tree minimax the way tutorials write it.
# SPDX-License-Identifier: MIT
# A list board, a winner check looping over the lines, every move tried, no pruning, no
# tables; a win scores 10 - depth. From the empty board it visits 549,946 positions. Runs
# under CPython and MicroPython alike (bench/bench_engine_mp.py times it on both).
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
nodes = 0


def winner(board):
    for line in LINES:
        if board[line[0]] != 0 and board[line[0]] == board[line[1]] == board[line[2]]:
            return board[line[0]]
    return 0


def minimax(board, player, me, depth):
    global nodes
    nodes += 1
    w = winner(board)
    if w == me:
        return 10 - depth
    if w != 0:
        return depth - 10
    if 0 not in board:
        return 0
    scores = []
    for i in range(9):
        if board[i] == 0:
            board[i] = player
            scores.append(minimax(board, 3 - player, me, depth + 1))
            board[i] = 0
    return max(scores) if player == me else min(scores)


def best_move(board, me):
    """The best cell for `me` on a list board; `nodes` counts positions, the root included."""
    global nodes
    nodes = 1
    best_score = best = None
    for i in range(9):
        if board[i] == 0:
            board[i] = me
            score = minimax(board, 3 - me, me, 1)
            board[i] = 0
            if best_score is None or score > best_score:
                best_score, best = score, i
    return best
