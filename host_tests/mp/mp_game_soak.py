# Soak at -X heapsize=40k: 1,000 complete one-player games through the game rules (game.Game),
# the engine at every level on both sides, hints, undos, and the tally kept in settings.json.
# Arguments: GAMES FOLDER. The heap in use after gc.collect() must be the same after every game.
# (The whole app, with its screens, driver and buttons, imports ~50 KB of code and cannot load
# in 40k: mp_app_soak.py soaks it at 160k. 32k, with the settings holding the filesystem, left too
# little room for a tmp path as long as pytest-xdist's.)
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=40k args=1000,{tmp}
import gc
import json
import random
import sys

import engine
import game
import mptest
import settings
from mptest import check


def play_one(g, store, n):
    g.start(game.ONE_PLAYER, engine.X if n & 1 else engine.O, n % len(engine.LEVELS))
    turns = 0
    while not g.over():
        if g.cpu_to_move():
            g.play(g.cpu_move(g.level, random))
            continue
        # The "human" is the engine at a random level; in every game it takes its first move
        # from a hint and takes its second move back once, as a player would.
        turns += 1
        if turns == 1:
            g.play(g.hint())
        else:
            g.play(g.cpu_move(random.getrandbits(2), random))
        if turns == 2 and not g.over():
            g.undo()
    key, index = g.tally_slot()
    store.count(key, index)
    store.save()


def test_game_soak_at_40k():
    games = int(sys.argv[1])
    path = sys.argv[2] + "/settings.json"
    random.seed(5110)
    store = settings.Settings.load(path)
    g = game.Game()
    played = first = last = low = high = 0
    for n in range(games):
        play_one(g, store, n)
        played += 1
        gc.collect()
        last = gc.mem_alloc()  # heap in use after each game
        if n == 0:
            first = low = high = last
        low = min(low, last)
        high = max(high, last)
    counts = (played, first, last, low, high, gc.mem_free())
    figures = "games %d first %d last %d min %d max %d free %d" % counts
    print("GAMESOAK", figures)
    check(played == games, figures)
    check(first == last == low == high, "heap in use after each game moved: " + figures)
    # The tally on flash (read back from the file) counts every game exactly once.
    with open(path) as f:
        tally = json.load(f)["tally1"]
    print("TALLY %d %d %d" % (tally[0], tally[1], tally[2]))
    check(sum(tally) == games, "tally on flash %r" % tally)


mptest.run(globals())
