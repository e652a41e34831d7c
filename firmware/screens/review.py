# The review of a finished game: its moves one at a time, each with what the coach made of it.
# SPDX-License-Identifier: MIT
"""Opened from a finished game's blinking result by a hold of SELECT (play.Play), in 1P and 2P;
link play (linkplay.LinkPlay) shows it itself, the other board's moves as THEM.
Each step is one move of the game, the first move first: the position before it, the move
played blinking between its mark (X/O) and its coach mark (coach.mark: W n, L n, D), the coach
marks of the other free cells (the best boxed), and in the status column which move it is,
whose, and what it cost (coach.cost). PREV/NEXT step (stopping at both ends); a SELECT click
goes back to the result, a hold of NEXT (or PREV+NEXT) to the menu, as in a game.

Loaded only while it shows (app.App.show), with the coach (the App makes shared.coach for
it): a game that is never reviewed never holds either in RAM."""

import buttons
import coach
import coachmarks
import glyphs
import smallfont
import widgets
from game import ONE_PLAYER, TWO_PLAYERS, Game
from micropython import const
from screen import BLINK_MS, DONE, MENU, PLAY, SAME, Screen

# The status column: "3/7" after the mover's small mark, then lines of the small font.
_VERDICT_Y = const(11)
_WAS_Y = const(22)
_NOW_Y = const(29)
_WHO_Y = const(41)
# By coach.cost's kind (BEST_WIN .. DRAW_LOSS): the verdict, the result the best move keeps,
# and what the move played made of it (a host test holds the tables to coach.COSTS).
_VERDICTS = const((b"BEST", b"BEST", b"BEST", b"OK", b"OK", b"MISTAKE", b"MISTAKE", b"MISTAKE"))
_WAS = const((b"WIN", b"DRAW", b"LOSS", b"WIN", b"LOSS", b"WIN", b"WIN", b"DRAW"))
_NOW = const((b"", b"", b"", b"SLOWER", b"SOONER", b">DRAW", b">LOSS", b">LOSS"))


class Review(Screen):
    """The review of the finished game shared.game, one move a step, with shared.coach. The
    web page's coach (web/oxoweb.py) reads `position` (the position before the move shown) and
    `step` (that move's index in the game's moves) to show the same scores beside the glass."""

    def __init__(self, shared):
        super().__init__(shared)
        self.game = shared.game  # the game reviewed: only read
        self.position = Game()  # the position before the step's move, rebuilt at each step
        self.step = 0  # which move: 0 is the first
        self.kind = coach.BEST_DRAW  # what that move cost (coach.cost)
        self.since = 0  # when the step began: the move blinks from then

    def enter(self, now, came_from):
        self.step = -1
        self._go(0, now)

    def _go(self, step, now):
        # Show move `step` of the game: rebuild the position before it, score its moves.
        game = self.game
        if not 0 <= step < game.count or step == self.step:
            return False
        pos = self.position
        pos.start(TWO_PLAYERS)
        moves = game.moves
        for i in range(step):
            pos.play(moves[i])
        c = self.shared.coach
        c.read(pos.board, pos.turn())
        self.kind = coach.cost(c.best, c.scores[moves[step]])
        self.step = step
        self.since = now
        self.phase = 0
        return True

    # -- the buttons --------------------------------------------------------------------------

    def event(self, ev, now):
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        if kind == buttons.PRESS:
            # PREV/NEXT step the moment they go down, as they move a game's cursor; at the
            # first and the last move there is nowhere to go and nothing happens.
            if b != buttons.SELECT and self._go(self.step + buttons.direction(b), now):
                self.shared.sound("MOVE")
                return SAME
        elif kind == buttons.CLICK:
            if b == buttons.SELECT:
                self.shared.sound("PLACE")
                return PLAY  # the result blinks again; a click: the next game
        elif kind == buttons.LONG or kind == buttons.REPEAT:
            if b == buttons.NEXT or b == buttons.RIGHT:
                return MENU
            return DONE  # once per hold; a hold of SELECT or PREV does nothing here
        elif kind == buttons.CHORD:
            return MENU
        return None

    # -- time ---------------------------------------------------------------------------------

    def tick(self, now):
        return self.blink(now, self.since, BLINK_MS)

    def due(self, now):
        return self.blink_due(now, self.since, BLINK_MS)

    # -- the glass ----------------------------------------------------------------------------

    def draw(self, fb):
        pos = self.position
        game = self.game
        cell = game.moves[self.step]
        mover = pos.turn()
        widgets.board(fb, pos, -1, False, False)
        c = self.shared.coach
        if self.phase:  # off: the move's coach mark, white on black
            coachmarks.draw(fb, c, cell, True)
        else:  # on: the mark that was played
            coachmarks.draw(fb, c)
            x = widgets.cell_x(cell)
            y = widgets.cell_y(cell)
            fb.fill_rect(x, y, widgets.CELL, widgets.CELL, 0)
            glyphs.draw(fb, mover, x + widgets.INSET, y + widgets.INSET)
        # Which move, whose, and what it cost.
        left = widgets.STATUS_X
        glyphs.draw(fb, mover, left - 1, 0, False)
        widgets.number(fb, self.step + 1, left + 2 * widgets.CHAR - 1, 0)
        fb.text("/", left + 2 * widgets.CHAR, 0, 1)
        widgets.number(fb, game.count, left + 4 * widgets.CHAR - 1, 0)
        kind = self.kind
        verdict = _VERDICTS[kind]
        ink = 1
        if kind >= coach.WIN_DRAW:  # a result thrown away: white on black, it stands out
            fb.fill_rect(left - 2, _VERDICT_Y - 1, widgets.CHAR * 4 + 2, widgets.CHAR, 1)
            ink = 0
        smallfont.text(fb, verdict, left, _VERDICT_Y, ink)
        smallfont.text(fb, _WAS[kind], left, _WAS_Y)
        smallfont.text(fb, _NOW[kind], left, _NOW_Y)
        if game.mode != TWO_PLAYERS:  # a player's own game: against the CPU or a link's
            other = b"CPU" if game.mode == ONE_PLAYER else b"THEM"
            smallfont.text(fb, b"YOU" if mover == game.human else other, left, _WHO_Y)
