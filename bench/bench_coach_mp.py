# The coach benchmark's MicroPython half: bench/bench_coach.py runs it on the unix port, the
# firmware as .mpy, and reads the lines it prints (NAME then figures). Argument: a folder for
# the settings file. Not a test.
# SPDX-License-Identifier: MIT
import gc
import sys

import engine
import hostapp
import utime
from engine import X
from game import TWO_PLAYERS, Game
from positions import going_on
from screen import PLAY

RUNS = 20


def fastest(fn, *args):
    # us of the fastest of RUNS calls fn(*args): the least disturbed by the machine's load
    best = None
    for _ in range(RUNS):
        t = utime.ticks_us()
        fn(*args)
        d = utime.ticks_diff(utime.ticks_us(), t)
        best = d if best is None or d < best else best
    return best


out = bytearray(9)
# The engine's move and the coach's scores from the empty board: time and nodes.
best_us = fastest(engine.best_move, 0, X)
best_nodes = engine.last_nodes()
scores_us = fastest(engine.scores_into, out, 0, X)
scores_nodes = engine.last_nodes()
print("EMPTY", best_us, best_nodes, scores_us, scores_nodes)

# Every position: the most nodes, and the slowest but the empty board. Each is timed once; the
# ten slowest of those and the ten that visit the most nodes are timed again (the fastest of
# RUNS each), and the slowest of them kept: one timing alone moves with the load.
timed = []
counted = []
for board, n in going_on().items():
    player = 2 if n & 1 else 1
    t = utime.ticks_us()
    engine.scores_into(out, board, player)
    timed.append((utime.ticks_diff(utime.ticks_us(), t), board, player))
    counted.append((engine.last_nodes(), board, player))
timed.sort()
counted.sort()
most = counted[-1]
slowest = (0, 0, 0, 0)
for _, board, player in timed[-11:] + counted[-11:]:
    if not board:
        continue  # the empty board is timed above: this is the slowest other
    us = fastest(engine.scores_into, out, board, player)
    if us > slowest[0]:
        slowest = (us, engine.last_nodes(), board, player)
best_there = fastest(engine.best_move, slowest[2], slowest[3])
print("SLOWEST", slowest[0], slowest[1], slowest[2], best_there, engine.last_nodes())
print("MOST", most[0], most[1], len(timed))
del timed, counted  # not to be counted in the heap below

# A game's frame and heap with the coach off, on, and turned off again.
hw = hostapp.HostApp(flash=None, glass=False, clock=hostapp.time.RealClock()).hardware()
import app  # noqa: E402
import settings  # noqa: E402

s = settings.Settings.load(sys.argv[1] + "/settings.json")
a = app.App(hw, s)
a.step(0)
a.shared.game = game = Game()
game.begin(TWO_PLAYERS, s)
a.show(PLAY, 0)
play = a.screen
game.play(0)
game.play(2)  # X to move: wins, draws and a loss among the marks
a.step(10)


def heap():
    gc.collect()
    return gc.mem_alloc()


off = heap()
frame_off = fastest(play.draw, hw.lcd)
s.set("coach", True)
a.show(PLAY, 20)  # as when the game shows again after the settings
a.step(30)  # the search and the first frame
on = heap()
frame_on = fastest(play.draw, hw.lcd)
s.set("coach", False)
a.show(PLAY, 40)
a.step(50)
again = heap()
print("HEAP", off, on, again, "coach" in sys.modules or "smallfont" in sys.modules)
print("FRAME", frame_off, frame_on)
