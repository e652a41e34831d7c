# The game app: title, menus, play, settings and power saving, as one polled state machine.
# SPDX-License-Identifier: MIT
import time

import buttons
import engine
import screens
from game import ONE_PLAYER, TWO_PLAYERS
from glyphs import Glyphs
from menu import (
    BACK,
    CONTINUE,
    CONTRAST,
    GO_SETTINGS,
    LABELS,
    MAIN,
    MAIN_PAUSED,
    PLAY_1P,
    PLAY_2P,
    RESET,
    SETUP,
    Menu,
    adjust,
    value,
)
from play import Play
from power import ASLEEP, Power
from screens import DEMO_SCREEN, MENU, PLAY, SETTINGS, TITLE


class App(Play):
    """The game on `hw` (hardware.Hardware), keeping its state in `settings` (settings.Settings).

    `run()` loops forever; `step(now_ms)` does one iteration and returns how many ms to wait
    before the next one (0: at once), so tests drive it with a fake clock.
    """

    poll_ms = 10  # main loop period while awake (100 Hz: a press shows within a frame)
    doze_ms = 50  # light-sleep slice between pad checks while the display is off
    demo_after_ms = 15000  # idle on the title screen before the demo starts
    demo_move_ms = 700  # pace of the demo
    demo_end_ms = 2500  # a finished demo game stays on screen this long
    blink_ms = 400  # winning line, "DRAW", title prompt
    hint_ms = 250  # hint blink half-period
    hint_blinks = 8  # half-periods the hint blinks for (2 s)
    think_ms = 150  # a search expected to take this long shows the thinking indicator first
    sign_ms = 1000  # how long "NO UNDO" stays up

    def __init__(self, hw, settings):
        self.hw = hw
        self.lcd = hw.lcd
        self.settings = settings
        self.glyphs = Glyphs()
        self.menu = Menu(MAIN)
        self.setup = Menu(SETUP)
        self._init_play()
        now = time.ticks_ms()
        self.power = Power(self.lcd, now)
        self.screen = TITLE
        self.since = now  # when the current screen (or its latest phase) began
        self.fresh = True
        self.confirm = False  # "reset scores?" asked once
        self.paused = False  # a game waits behind the menu
        self.armed = 0  # buttons whose current hold may still act (bit 1 << name)
        self.save_due = False  # settings.save() after the next frame
        self.phase = 0
        self.dirty = True
        self.lcd.contrast(settings.get("contrast"))
        self.lcd.backlight(settings.get("backlight"))

    # -- the loop ---------------------------------------------------------------------------

    def run(self):
        doze = self.hw.doze
        while True:
            wait = self.step(time.ticks_ms())
            if wait:
                if self.power.state == ASLEEP and doze is not None:
                    doze(wait)
                else:
                    time.sleep_ms(wait)

    def step(self, now):
        pad = self.hw.pad
        if self.fresh:
            # Timers count from the first step's clock (a test's fake clock, or ticks_ms()).
            self.fresh = False
            self.since = self.power.last = now
        if self.power.state == ASLEEP:
            if not pad.any_pressed():
                return self.doze_ms
            self.power.activity(now, self.settings.get("backlight"))
            self._woke(now)
            pad.reset(now)
        ev = pad.poll(now)
        while ev is not None:
            self._event(ev, now)
            ev = pad.poll(now)
        hurry = self._tick(now)
        s = self.settings
        if self.power.update(now, s.get("dim_s"), s.get("sleep_s"), s.get("backlight")):
            self._slept(now)
            self.save_due = False
            s.save()
            return self.doze_ms
        if self.dirty:
            self.dirty = False
            self.draw(now)
            self.lcd.show()
        if self.save_due:
            # After the frame, so a flash write never delays what the player sees.
            self.save_due = False
            s.save()  # writes only if something changed
        return 0 if hurry else self.poll_ms

    def _woke(self, now):
        self.armed = 0
        self.since = now
        self.dirty = True

    def _slept(self, now):
        if self.screen == DEMO_SCREEN:
            self._go(TITLE, now)  # the demo is for an audience; asleep there is none
        self.armed = 0

    def _go(self, screen, now):
        self.screen = screen
        self.since = now
        self.phase = 0
        self.dirty = True
        self.armed = 0  # a hold begun on the old screen does not act on the new one
        self.no_undo = False

    # -- input ------------------------------------------------------------------------------

    def _event(self, ev, now):
        b = ev >> 3
        kind = ev & 7
        if self.power.activity(now, self.settings.get("backlight")):
            self.armed = 0
            self.dirty = True
            return  # the press only woke the display (or lit the backlight)
        if kind == buttons.CHORD:
            self.armed = 0
            self._chord(now)
        elif kind == buttons.PRESS:
            if self._any_press(now):
                self.armed = 0
            else:
                self.armed |= 1 << b
                if b != buttons.SELECT:
                    self._nav(b, now)
        elif not (self.armed >> b) & 1:
            return
        elif kind == buttons.CLICK:
            self.armed &= ~(1 << b)
            if self.screen == PLAY and self.game.over():
                # Any short press starts the next game; holding NEXT goes to the menu instead.
                self._new_game(self.game.mode, now)
            elif b == buttons.SELECT:
                self._select(now)
        elif kind == buttons.REPEAT:
            if self.screen == PLAY:
                # In play a hold means something else (a cursor never needs to run): the
                # first REPEAT of a hold counts as its long press, for pads whose PREV and
                # NEXT auto-repeat instead of reporting LONG.
                self.armed &= ~(1 << b)
                self._hold(b, now)
            elif b != buttons.SELECT:
                self._nav(b, now)
        elif kind == buttons.LONG:
            self.armed &= ~(1 << b)
            if self.screen == PLAY:
                self._hold(b, now)

    def _any_press(self, now):
        """Screens where any press acts at once (and the rest of that hold is ignored)."""
        screen = self.screen
        if screen == TITLE:
            self._open_menu(now)
        elif screen == DEMO_SCREEN:
            self._go(TITLE, now)
        elif screen == PLAY and self.game.cpu_to_move():
            pass  # the CPU's turn: ignored, never queued
        else:
            return False
        return True

    def _nav(self, b, now):
        step = -1 if b in (buttons.PREV, buttons.UP, buttons.LEFT) else 1
        if self.screen == PLAY:
            if not self.armed & ~(1 << b | 1 << buttons.SELECT):
                self.anchor = self.cursor  # no other mover held: this press starts from here
            if b == buttons.PREV or b == buttons.NEXT:
                self._cursor_step(step)
            else:
                self._cursor_dir(b)
            self.hint_left = 0
        elif self.screen == MENU or self.screen == SETTINGS:
            menu = self.menu if self.screen == MENU else self.setup
            if menu.editing or b == buttons.LEFT or b == buttons.RIGHT:
                self._adjust(menu.current(), step)
            else:
                menu.move(step)
                self.confirm = False
        self.dirty = True

    def _hold(self, b, now):
        if b == buttons.SELECT:
            self._hint(now)
        elif b == buttons.PREV or b == buttons.LEFT:
            self._undo(now)
        elif b == buttons.NEXT or b == buttons.RIGHT:
            self._game_menu(now)

    def _chord(self, now):
        if self.screen == PLAY and not self.game.cpu_to_move():
            self._game_menu(now)
        elif self.screen == SETTINGS:
            self._leave_settings(now)

    # -- menus ------------------------------------------------------------------------------

    def _open_menu(self, now):
        self.menu.set_items(MAIN_PAUSED if self.paused else MAIN)
        self._go(MENU, now)

    def _select(self, now):
        screen = self.screen
        if screen == PLAY:
            if self.game.free(self.cursor) and not self.game.cpu_to_move():
                self.hint_left = 0
                self._played(self.game, self.game.play(self.cursor), now)
            return
        menu = self.menu if screen == MENU else self.setup
        item = menu.current()
        if item == CONTINUE:
            self.paused = False
            self._go(PLAY, now)
        elif item == PLAY_1P or item == PLAY_2P:
            self.save_due = True
            self._new_game(ONE_PLAYER if item == PLAY_1P else TWO_PLAYERS, now)
        elif item == GO_SETTINGS:
            self.save_due = True
            self.setup.index = 0
            self.setup.editing = False
            self.confirm = False
            self._go(SETTINGS, now)
        elif item == CONTRAST:
            menu.editing = not menu.editing
        elif item == RESET:
            if self.confirm:
                self.settings.reset_tally()
            self.confirm = not self.confirm
        elif item == BACK:
            self._leave_settings(now)
        else:
            self._adjust(item, 1)
        self.dirty = True

    def _leave_settings(self, now):
        self.save_due = True
        self._open_menu(now)
        self.menu.select(GO_SETTINGS)

    def _adjust(self, item, step):
        adjust(self.settings, self.lcd, item, step, len(engine.LEVELS))
        self.dirty = True

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, now):
        """Draw the current screen into the frame buffer (the caller shows it)."""
        fb = self.lcd
        screen = self.screen
        if screen == TITLE:
            screens.title(fb, self.glyphs, not self.phase)
        elif screen == MENU or screen == SETTINGS:
            menu = self.menu if screen == MENU else self.setup
            fb.fill(0)
            for row in range(len(menu.items)):
                item = menu.items[row]
                here = row == menu.index
                screens.menu_row(
                    fb,
                    row,
                    LABELS[item],
                    value(self.settings, item, self.levels, self.confirm),
                    here,
                    menu.editing,
                )
        else:
            self._draw_board(fb, screen == PLAY)
