# The main menu: a game against the CPU or for two, level, who starts, the settings screen.
# SPDX-License-Identifier: MIT
import buttons
import screens
from game import ONE_PLAYER, TWO_PLAYERS
from menu import Menu
from micropython import const
from settings import LEVEL_COUNT

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
_STARTS_TEXT = const(("YOU", "CPU", "ALT"))  # the settings' "starts": 0, 1, 2


def text(settings, key):
    """What the Level or Start row shows (key "level" or "starts"): the main menu's rows, which
    the settings screen shows too."""
    if key == "level":
        return screens.LEVEL_LABELS[settings.get("level")]
    return _STARTS_TEXT[settings.get("starts")]


def cycle(settings, key, step):
    """Step the level or who starts (key "level" or "starts") by step, wrapping around."""
    count = LEVEL_COUNT if key == "level" else len(_STARTS_TEXT)
    settings.set(key, (settings.get(key) + step) % count)


class MainMenu:
    """The main menu, a controller with the interface app.App describes. PREV/NEXT move the
    highlight, SELECT chooses it or steps its value (Level, Start; LEFT/RIGHT step it both
    ways on a 5-way pad). A game left unfinished for the menu waits behind "Continue", and
    while none waits, the demo starts after app.App.demo_after_ms without a press."""

    def __init__(self, app, settings, lcd):
        self.app = app
        self.settings = settings
        self.lcd = lcd  # for the settings screen's live preview
        self.play = None  # where its rows go (set by the App)
        self.rows = Menu(_ROWS)
        self.paused = False  # a game waits behind "Continue"

    def enter(self, now):
        self.rows.set_items(_ROWS_PAUSED if self.paused else _ROWS)  # the highlight stays

    def from_game(self, now, waiting):
        """Opened from a game: `waiting` if it is not over, then "Continue" brings it back (and
        is highlighted, as the likely choice)."""
        self.paused = waiting
        self.app.go(self, now)
        self.rows.select(_CONTINUE)

    def event(self, ev, now):
        b = buttons.button_of(ev)
        kind = buttons.kind_of(ev)
        if kind == buttons.PRESS or kind == buttons.REPEAT:
            if b != buttons.SELECT:
                self._move(b, now)
        elif kind == buttons.CLICK and b == buttons.SELECT:
            # The click sounds before the choice acts (setupmenu sounds after it, so that
            # choosing "Sound OFF" is not heard).
            self.app.sound("PLACE", now)
            self._select(now)
        return False

    def _move(self, b, now):
        # PREV/NEXT move the highlight; LEFT/RIGHT (a 5-way pad) step Level or Start.
        step = -1 if b == buttons.PREV or b == buttons.UP or b == buttons.LEFT else 1
        if b == buttons.LEFT or b == buttons.RIGHT:
            item = self.rows.current()
            if item == _LEVEL or item == _STARTS:
                cycle(self.settings, "level" if item == _LEVEL else "starts", step)
        else:
            self.rows.move(step)
        self.app.sound("MOVE", now)
        self.app.redraw()

    def _select(self, now):
        item = self.rows.current()
        if item == _CONTINUE:
            self.paused = False
            self.app.go(self.play, now)
        elif item == _PLAY_1P or item == _PLAY_2P:
            self.paused = False
            self.app.save_soon(now)  # the level and who starts, as chosen here
            self.play.new_game(ONE_PLAYER if item == _PLAY_1P else TWO_PLAYERS, now)
        elif item == _SETTINGS:
            self.app.save_soon(now)
            self.open_setup(now)
        else:
            cycle(self.settings, "level" if item == _LEVEL else "starts", 1)
            self.app.redraw()

    def open_setup(self, now):
        """Show the settings screen, made each time it opens and let go when it is left
        (app.App.load_for_now): a game never holds its code in RAM."""
        setupmenu = self.app.load_for_now("setupmenu")
        self.app.go(setupmenu.SetupMenu(self.app, self.settings, self.lcd, self), now)

    def tick(self, now):
        if not self.paused and self.app.demo_due(now):
            self.app.start_demo(now)
        return False

    def due(self, now):
        idle = self.app.idle_ms(now)
        if self.paused or idle < 0:
            return -1
        return max(0, self.app.demo_after_ms - idle)

    def draw(self, fb):
        fb.fill(0)
        rows = self.rows
        for row in range(len(rows.items)):
            item = rows.items[row]
            value = None
            if item == _LEVEL:
                value = text(self.settings, "level")
            elif item == _STARTS:
                value = text(self.settings, "starts")
            screens.menu_row(fb, row, _LABELS[item], value, row == rows.index, False)
