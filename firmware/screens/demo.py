# The demo: the CPU against itself, on the board screen, while nobody plays.
# SPDX-License-Identifier: MIT
# Loaded each time the demo starts, and let go when it ends (app.App.show).
import random
import time

import buttons
import engine
import widgets
from game import DEMO, DRAW, Game
from screen import BLINK_MS, SAME, TITLE, Screen


class Demo(Screen):
    """The CPU against itself, each side at a random level, game after game with a tally of
    this session's results, until a press goes back to the title (so does the display going
    to sleep)."""

    move_ms = 700  # pace of the moves
    end_ms = 2500  # a finished game stays on screen this long
    asleep_to = TITLE  # the demo is for an audience; asleep, none

    def __init__(self, shared):
        super().__init__(shared)
        self.game = Game()
        self.tally = [0, 0, 0]  # X wins, O wins, draws
        self.levels = bytearray(2)  # X's level, O's level
        self.since = 0  # when the last move (or the game) began

    def enter(self, now, came_from):
        tally = self.tally
        tally[0] = tally[1] = tally[2] = 0
        self._next_game(now)

    def _next_game(self, now):
        self.levels[0] = random.getrandbits(8) % len(engine.LEVELS)
        self.levels[1] = random.getrandbits(8) % len(engine.LEVELS)
        self.game.start(DEMO, engine.X, 0)
        self.since = now
        self.phase = 0

    def event(self, ev, now):
        if buttons.kind_of(ev) == buttons.PRESS:
            return TITLE  # any press stops it, and does nothing else
        return None

    def tick(self, now):
        game = self.game
        elapsed = time.ticks_diff(now, self.since)
        if game.over():
            if elapsed < self.end_ms:
                return self.blink(now, self.since, BLINK_MS)
            self._next_game(now)
        elif elapsed >= self.move_ms:
            result = game.play(game.cpu_move(self.levels[game.turn() - 1], random))
            if result:
                self.tally[result - 1] += 1
            self.since = now
        else:
            return None
        return SAME

    def due(self, now):
        elapsed = time.ticks_diff(now, self.since)
        if self.game.over():
            return max(0, min(self.end_ms - elapsed, self.blink_due(now, self.since, BLINK_MS)))
        return max(0, self.move_ms - elapsed)

    def draw(self, fb):
        game = self.game
        blink_on = not self.phase
        widgets.board(fb, game, -1, False, blink_on)
        label = engine.LEVELS[self.levels[game.turn() - 1]]
        # The status column: "DEMO", the mover and its level, or the result.
        fb.text("DEMO", widgets.STATUS_X, widgets.ROW_Y[0], 1)
        if not game.over():
            widgets.status_turn(fb, game.turn(), label, 1)
        elif game.result != DRAW:
            widgets.status_turn(fb, game.result, "WIN", 1)
        elif blink_on:
            fb.text("DRAW", widgets.STATUS_X, widgets.ROW_Y[1], 1)
        widgets.tally(fb, self.tally, DEMO)
