# Play and demo for the App: moves, cursor, hint, undo, the CPU's turn and the board screen.
# SPDX-License-Identifier: MIT
import random
import time

import buttons
import engine
import screens
from game import DEMO, ONE_PLAYER, TWO_PLAYERS, Game, first_player, next_free, toward
from menu import CONTINUE
from micropython import const
from power import AWAKE
from screens import DEMO_SCREEN, MENU, PLAY, TITLE

_SLOW_UNKNOWN = const(255)


def _label(name):
    """A level name in the 4 characters the status column has: "PERF", "MED" (not "MEDI")."""
    name = name.upper()
    if len(name) > 4:
        name = name[:3] if name[3] in "AEIOU" else name[:4]
    return name


class Play:
    """The App's play half (a base class: it shares the App's state, see app.App)."""

    def _init_play(self):
        self.game = Game()
        self.demo = Game()
        self.demo_tally = [0, 0, 0]  # X wins, O wins, draws (this session only)
        self.levels = tuple(_label(name) for name in engine.LEVELS)
        self.short = tuple(name[:3].upper() for name in engine.LEVELS)
        self.demo_levels = bytearray(2)
        # Last measured search time per (level, empty cells), in ms capped at 254; unknown
        # counts as slow, so the first search of a kind shows the indicator (which costs one
        # frame; a too-early indicator on a fast search lasts a few ms, below what the glass
        # can show).
        self.slow = bytearray(len(engine.LEVELS) * 10)
        for i in range(len(self.slow)):
            self.slow[i] = _SLOW_UNKNOWN
        self.cursor = 4
        # Where the cursor was before the PREV/NEXT press now held: PREV and NEXT move it at
        # once, and when the hold turns out to mean undo or the menu, it goes back there.
        self.anchor = 4
        self.no_undo = False  # the "NO UNDO" sign is up (since self.sign_at)
        self.sign_at = 0
        self.hint_left = 0  # hint half-periods still to blink
        self.thinking = False
        self.games_1p = 0  # one-player games started (for "alternate")

    # -- play -------------------------------------------------------------------------------

    def _new_game(self, mode, now):
        s = self.settings
        human = engine.X
        if mode == ONE_PLAYER:
            if not first_player(s.get("starts"), self.games_1p):
                human = engine.O
            self.games_1p += 1
        self.game.start(mode, human, s.get("level"))
        self.paused = False
        self.hint_left = 0
        self.thinking = False
        self.cursor = 4
        self._go(PLAY, now)

    def _played(self, game, result, now):
        """After any move: keep the cursor on a free cell; at the end, count the game."""
        self.dirty = True
        if not result:
            if game is self.game and not game.free(self.cursor):
                self._cursor_step(1)
            return
        self.since = now  # blinking of the result starts now
        if game.mode == DEMO:
            self.demo_tally[result - 1] += 1
            return
        key, i = game.tally_slot()
        self.settings.count(key, i)  # saturates at the settings' maximum
        self.save_due = True  # once per game, so a power cut never loses a result

    def _cursor_step(self, step):
        self.cursor = next_free(self.game, self.cursor, step)

    def _cursor_dir(self, b):
        if b == buttons.UP or b == buttons.DOWN:
            self.cursor = toward(self.game, self.cursor, 1 if b == buttons.DOWN else -1, 0)
        else:
            self.cursor = toward(self.game, self.cursor, 0, 1 if b == buttons.RIGHT else -1)

    def _hint(self, now):
        if self.game.cpu_to_move() or self.game.over():
            return
        self.cursor = self.game.hint()
        self.hint_left = self.hint_blinks
        self.since = now
        self.dirty = True

    def _back_to_anchor(self):
        """Undo the cursor move of the press that became a hold (or a chord)."""
        if self.game.free(self.anchor):
            self.cursor = self.anchor
            self.dirty = True

    def _undo(self, now):
        # Not after the end: the result is counted (a press starts the next game instead).
        # Refused, it says so: a hold that does nothing looks like a button that does not work.
        if self.game.over() or not self.game.undo():
            self._back_to_anchor()
            self.no_undo = True
            self.sign_at = now
            self.dirty = True
            return
        self.hint_left = 0
        self._back_to_anchor()  # free before the undo, so free after it
        if not self.game.free(self.cursor):
            self._cursor_step(1)
        self.dirty = True

    def _game_menu(self, now):
        self._back_to_anchor()  # Continue comes back to the cell the player left
        self.paused = not self.game.over()
        self._open_menu(now)
        self.menu.select(CONTINUE)  # the likely choice; no-op when the game was over

    def _cpu_move(self, game, level, now):
        """One engine move. Returns True (without moving) while a frame must be drawn first:
        the player's own move, and the thinking indicator when the search is expected to be
        slow (the engine runs synchronously, so the indicator has to be on the glass before
        the search starts; the expectation is the last measured time for this level and
        number of empty cells)."""
        slot = level * 10 + 9 - game.count
        if not self.thinking and self.slow[slot] >= self.think_ms:
            self.thinking = True
            self.dirty = True
        if self.dirty:
            return True
        start = time.ticks_ms()
        cell = game.cpu_move(level, random)
        spent = time.ticks_diff(time.ticks_ms(), start)
        self.slow[slot] = spent if spent < 254 else 254
        self.thinking = False
        self._played(game, game.play(cell), now)
        # Whatever was pressed while the engine ran is dropped, not queued into a move.
        self.hw.pad.reset(now)
        self.armed = 0
        return False

    def _tick(self, now):
        """Time-driven work: CPU moves, demo, blinking. Returns True to come back at once."""
        screen = self.screen
        elapsed = time.ticks_diff(now, self.since)
        if screen == TITLE or (screen == MENU and not self.paused):
            # The demo starts after demo_after_ms without a press on the title or on the menu
            # (not while a paused game waits there).
            idle = time.ticks_diff(now, self.power.last)
            if idle >= self.demo_after_ms and self.power.state == AWAKE:
                self._start_demo(now)
                return False
            if screen == TITLE:
                self._blink(elapsed // self.blink_ms)
        elif screen == PLAY:
            game = self.game
            if self.no_undo and time.ticks_diff(now, self.sign_at) >= self.sign_ms:
                self.no_undo = False
                self.dirty = True
            if game.cpu_to_move():
                return self._cpu_move(game, game.level, now)
            if self.hint_left:
                k = elapsed // self.hint_ms
                if k >= self.hint_blinks:
                    self.hint_left = 0
                    self.dirty = True
                else:
                    self._blink(k)
            elif game.over():
                self._blink(elapsed // self.blink_ms)
        elif screen == DEMO_SCREEN:
            game = self.demo
            if game.over():
                if elapsed >= self.demo_end_ms:
                    self._demo_game(now)
                else:
                    self._blink(elapsed // self.blink_ms)
            elif elapsed >= self.demo_move_ms:
                level = self.demo_levels[game.turn() - 1]
                if self._cpu_move(game, level, now):
                    return True
                if not game.over():
                    self.since = now
        return False

    def _blink(self, k):
        if (k & 1) != self.phase:
            self.phase = k & 1
            self.dirty = True

    def _start_demo(self, now):
        self.demo_tally[0] = self.demo_tally[1] = self.demo_tally[2] = 0
        self._go(DEMO_SCREEN, now)
        self._demo_game(now)

    def _demo_game(self, now):
        n = len(engine.LEVELS)
        self.demo_levels[0] = random.getrandbits(8) % n
        self.demo_levels[1] = random.getrandbits(8) % n
        self.demo.start(DEMO, engine.X, 0)
        self.since = now
        self.phase = 0
        self.dirty = True

    def _draw_board(self, fb, play):
        if play:
            game = self.game
            two = game.mode == TWO_PLAYERS
            tally = self.settings.get("tally2" if two else "tally1")
            label = "2P" if two else self.levels[game.level]
            cursor = -1
            if not game.over() and not game.cpu_to_move():
                cursor = self.cursor
            solid = not self.phase or not self.hint_left
            screens.board(fb, self.glyphs, game, cursor, solid, not self.phase)
            screens.status(fb, self.glyphs, game, label, tally, self.thinking, not self.phase)
            if self.no_undo:
                screens.sign(fb, b"NO UNDO")
        else:
            game = self.demo
            screens.board(fb, self.glyphs, game, -1, False, not self.phase)
            mover = game.turn()
            label = self.short[self.demo_levels[mover - 1]]
            screens.status_demo(fb, self.glyphs, game, label, self.demo_tally, not self.phase)
