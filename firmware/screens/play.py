# A game on the board screen: cursor, moves, hint, undo, the CPU's turn, the result.
# SPDX-License-Identifier: MIT
"""How a game goes, in the order of this file: the menu begins it (game.Game.begin) and enter()
shows it; the player's buttons arrive in event(): PREV/NEXT move the cursor the moment they go
down (PREV with nothing to undo when it comes up), a SELECT click puts the mark on the cursor's
cell (_place: where a button press becomes a move), and a hold asks for a hint (SELECT), an
undo (PREV: the cursor then on the move taken back) or the menu (NEXT, or PREV+NEXT together);
the CPU answers in tick(); a finished game blinks its result until a short press starts the
next one, or a hold of SELECT opens its review (review.py). With the Coach setting on, each
free cell shows its value on a human's turn (coach.py)."""

import random
import time

import buttons
import engine
import screen
import widgets
from game import DRAW, ONE_PLAYER, TWO_PLAYERS, next_free, toward
from micropython import const

_HINT_MS = const(250)  # hint blink half-period
_HINT_BLINKS = const(8)  # half-periods the hint blinks for (2 s)
_SLOW_MAX = const(254)  # ms; longer searches are recorded as this
_CENTRE = const(4)
_CELLS = const(9)
_EMPTIES = const(_CELLS + 1)  # how many cells a position may have empty: 0.._CELLS


class Play(screen.Screen):
    """The board screen of the one-player (against the CPU) or two-player game shared.game."""

    think_ms = 150  # a search expected to take this long shows the thinking indicator first
    sign_ms = 1000  # how long "NO UNDO" stays up

    def __init__(self, shared):
        super().__init__(shared)
        # The game is shared.game, made by the menu before the first game (12 attributes at
        # most: an instance's table grows from 12 to 17 slots at the 13th, py/map.c).
        self.cursor = _CENTRE
        # Where the cursor was before the PREV/NEXT press now held: PREV and NEXT move it at
        # once, and when the hold turns out to mean undo or the menu, it goes back there.
        self.anchor = _CENTRE
        # PREV's press with nothing to undo moves on its click instead: as a hold it could
        # only say NO UNDO, and a cursor that jumps there and back looks like a fault.
        self.held_back = False
        self.hint_left = 0  # the hint blinks (half-periods still to go)
        self.no_undo = False  # the "NO UNDO" sign is up (since sign_at)
        self.sign_at = 0
        self.thinking = False  # the thinking indicator is on the glass
        self.shown = False  # the position the CPU is to answer is on the glass
        self.since = 0  # when the screen, the hint or the result began (blinking)
        # Last measured search time per level and empty cells (the byte at level * _EMPTIES +
        # empty cells), in ms; 255, unknown, counts as slow, so the first search of a kind
        # shows the indicator (one frame; on a fast search it lasts a few ms, below what the
        # glass can show).
        self.slow = bytearray(b"\xff" * (len(engine.LEVELS) * _EMPTIES))

    def enter(self, now, came_from):
        # A new game (from the menu, or the next one: PLAY again), one continued from the
        # menu, or back from the review.
        shared = self.shared
        if not shared.waits and came_from != screen.REVIEW:
            self.cursor = _CENTRE
            self.hint_left = 0
            self.thinking = False
        shared.waits = False
        self.since = now
        self.phase = 0
        self.no_undo = False
        self.shown = False

    # -- the player's buttons -----------------------------------------------------------------

    def event(self, ev, now):
        game = self.shared.game
        if game.cpu_to_move():
            return screen.DONE  # the CPU's turn: presses are dropped, never queued into a move
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        undoer = b == buttons.PREV or b == buttons.LEFT
        if kind == buttons.PRESS:
            if b != buttons.SELECT:
                # The anchor is where this press starts from, unless another mover's press is
                # still live: then the two may be a chord, which goes back to before the first.
                if not self.shared.held & ~(1 << b | 1 << buttons.SELECT):
                    self.anchor = self.cursor
                self.held_back = undoer and game.undo_to() < 0
                if not self.held_back:
                    return self._move_cursor(b)
        elif kind == buttons.CLICK:
            if game.over():
                self.shared.sound("PLACE")
                game.begin(game.mode, self.shared.settings)  # any short press starts the next game
                return screen.PLAY
            if b == buttons.SELECT:
                return self._place(now)
            if undoer and self.held_back:
                self.held_back = False
                return self._move_cursor(b)
        elif kind == buttons.LONG or kind == buttons.REPEAT:
            # A hold. PREV and NEXT auto-repeat (for the menus) and report no LONG: in a game
            # a cursor never needs to run, so their first REPEAT is their long press.
            if b == buttons.SELECT:
                if game.over():
                    # Asking the coach once the game is over: its moves one by one, with what
                    # each cost (review.py).
                    self.shared.sound("HINT")
                    return screen.REVIEW
                # A hint: the engine's best move for the player blinks under the cursor.
                self.cursor = game.hint()
                self.hint_left = _HINT_BLINKS
                self.since = now
                self.shared.sound("HINT")
            elif undoer:
                self._undo(now)
            elif b == buttons.NEXT or b == buttons.RIGHT:
                return self._to_menu()
            return screen.DONE  # once per hold
        elif kind == buttons.CHORD:
            return self._to_menu()
        return None

    def _move_cursor(self, b):
        game = self.shared.game
        step = buttons.direction(b)
        if b == buttons.PREV or b == buttons.NEXT:
            self.cursor = next_free(game, self.cursor, step)
        elif b == buttons.UP or b == buttons.DOWN:
            self.cursor = toward(game, self.cursor, step, 0)
        else:
            self.cursor = toward(game, self.cursor, 0, step)
        self.hint_left = 0
        self.shared.sound("MOVE")
        return screen.SAME

    def _place(self, now):
        # SELECT's click: the player's mark on the cursor's cell. Here a press becomes a move.
        game = self.shared.game
        if not game.free(self.cursor):
            return None
        self.hint_left = 0
        self.shared.sound("PLACE")
        return self._played(game.play(self.cursor), now)

    def _undo(self, now):
        # Not after the end: the result is counted (a press starts the next game instead).
        # Refused, it says so: a hold that does nothing looks like a button that does not work.
        game = self.shared.game
        if game.over() or not game.undo():
            if game.free(self.anchor):  # the cursor back where the press that became a hold
                self.cursor = self.anchor  # started it
            self.no_undo = True
            self.sign_at = now
            self.shared.sound("ERROR")
        else:
            self.hint_left = 0
            self.cursor = game.moves[game.count]  # on the move taken back: the player's own

    def _to_menu(self):
        # Continue comes back to the cell the player left: before the cursor move of the press
        # that became the hold (or the chord).
        game = self.shared.game
        if game.free(self.anchor):
            self.cursor = self.anchor
        self.shared.waits = not game.over()
        return screen.MENU

    def _played(self, result, now):
        # After any move: keep the cursor on a free cell; at the end, count the game.
        game = self.shared.game
        if not result:
            if not game.free(self.cursor):
                self.cursor = next_free(game, self.cursor, 1)
            return screen.SAME
        self.since = now  # the result blinks from now
        # A win is yours, or either player's in a two-player game.
        lost = game.mode == ONE_PLAYER and result != game.human
        self.shared.sound("DRAW" if result == DRAW else "LOSS" if lost else "WIN")
        key, i = game.tally_slot()
        self.shared.settings.count(key, i)  # saturates at the settings' maximum
        self.shared.save_soon(now)  # once per game, so a power cut never loses a result
        return screen.SAME

    # -- the CPU's turn, and time -------------------------------------------------------------

    def tick(self, now):
        game = self.shared.game
        went = None
        if self.no_undo and time.ticks_diff(now, self.sign_at) >= self.sign_ms:
            self.no_undo = False
            went = screen.SAME
        if game.cpu_to_move():
            return self._cpu_turn(now) or went
        if self.hint_left:
            if time.ticks_diff(now, self.since) >= _HINT_MS * _HINT_BLINKS:
                self.hint_left = 0  # done: the cursor stays on the hint, solid
                return screen.SAME
            return self.blink(now, self.since, _HINT_MS) or went
        if game.over():
            return (
                self.blink(now, self.since, screen.BLINK_MS) or went
            )  # the result, until the next
        return went

    def _cpu_turn(self, now):
        # Two steps. First the position the CPU answers goes on the glass, with the thinking
        # indicator when the search is expected to be slow (it runs synchronously, so the
        # indicator has to be shown before it starts): the last measured time for this level
        # and number of empty cells. Then, at once, the search and the move.
        game = self.shared.game
        slot = game.level * _EMPTIES + _CELLS - game.count
        if not self.shown:
            self.shown = True
            self.thinking = self.slow[slot] >= self.think_ms
            return screen.AGAIN
        buzzer = self.shared.buzzer
        if buzzer is not None and buzzer.playing():
            return None  # the search would hold the loop past your mark's click: cutting it
        start = time.ticks_ms()
        cell = game.cpu_move(game.level, random)
        spent = time.ticks_diff(time.ticks_ms(), start)
        self.slow[slot] = spent if spent < _SLOW_MAX else _SLOW_MAX
        self.thinking = False
        self.shown = False
        self.shared.sound("CPU")  # cut by the result's jingle if this move ends the game
        self._played(game.play(cell), now)
        return screen.SLOW  # whatever was pressed while the engine ran is dropped

    def due(self, now):
        game = self.shared.game
        if game.cpu_to_move():
            return 0
        due = -1
        if self.no_undo:
            due = max(0, self.sign_ms - time.ticks_diff(now, self.sign_at))
        if self.hint_left:
            period = _HINT_MS
        elif game.over():
            period = screen.BLINK_MS  # the result blinks until the next game
        else:
            return due
        flip = self.blink_due(now, self.since, period)
        return flip if due < 0 or flip < due else due

    # -- the glass ----------------------------------------------------------------------------

    def draw(self, fb):
        game = self.shared.game
        two = game.mode == TWO_PLAYERS
        tally = self.shared.settings.get("tally2" if two else "tally1")
        label = "2P" if two else engine.LEVELS[game.level]
        cursor = -1
        if not game.over() and not game.cpu_to_move():
            cursor = self.cursor
        blink_on = not self.phase
        solid = blink_on or not self.hint_left
        widgets.board(fb, game, cursor, solid, blink_on)
        coach = self.shared.coach
        if coach is not None and cursor >= 0:  # a human's turn (the cursor shows only then)
            import coachmarks  # loaded and let go with the Coach (app.App._coach)

            coach.read(game.board, game.turn())  # searches once per position
            coachmarks.draw(fb, coach, cursor, solid)
        widgets.status(fb, game, label, tally, self.thinking, blink_on)
        if self.no_undo:
            widgets.sign(fb, b"NO UNDO")
