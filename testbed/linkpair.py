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
        self.games = [Game(), Game()]
        self.links = []
        for i, end in enumerate((self.cable.a, self.cable.b)):
            self.links.append(lg.Link(linkwire.Wire(end), self.games[i], nonces[i]))
        self.events = ([], [])
        for link in self.links:
            link.start(self.now)

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

    def mover(self):
        """The Link whose board's player is to move."""
        for link in self.links:
            if link.state == lg.PLAYING and link.game.turn() == link.mine:
                return link
        return None

    def play(self, cells=CELLS, patience_ms=20000):
        """Each board's player plays the next of `cells` when it is their turn (a press every
        100 ms), until the game is over on both boards or `patience_ms` passes."""
        waited = 0
        while waited < patience_ms:
            games = self.games
            if all(g.over() for g in games) and self.settled():
                return
            link = self.mover()
            if link is not None and not link.game.over() and not link._waiting_ack:
                link.move(cells[link.game.count], self.now)
            self.run(100)
            waited += 100

    def settled(self):
        return not any(link._waiting_ack for link in self.links)

    def said(self, state):
        return [any(s == state for _, s in events) for events in self.events]


def frame(*message):
    """The bytes of `message` framed as a board puts it on the wire (linkwire.Wire.send)."""
    c = cable.Cable()
    linkwire.Wire(c.a).send(bytes(message), len(message))
    return bytes(c.b.inbox)


def faulty(kind, at):
    """A cable fault that does `kind` to the `at`-th byte put on the wire."""
    count = [0]

    def fault(end, data):
        out = bytearray()
        for b in data:
            if count[0] == at:
                if kind == "flip":
                    out.append(b ^ 0x10)
                elif kind == "double":
                    out += bytes((b, b))
                # "lose": nothing
            else:
                out.append(b)
            count[0] += 1
        return bytes(out)

    return fault


def traffic_bytes():
    count = [0]

    def fault(end, data):
        count[0] += len(data)
        return data

    p = Pair(fault).joined()
    p.play()
    return count[0]
