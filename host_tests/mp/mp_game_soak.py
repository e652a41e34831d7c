# Soak at -X heapsize=32k: 1,000 complete one-player games through the game rules (game.Game),
# the engine at every level on both sides, hints, undos, and the tally kept in settings.json.
# Usage: micropython -X heapsize=32k mp_game_soak.py GAMES FOLDER. Prints the heap in use after
# gc.collect() after the first and the last game. (The whole app, with its screens, driver and
# buttons, imports ~50 KB of code and cannot load in 32k: mp_app_soak.py soaks it at 80k.)
# SPDX-License-Identifier: MIT
import gc
import random
import sys

import engine
import game
import settings


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


def main(games, folder):
    random.seed(5110)
    store = settings.Settings.load(folder + "/settings.json")
    g = game.Game()
    first = last = low = high = 0
    for n in range(games):
        play_one(g, store, n)
        gc.collect()
        last = gc.mem_alloc()  # heap in use after each game
        if n == 0:
            first = low = high = last
        low = min(low, last)
        high = max(high, last)
    print(
        "GAMESOAK games %d first %d last %d min %d max %d free %d"
        % (games, first, last, low, high, gc.mem_free())
    )
    tally = store.get("tally1")
    print("TALLY %d %d %d" % (tally[0], tally[1], tally[2]))


main(int(sys.argv[1]), sys.argv[2])
