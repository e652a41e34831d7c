# The main menu: a game against the CPU, for two or over the link cable, level, who starts, the
# settings screen.
# SPDX-License-Identifier: MIT
import buttons
import engine
from game import ONE_PLAYER, TWO_PLAYERS, Game
from menu import Menu, choice, cycle
from menurow import STARTS_LABELS, menu_row
from micropython import const
from screen import DEMO, LINK, PLAY, REVIEW, SAME, SETUP, Screen

# Rows, each an index into _LABELS.
_CONTINUE = const(0)
_PLAY_1P = const(1)
_PLAY_2P = const(2)
_LEVEL = const(3)
_STARTS = const(4)
_SETTINGS = const(5)
_LINK = const(6)
_LABELS = const(("Continue", "1P vs CPU", "2 Players", "Level", "Start", "Settings", "Link play"))
_ROWS = const((_PLAY_1P, _PLAY_2P, _LEVEL, _STARTS, _SETTINGS, _LINK))
_ROWS_PAUSED = const((_CONTINUE, _PLAY_1P, _PLAY_2P, _LEVEL, _STARTS, _SETTINGS, _LINK))
# The glass holds 6 rows of 8 pixels: a longer list scrolls, the highlight always in view, and
# a small arrow at the right edge says that rows are hidden above or below.
_SHOWN = const(6)
_ARROW_X = const(81)  # the arrow's middle column: 3 columns wide, in the last character cell


class MainMenu(Screen):
    """The main menu. PREV/NEXT move the highlight, SELECT chooses it or steps its value (Level,
    Start; LEFT/RIGHT step it both ways on a 5-way pad); the last row, Link play, plays over the
    link cable (linkplay.py). A game left unfinished for the menu waits
    behind "Continue", and while none waits, the demo starts after app.App.demo_after_ms without a
    press."""

    def __init__(self, shared):
        super().__init__(shared)
        self.settings = shared.settings
        self.rows = Menu(_ROWS)

    def enter(self, now, came_from):
        shared = self.shared
        self.idle_to = -1 if shared.waits else DEMO  # the demo, unless a game waits
        self.rows.set_items(_ROWS_PAUSED if shared.waits else _ROWS)
        if came_from == PLAY or came_from == REVIEW:
            # From a game: "Continue" if it waits (the likely choice), else the row that starts
            # another game like it.
            if shared.waits:
                self.rows.select(_CONTINUE)
            else:
                self.rows.select(_PLAY_1P if shared.game.mode == ONE_PLAYER else _PLAY_2P)
        elif came_from == SETUP:
            self.rows.select(_SETTINGS)
        elif came_from == LINK:
            self.rows.select(_LINK)

    def event(self, ev, now):
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        if kind == buttons.PRESS or kind == buttons.REPEAT:
            if b != buttons.SELECT:
                return self._move(b)
        elif kind == buttons.CLICK and b == buttons.SELECT:
            # The click is asked for before the choice acts (setupmenu asks after it, so that
            # choosing "Sound OFF" is not heard).
            self.shared.sound("PLACE")
            return self._select(now)
        return None

    def _move(self, b):
        # PREV/NEXT move the highlight; LEFT/RIGHT (a 5-way pad) step Level or Start.
        step = buttons.direction(b)
        if b == buttons.LEFT or b == buttons.RIGHT:
            self._step_value(self.rows.current(), step)
        else:
            self.rows.move(step)
        self.shared.sound("MOVE")
        return SAME

    def _select(self, now):
        item = self.rows.current()
        shared = self.shared
        if item == _CONTINUE:
            return PLAY
        if item == _PLAY_1P or item == _PLAY_2P:
            shared.save_soon(now)  # the level and who starts, as chosen here
            if shared.game is None:
                shared.game = Game()
            shared.game.begin(ONE_PLAYER if item == _PLAY_1P else TWO_PLAYERS, self.settings)
            shared.waits = False
            return PLAY
        if item == _SETTINGS:
            shared.save_soon(now)
            return SETUP
        if item == _LINK:
            shared.save_soon(now)
            return LINK
        self._step_value(item, 1)
        return SAME

    def _step_value(self, item, step):
        # The Level or Start row's value (nothing on another row).
        if item == _LEVEL:
            cycle(self.settings, "level", engine.LEVELS, step)
        elif item == _STARTS:
            cycle(self.settings, "starts", STARTS_LABELS, step)

    def draw(self, fb):
        fb.fill(0)
        rows = self.rows
        top = rows.index - _SHOWN + 1 if rows.index >= _SHOWN else 0
        for row in range(top, min(len(rows.items), top + _SHOWN)):
            item = rows.items[row]
            value = None
            if item == _LEVEL:
                value = choice(self.settings, "level", engine.LEVELS)
            elif item == _STARTS:
                value = choice(self.settings, "starts", STARTS_LABELS)
            menu_row(fb, row - top, _LABELS[item], value, row == rows.index, False)
        if top:
            _arrow(fb, 0, 1, top == rows.index)
        if top + _SHOWN < len(rows.items):
            _arrow(fb, 47, -1, top + _SHOWN - 1 == rows.index)


def _arrow(fb, tip_y, toward, highlighted):
    # A 3-row triangle pointing up (toward 1: its tip at tip_y, widening downward) or down, in
    # the row's ink (white on the highlighted row).
    ink = 0 if highlighted else 1
    for k in range(3):
        fb.hline(_ARROW_X - k, tip_y + k * toward, 2 * k + 1, ink)
