# Two boards joined by the link cable on the host: each a game.Game and a linkgame.Link on one
# end of a stand-in cable (cable.py), stepped together on one clock, for test_linkgame.py; its
# faults for test_linkplay.py's cable too.
# SPDX-License-Identifier: MIT
import cable
import linkgame as lg
import linkwire
from game import Game

STEP_MS = 10
# A drawn game, the cells in the order played (X 4, O 0, X 2, O 6, X 3, O 5, X 1, O 7, X 8):
# every cell and all nine moves go over the wire.
CELLS = (4, 0, 2, 6, 3, 5, 1, 7, 8)


class Pair:
    """Two boards, a and b, each a Game and a Link, on one cable and one clock."""

    def __init__(self, fault=None, nonces=(2, 1)):
        self.cable = cable.Cable()
        self.cable.fault = fault
        self.now = 0
        self.games = [None, None]
        self.links = [None, None]
        self.events = ([], [])
        for i, nonce in enumerate(nonces):
            self.renew(i, nonce)

    def renew(self, i, nonce):
        """Board i (0 a, 1 b) starts (again: a reset): a fresh Game and Link on its end."""
        self.games[i] = Game()
        end = (self.cable.a, self.cable.b)[i]
        self.links[i] = lg.Link(linkwire.Wire(end), self.games[i], nonce)
        self.links[i].start(self.now)

    def joined(self):
        """The pair once the two boards have found each other (300 ms on)."""
        self.run(300)
        return self

    def run(self, ms):
        for _ in range(ms // STEP_MS):
            self.now += STEP_MS
            for i, link in enumerate(self.links):
                event = link.step(self.now)
                if event is not None:
                    self.events[i].append((event, link.state))

    def states(self):
        return [link.state for link in self.links]

    def mover(self):
        """The Link whose board's player is to move."""
        for link in self.links:
            if link.state == lg.PLAYING and link.game.turn() == link.mine:
                return link
        return None

    def turn(self, cells=CELLS):
        """The player to move plays the next of `cells`, unless the game is over or their last
        move is still in flight."""
        link = self.mover()
        if link is not None and not link.game.over() and not link._waiting_ack:
            link.move(cells[link.game.count], self.now)

    def play(self, cells=CELLS, patience_ms=20000):
        """Each board's player plays the next of `cells` when it is their turn (a press every
        100 ms), until the game is over on both boards or `patience_ms` passes."""
        for _ in range(patience_ms // 100):
            if all(g.over() for g in self.games) and self.settled():
                return
            self.turn(cells)
            self.run(100)

    def settled(self):
        return not any(link._waiting_ack for link in self.links)

    def said(self, state):
        return [any(s == state for _, s in events) for events in self.events]


def frame(*message):
    """The bytes of `message` framed as a board puts it on the wire (linkwire.Wire.send)."""
    c = cable.Cable()
    linkwire.Wire(c.a).send(bytes(message), len(message))
    return bytes(c.b.inbox)


def expected(moves):
    """The nine cells, X, O or ., after `moves` (cells in the order played, X first)."""
    marks = ["."] * 9
    for k, cell in enumerate(moves):
        marks[cell] = "XO"[k % 2]
    return "".join(marks)


class Faulty:
    """A cable fault (cable.Cable.fault) doing each of `faults`, (kind, at, value), to the
    at-th byte put on the wire, both ways counted: "flip" flips its bit value % 8, "lose" loses
    it, "double" doubles it, "noise" puts value % 5 + 1 bytes of value before it. `count`: the
    bytes put on the wire so far."""

    def __init__(self, *faults):
        self.faults = faults
        self.count = 0

    def __call__(self, end, data):
        out = bytearray()
        for b in data:
            for kind, at, value in self.faults:
                if at != self.count:
                    continue
                if kind == "flip":
                    b ^= 1 << (value % 8)
                elif kind == "lose":
                    b = None
                    break
                elif kind == "double":
                    out.append(b)
                elif kind == "noise":
                    out += bytes((value,)) * (value % 5 + 1)
            if b is not None:
                out.append(b)
            self.count += 1
        return bytes(out)


def traffic_bytes():
    """The bytes a drawn game puts on the wire, both ways, from the join to the end."""
    count = Faulty()
    Pair(count).joined().play()
    return count.count
