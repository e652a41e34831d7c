# linkgame.py under MicroPython: two boards' Links over the stand-in cable (testbed/linkpair.py)
# play to the end through every one-byte fault of a game's traffic, a cable pulled before each
# move, and noise; the two games never differ without both saying so. The same and more under
# CPython: test_linkgame.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k
import random

import linkgame as lg
import mptest
from linkpair import CELLS, Pair, faulty, traffic_bytes
from mptest import check


def in_step_or_said(p, what):
    a, b = p.games
    said = p.said(lg.OUT_OF_STEP)
    check(said[0] == said[1], "%s: only one board said so" % what)
    if not said[0]:
        check(a.board == b.board and a.count == b.count, "%s: the games differ" % what)


def test_every_one_byte_fault_of_a_games_traffic():
    total = traffic_bytes()
    for kind in ("flip", "lose", "double"):
        for at in range(total):
            p = Pair(faulty(kind, at))
            p.run(300)
            p.play()
            what = "%s at byte %d" % (kind, at)
            in_step_or_said(p, what)
            check(p.games[0].count == 9 and not any(p.said(lg.OUT_OF_STEP)), what)


def test_a_cable_pulled_before_each_move():
    for moves in range(9):
        p = Pair()
        p.run(300)
        for _ in range(moves):
            link = p.mover()
            link.move(CELLS[link.game.count], p.now)
            p.run(400)
        p.cable.pulled = True
        p.run(lg.LOST_MS + 100)
        check([link.state for link in p.links] == [lg.LOST, lg.LOST], "not lost: %d" % moves)
        p.cable.pulled = False
        p.run(500)
        p.play()
        in_step_or_said(p, "pulled after %d moves" % moves)
        check(p.games[0].count == 9, "pulled after %d moves: not played out" % moves)


def test_noise_never_changes_a_game():
    p = Pair()
    p.run(300)
    link = p.mover()
    link.move(4, p.now)
    p.run(400)
    random.seed(3)
    for _ in range(100):
        for end in (p.cable.a, p.cable.b):
            end.inbox.extend(bytes(random.getrandbits(8) for _ in range(500)))
        p.run(100)
    check([g.count for g in p.games] == [1, 1] and p.games[0].board == p.games[1].board)
    p.run(1000)
    check([link.state for link in p.links] == [lg.PLAYING, lg.PLAYING])


mptest.run(globals())
