# Link play: a game against the player of another board, over the link cable.
# SPDX-License-Identifier: MIT
"""Opened from the main menu's "Link play". Made and let go by the App like any screen but the
game's, with the link's code (linkgame, linkwire) and the review's: a board that never plays
over the cable holds none of it, nor the cable's UART (hardware.Hardware.link, opened here).

On the glass: "waiting" until the other board answers (NEXT goes back to the menu); then the
board as in a game, this board's player moving on their turn (PREV/NEXT or a 5-way pad move the
cursor, a SELECT click puts the mark, a hold of SELECT shows the best move), the other's moves
as they arrive; the status column says YOU or the other's mark with "...", the result, "LINK"
and this board's own tally ("tally_link": W D L). A result blinks until a click says "ready for
the next" (READY shows until the other board's player clicks too; who is X alternates). A hold
of SELECT on a result opens the review (review.Review, hosted here so that the link goes on
being stepped); a hold of NEXT (or PREV+NEXT) goes to the menu, which ends the link. What the
cable does is said on the glass (linkgame.py says what each state means): NO LINK while nothing
is heard (the game goes on when the same board comes back), and a board that left, positions
that disagree, another version or a board without a cable end the link: a click goes to the
menu, and after a board that left or positions that disagree, 4 s do too. The display does
not sleep here (a UART byte would be lost in light sleep); it dims."""

import random
import time

import buttons
import linkgame
import linkwire
import review
import widgets
from game import DRAW, Game, next_free, toward
from micropython import const
from screen import BLINK_MS, DONE, LINK, MENU, PLAY, SAME, Screen

_CENTRE = const(4)
_SIGN_MS = const(1000)  # how long NO UNDO and REFUSED stay up
# How long "left" or "disagree" stays up before the menu comes by itself (a click: sooner).
_ENDED_MS = const(4000)
# What a link that cannot go on says, by its state (linkgame.OUT_OF_STEP ...), a line each;
# the version line is filled in.
_ENDED = const(
    (
        ("Boards", "disagree:", "game", "stopped."),
        ("The other", "board runs", "link v%d,", "this v%d."),
        ("The other", "board has", "left.", ""),
    )
)
_NO_CABLE = const(("This board", "has no", "link", "cable."))


class LinkPlay(Screen):
    """The link game on shared.game, over the UART `open_link()` opens (None: no cable)."""

    sleeps = False

    def __init__(self, shared, open_link):
        super().__init__(shared)
        self.link = None
        self.uart = None
        if open_link is not None:
            if shared.game is None:
                shared.game = Game()
            # Random per boot: rp2 and esp32 seed `random` from their hardware noise
            # (MICROPY_PY_RANDOM_SEED_INIT_FUNC); two equal nonces draw again (linkgame.py).
            nonce = random.getrandbits(16)
            self.uart = open_link()
            self.link = linkgame.Link(linkwire.Wire(self.uart), shared.game, nonce)
        self.cursor = _CENTRE
        self.sign = None  # a notice over the status column (bytes), since sign_at
        self.sign_at = 0
        self.since = 0  # when the result began blinking
        self.reviewing = None  # the review.Review shown, while it is

    def enter(self, now, came_from):
        self.shared.waits = False  # a game left for the menu is over: link play replaces it
        if self.link is not None:
            self.link.start(now)

    # -- the buttons --------------------------------------------------------------------------

    def event(self, ev, now):
        went = self._event(ev, now)
        return self._leave(now) if went == MENU else went

    def _leave(self, now):
        # The way out of link play (a press, or an ended link's time up: the display never
        # sleeps here). The other board is told, so it says so at once rather than after a
        # minute of NO LINK; the cable's UART stops and lets its buffers go (560 B on rp2), so
        # a game after link play holds none of them.
        if self.uart is not None:
            self.link.bye(now)
            self.uart.deinit()
        return MENU

    def _event(self, ev, now):
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        if self.reviewing is not None:
            went = self.reviewing.event(ev, now)
            if went == PLAY:  # the review's way back to the result
                self.reviewing = None
                return SAME
            return went
        link = self.link
        if link is None or link.state > linkgame.LOST:  # said on the glass: a click goes
            return MENU if kind == buttons.CLICK else None
        if kind == buttons.CHORD or (
            b == buttons.NEXT and (kind == buttons.LONG or kind == buttons.REPEAT)
        ):
            return MENU
        if link.state == linkgame.WAITING:
            return MENU if kind == buttons.CLICK and b == buttons.NEXT else None
        game = self.shared.game
        if game.over():
            if kind == buttons.CLICK:
                return self._ready(now)
            if kind == buttons.LONG and b == buttons.SELECT:
                self.shared.sound("HINT")
                self.reviewing = review.Review(self.shared)
                self.reviewing.enter(now, LINK)
                return DONE
            return None
        if game.turn() != game.human or link.state != linkgame.PLAYING:
            return None  # the other's turn, or no link: dropped, never queued into a move
        # The cursor moves as a press goes down, but PREV's (LEFT's) on its click: its hold is
        # an undo in a game, which says NO UNDO here, and a cursor that jumps and comes back
        # looks like a fault (play.py does the same when there is nothing to undo).
        undoer = b == buttons.PREV or b == buttons.LEFT
        if b != buttons.SELECT and kind == (buttons.CLICK if undoer else buttons.PRESS):
            step = buttons.direction(b)
            if b == buttons.PREV or b == buttons.NEXT:
                self.cursor = next_free(game, self.cursor, step)
            elif b == buttons.UP or b == buttons.DOWN:
                self.cursor = toward(game, self.cursor, step, 0)
            else:
                self.cursor = toward(game, self.cursor, 0, step)
            self.shared.sound("MOVE")
            return SAME
        if kind == buttons.CLICK and b == buttons.SELECT:
            if not link.move(self.cursor, now):
                return None
            self.shared.sound("PLACE")
            return self._played(now)
        if kind == buttons.LONG or kind == buttons.REPEAT:
            if b == buttons.SELECT:  # the best move, under the cursor
                self.cursor = game.hint()
                self.shared.sound("HINT")
            else:  # PREV's hold, an undo in a game: none over the cable
                self._say(b"NO UNDO", now)
            return DONE
        return None

    def _ready(self, now):
        # A click on a result: ready for the next game, which begins once both boards are.
        if self.link.again(now) == linkgame.AGAIN:
            return self._again(now)
        self.shared.sound("PLACE")
        return SAME

    def _again(self, now):
        self.cursor = _CENTRE
        self.sign = None
        self.shared.sound("PLACE")
        return SAME

    def _played(self, now):
        # After a move of either board: the cursor on a free cell; at the end, the result.
        game = self.shared.game
        if not game.over():
            if not game.free(self.cursor):
                self.cursor = next_free(game, self.cursor, 1)
            return SAME
        self.since = now
        result = game.result
        i = 1 if result == DRAW else 0 if result == game.human else 2
        self.shared.sound(("WIN", "DRAW", "LOSS")[i])
        settings = self.shared.settings
        settings.count("tally_link", i)
        self.shared.save_soon(now)
        return SAME

    def _say(self, text, now):
        self.sign = text
        self.sign_at = now
        self.shared.sound("ERROR")

    # -- the cable, and time ------------------------------------------------------------------

    def tick(self, now):
        went = None
        link = self.link
        if link is not None:
            event = link.step(now)
            while event is not None:
                went = self._heard(event, now) or went
                event = link.step(now)
        if self.reviewing is not None:
            return self.reviewing.tick(now) or went
        if self._ended(link) and time.ticks_diff(now, self.sign_at) >= _ENDED_MS:
            return self._leave(now)
        if self.sign is not None and time.ticks_diff(now, self.sign_at) >= _SIGN_MS:
            self.sign = None
            went = SAME
        if link is not None and link.state != linkgame.WAITING and self.shared.game.over():
            went = self.blink(now, self.since, BLINK_MS) or went  # the result, until the next
        return went

    def _heard(self, event, now):
        link = self.link
        if event == linkgame.JOINED or event == linkgame.AGAIN:
            return self._again(now)
        if event == linkgame.MOVED:
            self.shared.sound("CPU")  # the other's mark (cut by a result's jingle)
            return self._played(now)
        if event == linkgame.REFUSED:  # taken back: the other board did not take it
            self._say(b"REFUSED", now)
            return SAME
        if event == linkgame.STATE:
            if link.state == linkgame.PLAYING:  # back
                self.sign = None
                self.shared.sound("HINT")
            else:
                self.shared.sound("ERROR")
                if self._ended(link):
                    self.sign = None
                    self.sign_at = now  # said from now, then the menu
            return SAME
        return None  # ACKED: nothing shows

    def due(self, now):
        link = self.link
        if self._ended(link):
            return max(0, _ENDED_MS - time.ticks_diff(now, self.sign_at))
        if self.sign is not None:
            return max(0, _SIGN_MS - time.ticks_diff(now, self.sign_at))
        if link is not None and link.state == linkgame.PLAYING and self.shared.game.over():
            return self.blink_due(now, self.since, BLINK_MS)
        return -1

    def _ended(self, link):
        # A link that cannot go on and goes back to the menu by itself: the other board left
        # (GONE) or the positions disagree (OUT_OF_STEP). Another version stays until a click.
        return link is not None and (
            link.state == linkgame.GONE or link.state == linkgame.OUT_OF_STEP
        )

    # -- the glass ----------------------------------------------------------------------------

    def draw(self, fb):
        if self.reviewing is not None:
            self.reviewing.draw(fb)
            return
        link = self.link
        if link is None:
            _lines(fb, _NO_CABLE)
            return
        state = link.state
        if state == linkgame.WAITING:
            _lines(fb, ("Link play", "", "waiting", "for the", "other...", "NEXT: back"))
            return
        if state > linkgame.LOST:
            lines = _ENDED[state - linkgame.OUT_OF_STEP]
            if state == linkgame.OTHER_VERSION:
                theirs = lines[2] % link.other_version
                lines = (lines[0], lines[1], theirs, lines[3] % linkgame.VERSION)
            _lines(fb, lines + ("", "key: menu"))
            return
        game = self.shared.game
        mine = game.turn() == game.human and not game.over()
        cursor = self.cursor if mine and state == linkgame.PLAYING else -1
        blink_on = not self.phase
        widgets.board(fb, game, cursor, True, blink_on)
        coach = self.shared.coach
        settings = self.shared.settings
        if coach is not None and cursor >= 0 and settings.get("coach"):
            import coachmarks  # loaded with the review's code

            coach.read(game.board, game.turn())
            coachmarks.draw(fb, coach, cursor, True)
        tally = settings.get("tally_link")
        widgets.status(fb, game, "LINK", tally, not mine, blink_on)
        sign = self.sign
        if state == linkgame.LOST:
            sign = b"NO LINK"
        elif game.over() and link.ready:
            sign = b"READY"
        if sign is not None:
            widgets.sign(fb, sign)


def _lines(fb, lines):
    # Text, a line of the 8x8 font each from the top.
    fb.fill(0)
    for i in range(len(lines)):
        fb.text(lines[i], 0, i * widgets.CHAR, 1)
