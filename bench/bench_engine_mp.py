# The engine benchmark's measurements; runs under CPython and the MicroPython unix port alike.
# SPDX-License-Identifier: MIT
# bench/bench_engine.py imports it under CPython and runs it under MicroPython (engine as .mpy)
# as `micropython bench_engine_mp.py`, which prints the results as one JSON line. Not a test.
import sys
import time

import engine
import gameboard
import micropython  # on CPython testbed/cpython's: the engine's const(), the ticks in time
import plain_minimax
import positions


def mem_total():
    return micropython.mem_total() if hasattr(micropython, "mem_total") else None


# name: cells (row-major, 0 empty, 1 X, 2 O); the side to move follows from the counts.
POSITIONS = (
    ("empty board", "........."),
    ("X centre", "....X...."),
    ("X corner", "X........"),
    ("X edge (7)", ".......X."),
    ("X corner, O centre", "X...O...."),
    ("X opposite corners", "X...O...X"),
    ("O must block", "XX..O...."),
    ("late middle game", "X.O.O.X.X"),
)


def board_of(text):
    return sum(" XO".index(c.replace(".", " ")) << 2 * i for i, c in enumerate(text))


def time_move(board, player, repeats):
    # Best (least disturbed) of `repeats` timings of one best_move, in microseconds.
    best = None
    for _ in range(repeats):
        t = time.ticks_us()
        engine.best_move(board, player)
        t = time.ticks_diff(time.ticks_us(), t)
        best = t if best is None or t < best else best
    return best


def measure(repeats=50):
    rows = []
    for name, text in POSITIONS:
        board = board_of(text)
        player = gameboard.to_move(board)
        us = time_move(board, player, repeats)
        nodes = engine.last_nodes()
        total = mem_total()
        engine.best_move(board, player)
        allocated = None if total is None else mem_total() - total
        t = time.ticks_us()
        plain_minimax.best_move(gameboard.unpack(board), player)
        plain_us = time.ticks_diff(time.ticks_us(), t)
        rows.append([name, nodes, us, plain_minimax.nodes, plain_us, allocated])
    return rows


def slowest(repeats=3, again=60, candidates=8):
    # The slowest reachable position against the empty board, in nodes (a count, so machine
    # load cannot change it) and in time. Every position is timed `repeats` times; the
    # `candidates` slowest by time and by nodes are then timed `again` times each, interleaved
    # with the empty board, so that a burst of load slows both alike, and each keeps its
    # minimum (the least disturbed run).
    # Every position a game goes on from (testbed/positions.py).
    live = [(board, gameboard.to_move(board)) for board in positions.going_on()]
    empty_nodes = 0
    nodes = {}
    times = []
    for board, player in live:
        t = time_move(board, player, repeats)
        if board:
            nodes[board] = engine.last_nodes()
            times.append((t, board, player))
        else:
            empty_nodes = engine.last_nodes()
    by_time = sorted(times, reverse=True)[:candidates]
    by_nodes = sorted(times, key=lambda row: nodes[row[1]], reverse=True)[:candidates]
    empty = time_move(0, engine.X, repeats)
    worst, worst_board = 0, None
    for _, board, player in by_time + by_nodes:
        t = None
        for _ in range(again):
            empty = min(empty, time_move(0, engine.X, 1))
            one = time_move(board, player, 1)
            t = one if t is None or one < t else t
        if t > worst:
            worst, worst_board = t, board
    most = max(nodes.values())
    most_board = [b for b in nodes if nodes[b] == most][0]
    return [len(live), empty, worst, worst_board, most, most_board, empty_nodes]


if __name__ == "__main__":
    import json

    print(json.dumps({"rows": measure(), "slowest": slowest()}))
    sys.exit(0)
