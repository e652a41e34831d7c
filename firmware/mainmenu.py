# The main menu: a game against the CPU or for two, level, who starts, the settings screen.
# SPDX-License-Identifier: MIT
import buttons
import screens
from game import ONE_PLAYER, TWO_PLAYERS
from menu import Menu, choice, cycle
from micropython import const
from screen import DEMO, MENU, PLAY, SETUP, Screen

# Rows, each an index into _LABELS.
_CONTINUE = const(0)
_PLAY_1P = const(1)
_PLAY_2P = const(2)
_LEVEL = const(3)
_STARTS = const(4)
_SETTINGS = const(5)
_LABELS = const(("Continue", "1P vs CPU", "2 Players", "Level", "Start", "Settings"))
_ROWS = const((_PLAY_1P, _PLAY_2P, _LEVEL, _STARTS, _SETTINGS))
_ROWS_PAUSED = const((_CONTINUE, _PLAY_1P, _PLAY_2P, _LEVEL, _STARTS, _SETTINGS))


class MainMenu(Screen):
    """The main menu. PREV/NEXT move the highlight, SELECT chooses it or steps its value (Level,
    Start; LEFT/RIGHT step it both ways on a 5-way pad). A game left unfinished for the menu waits
    behind "Continue", and while none waits, the demo starts after app.App.demo_after_ms without a
    press."""

    def __init__(self, app):
        super().__init__(app)
        self.settings = app.settings
        # The game, made with the menu: the menu is let go when left (app._SCREENS), the game
        # is kept and knows whether it waits behind "Continue" (play.Play.waiting).
        self.play = app.screen_named(PLAY)
        self.rows = Menu(_ROWS)

    def enter(self, now):
        self.rows.set_items(_ROWS_PAUSED if self.play.waiting else _ROWS)  # the highlight stays

    def from_game(self, now):
        """Opened from a game: "Continue" highlighted if it waits (the likely choice), else the
        row that starts another game like it."""
        self.app.show(MENU, now)
        if self.play.waiting:
            self.rows.select(_CONTINUE)
        else:
            self.rows.select(_PLAY_1P if self.play.game.mode == ONE_PLAYER else _PLAY_2P)

    def from_settings(self, now):
        """Back from the settings screen: its row highlighted."""
        self.app.show(MENU, now)
        self.rows.select(_SETTINGS)

    def event(self, ev, now):
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        if kind == buttons.PRESS or kind == buttons.REPEAT:
            if b != buttons.SELECT:
                self._move(b, now)
        elif kind == buttons.CLICK and b == buttons.SELECT:
            # The click is asked for before the choice acts (setupmenu asks after it, so that
            # choosing "Sound OFF" is not heard).
            self.app.sound("PLACE")
            self._select(now)
        return False

    def _move(self, b, now):
        # PREV/NEXT move the highlight; LEFT/RIGHT (a 5-way pad) step Level or Start.
        step = buttons.direction(b)
        if b == buttons.LEFT or b == buttons.RIGHT:
            self._step_value(self.rows.current(), step)
        else:
            self.rows.move(step)
        self.app.sound("MOVE")
        self.app.redraw()

    def _select(self, now):
        item = self.rows.current()
        if item == _CONTINUE:
            self.app.show(PLAY, now)
        elif item == _PLAY_1P or item == _PLAY_2P:
            self.app.save_soon(now)  # the level and who starts, as chosen here
            self.play.new_game(ONE_PLAYER if item == _PLAY_1P else TWO_PLAYERS, now)
        elif item == _SETTINGS:
            self.app.save_soon(now)
            self.app.show(SETUP, now)
        else:
            self._step_value(item, 1)
            self.app.redraw()

    def _step_value(self, item, step):
        # The Level or Start row's value (nothing on another row).
        if item == _LEVEL:
            cycle(self.settings, "level", screens.LEVEL_LABELS, step)
        elif item == _STARTS:
            cycle(self.settings, "starts", screens.STARTS_LABELS, step)

    def tick(self, now):
        if not self.play.waiting and self.app.demo_due(now):
            self.app.show(DEMO, now)
        return False

    def due(self, now):
        idle = self.app.idle_ms(now)
        if self.play.waiting or idle < 0:
            return -1
        return max(0, self.app.demo_after_ms - idle)

    def draw(self, fb):
        fb.fill(0)
        rows = self.rows
        for row in range(len(rows.items)):
            item = rows.items[row]
            value = None
            if item == _LEVEL:
                value = choice(self.settings, "level", screens.LEVEL_LABELS)
            elif item == _STARTS:
                value = choice(self.settings, "starts", screens.STARTS_LABELS)
            screens.menu_row(fb, row, _LABELS[item], value, row == rows.index, False)
