# A game between two boards over the link cable: who is X, moves both ways, and what the wire
# does to them. Loaded only for link play.
# SPDX-License-Identifier: MIT
"""`Link(wire, game, nonce)` keeps one game.Game (a game.LINK game, begun by the Link when the
boards join and at each rematch, its `human` this board's mark) in step with the other board's
over a linkwire.Wire. The caller steps it (`step(now)`, as often as the loop runs) and hands
it this board's moves (`move(cell, now)`); it applies the other board's moves to the game
itself, so a move is applied whole or not at all. `state` says where the link stands; `step`
answers an event (or None) for the screen to show.

The messages (each [VERSION, kind, ...]; a position is the move count and game.Game's board
int in 3 bytes, so each side sees at once when the two disagree):
  HELLO  nonce, the other's nonce as heard (2 bytes each; 0: none yet), games, state,
         position: sent every HELLO_MS while WAITING or LOST, and as the answer to one from a
         board in either (a board joins once the other's HELLO echoes its nonce)
  MOVE   seq, cell, position after it       sent again every RETRY_MS until its ACK
  ACK    seq, position                       the move was applied: the position after it
  NO     seq, why, position                  the move was refused (why: a NO_* below)
  PING   position                            sent after PING_MS with nothing else to send
  AGAIN  games                               ready for the next game
  BYE    nonce                               this board leaves link play (sent twice)
A board joins once the other's HELLO echoes its nonce, so neither plays before both know each
other. Who is X: the higher nonce for the first game, the other board for the next, and so on
(a tie draws new nonces). A HELLO with another nonce once joined is another board, or this one
after a reset: its game is GONE, as it is at once when the board says BYE. A message of another
VERSION (a HELLO) is OTHER_VERSION; any other message that does not fit (a kind, a length, a
sequence number, a move out of turn or onto a taken cell) is refused or ignored and never
applied. A position more than a move in
flight away from this board's is OUT_OF_STEP, said to the other board too. Nothing heard for
LOST_MS is LOST; heard again with the same position, the game goes on (STATE, back to
PLAYING); not heard for GONE_MS, GONE."""

import time

import engine
from game import LINK
from micropython import const

VERSION = const(1)
# Message kinds.
_HELLO = const(1)
_MOVE = const(2)
_ACK = const(3)
_NO = const(4)
_PING = const(5)
_AGAIN = const(6)
_BYE = const(7)
# Why a move is refused.
NO_TURN = const(1)  # not the sender's turn (or a move still unacknowledged)
NO_CELL = const(2)  # the cell is taken, or no cell
NO_STEP = const(3)  # the positions disagree
# States.
WAITING = const(0)  # for the other board
PLAYING = const(1)
LOST = const(2)  # nothing heard for LOST_MS
OUT_OF_STEP = const(3)  # the two positions disagree: the game is over for both
OTHER_VERSION = const(4)  # the other board speaks another version (other_version)
GONE = const(5)  # nothing heard for GONE_MS
# Events step() answers.
JOINED = const(1)  # the boards found each other; `mine` is this board's mark
MOVED = const(2)  # the other board's move is on the game (`cell`)
ACKED = const(3)  # this board's move reached the other board
REFUSED = const(4)  # the other board refused this board's move (`why`); the game undid it
STATE = const(5)  # `state` changed (LOST, BACK to PLAYING, OUT_OF_STEP, OTHER_VERSION, GONE)
AGAIN = const(6)  # both boards are ready: a new game has begun (`mine` may have changed)

HELLO_MS = const(250)
RETRY_MS = const(250)
PING_MS = const(500)
LOST_MS = const(2000)  # within the 2 s the issue allows: 4 pings missed
GONE_MS = const(60000)


class Link:
    def __init__(self, wire, game, nonce):
        self.wire = wire
        self.game = game
        self.nonce = nonce & 0xFFFF or 1  # 0 is "none heard yet"
        self.state = WAITING
        self.mine = engine.X
        self.games = 0  # games begun over this link: who is X alternates
        self.cell = -1  # the other board's last move (MOVED)
        self.why = 0  # why this board's move was refused (REFUSED)
        self.other_version = 0
        self.ready = False  # this board asked for the next game
        self._their_ready = False
        self._first = False  # this board is X in the link's first game
        self._peer = 0  # the other board's nonce, once heard
        self._seq = 0  # this board's last move's number
        self._their_seq = 0  # the other board's last move's number
        self._waiting_ack = False
        self._heard = 0  # when the other board was last heard
        self._sent = 0  # when this board last sent
        self._out = bytearray(12)

    # -- this board's side ----------------------------------------------------------------------

    def start(self, now):
        self._heard = now
        self._send_hello(now)

    def move(self, cell, now):
        """Play `cell` for this board, if it is its turn and the link is playing: True if it
        was played (and is on its way)."""
        game = self.game
        if self.state != PLAYING or self._waiting_ack or game.turn() != self.mine:
            return False
        if not 0 <= cell <= 8 or not game.free(cell):
            return False
        game.play(cell)
        self._seq = self._seq % 255 + 1
        self._waiting_ack = True
        self._send_move(now)
        return True

    def again(self, now):
        """This board is ready for the next game (after a result)."""
        if self.state == PLAYING and self.game.over() and not self.ready:
            self.ready = True
            self._send_again(now)
            return self._begin_if_both(now)
        return None

    def bye(self, now):
        """This board leaves link play: the other board is told (twice: one may be lost; a
        BYE lost twice leaves it to notice the silence), so it says so at once."""
        if self._peer and (self.state == PLAYING or self.state == LOST):
            self._head(_BYE)
            self._out[2] = self.nonce >> 8
            self._out[3] = self.nonce & 0xFF
            self._send(4, now)
            self._send(4, now)

    # -- the loop -------------------------------------------------------------------------------

    def step(self, now):
        """Read what came in, send what is due; the event for the screen, or None."""
        wire = self.wire
        event = None
        while event is None:
            n = wire.receive()
            if not n:
                break
            event = self._received(wire.message, n, now)
        if event is not None:
            return event
        state = self.state
        if state == OUT_OF_STEP:  # said again, in case the other board did not hear it
            if time.ticks_diff(now, self._sent) >= RETRY_MS:
                self._send_reply(_NO, self._their_seq, NO_STEP, now)
            return None
        if state == OTHER_VERSION or state == GONE:
            return None
        silent = time.ticks_diff(now, self._heard)
        if state != WAITING:
            if silent >= GONE_MS:
                self.state = GONE
                return STATE
            if state == PLAYING and silent >= LOST_MS:
                self.state = LOST
                return STATE
        since = time.ticks_diff(now, self._sent)
        if state == WAITING or state == LOST:
            if since >= HELLO_MS:
                self._send_hello(now)
        elif self._waiting_ack:
            if since >= RETRY_MS:
                self._send_move(now)
        elif self.ready and not self._their_ready:
            if since >= RETRY_MS:
                self._send_again(now)
        elif since >= PING_MS:
            self._send_position(_PING, 2, now)
        return None

    # -- what came in ---------------------------------------------------------------------------

    def _received(self, m, n, now):
        if n < 2:
            return None
        kind = m[1]
        if m[0] != VERSION:
            if kind == _HELLO and self.state == WAITING:
                self.other_version = m[0]
                self.state = OTHER_VERSION
                return STATE
            return None
        if self.state == OUT_OF_STEP or self.state == OTHER_VERSION:
            return None
        self._heard = now
        if kind == _HELLO and n == 12:
            return self._hello(m, now)
        if self.state == WAITING:
            return None  # nothing but a HELLO means anything yet
        if kind == _BYE and n == 4:
            if m[2] << 8 | m[3] != self._peer or self.state == GONE:
                return None  # another board's, or said already
            self.state = GONE
            return STATE
        if self.state == LOST or self.state == GONE:
            if not self._same(m, n, kind):
                return None
            self.state = PLAYING  # back, with the same position
            return STATE
        if kind == _MOVE and n == 8:
            return self._their_move(m, now)
        if kind == _ACK and n == 7:
            if self._waiting_ack and m[2] == self._seq:
                if not self._in_step(m, 3):
                    return self._out_of_step(now)
                self._waiting_ack = False
                return ACKED
            return None
        if kind == _NO and n == 8:
            if m[3] == NO_STEP:  # whatever it answers: the other board is out of step
                self.state = OUT_OF_STEP
                return STATE
            if self._waiting_ack and m[2] == self._seq:
                self._waiting_ack = False
                self.game.undo()  # never taken there: taken back here
                self.why = m[3]
                return REFUSED
            return None
        if kind == _PING and n == 6:
            if not self._in_step(m, 2):
                return self._out_of_step(now)
            return None
        if kind == _AGAIN and n == 3:
            if self.game.over() and m[2] == self.games:
                self._their_ready = True
                return self._begin_if_both(now)
        return None

    def _hello(self, m, now):
        their = m[2] << 8 | m[3]
        state = self.state
        if state == WAITING:
            if their == self.nonce:  # a tie: new nonces on both sides (their clocks differ)
                self.nonce = (self.nonce * 75 + 74 + now) & 0xFFFF or 1
                self._send_hello(now)
                return None
            self._peer = their
            if m[4] << 8 | m[5] != self.nonce:
                self._send_hello(now)  # heard: say so, and wait to be heard
                return None
            self._first = self.nonce > their
            self.mine = engine.X if self._first else engine.O
            self.game.start(LINK, self.mine)
            self.state = PLAYING
            self._send_hello(now)  # the other board may not have heard this one yet
            return JOINED
        if their != self._peer:  # another board, or this one after a reset
            if state == GONE:
                return None  # said once: its HELLOs go on while it waits for a link of its own
            self.state = GONE
            return STATE
        if state == PLAYING:
            if m[7] != PLAYING:
                self._send_hello(now)  # it waits to hear that this board has joined
            return None
        if not self._matches(m, 8):  # back, with another position
            return self._out_of_step(now)
        self.state = PLAYING
        self._send_hello(now)
        return STATE

    def _their_move(self, m, now):
        game = self.game
        seq = m[2]
        if seq == self._their_seq:  # sent again: our ACK was lost
            self._send_reply(_ACK, seq, 0, now)
            return None
        if self._waiting_ack and m[4] == game.count + 1:
            self._waiting_ack = False  # their move is on ours: our move reached them
        cell = m[3]
        why = 0
        if game.over() or game.turn() == self.mine or self._waiting_ack:
            why = NO_TURN
        elif cell > 8 or not game.free(cell):
            why = NO_CELL
        elif m[4] != game.count + 1 or self._board(m, 5) != game.board | game.turn() << 2 * cell:
            why = NO_STEP
        if why:
            self._send_reply(_NO, seq, why, now)
            if why == NO_STEP:
                self.state = OUT_OF_STEP
                return STATE
            return None
        game.play(cell)
        self._their_seq = seq
        self.cell = cell
        self._send_reply(_ACK, seq, 0, now)
        return MOVED

    def _begin_if_both(self, now):
        if not (self.ready and self._their_ready):
            return None
        self.games += 1
        self.ready = self._their_ready = False
        first = self._first if self.games % 2 == 0 else not self._first
        self.mine = engine.X if first else engine.O
        self.game.start(LINK, self.mine)
        return AGAIN

    def _out_of_step(self, now):
        self._send_reply(_NO, self._their_seq, NO_STEP, now)
        self.state = OUT_OF_STEP
        return STATE

    # -- positions ------------------------------------------------------------------------------

    def _board(self, m, at):
        return m[at] << 16 | m[at + 1] << 8 | m[at + 2]

    def _matches(self, m, at):
        # The position at m[at] (count, board) is this board's.
        return m[at] == self.game.count and self._board(m, at + 1) == self.game.board

    def _in_step(self, m, at):
        # The position at m[at] is this board's, or one move either side of it: a move on its
        # way (this board's, not there yet; the other's, not here yet). Marks are only ever
        # added, so the one with fewer moves has its marks in the other's.
        count = m[at]
        board = self._board(m, at + 1)
        ours = self.game.board
        if count == self.game.count:
            return board == ours
        if count == self.game.count + 1:
            return board | ours == board
        if count == self.game.count - 1:
            return board | ours == ours
        return False

    def _same(self, m, n, kind):
        # A message that shows the other board has this board's position.
        if kind == _PING and n == 6:
            return self._matches(m, 2)
        if kind == _ACK and n == 7:
            return self._matches(m, 3)
        return False

    # -- what goes out --------------------------------------------------------------------------

    def _put_position(self, at):
        out = self._out
        game = self.game
        board = game.board
        out[at] = game.count
        out[at + 1] = board >> 16
        out[at + 2] = board >> 8 & 0xFF
        out[at + 3] = board & 0xFF
        return at + 4

    def _send(self, n, now):
        self.wire.send(self._out, n)
        self._sent = now

    def _head(self, kind):
        self._out[0] = VERSION
        self._out[1] = kind

    def _send_hello(self, now):
        self._head(_HELLO)
        self._out[2] = self.nonce >> 8
        self._out[3] = self.nonce & 0xFF
        self._out[4] = self._peer >> 8
        self._out[5] = self._peer & 0xFF
        self._out[6] = self.games & 0xFF
        self._out[7] = self.state
        self._send(self._put_position(8), now)

    def _send_move(self, now):
        game = self.game
        self._head(_MOVE)
        self._out[2] = self._seq
        self._out[3] = game.moves[game.count - 1]
        self._send(self._put_position(4), now)

    def _send_reply(self, kind, seq, why, now):
        self._head(kind)
        self._out[2] = seq
        at = 3
        if kind == _NO:
            self._out[3] = why
            at = 4
        self._send(self._put_position(at), now)

    def _send_position(self, kind, at, now):
        self._head(kind)
        self._send(self._put_position(at), now)

    def _send_again(self, now):
        self._head(_AGAIN)
        self._out[2] = self.games & 0xFF
        self._send(3, now)
