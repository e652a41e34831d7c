# The game's loop: which screen shows, its frames, the idle timers, which presses act, saving.
# SPDX-License-Identifier: MIT
import sys
import time

import buttons
import power
import screen
from micropython import const

# What screens that are let go import and nothing else needs: the list the menus move through
# and their rows, the small font of the review and of the coach's note, the link's code and the
# review's (link play shows a review itself). Each goes with the screen that loaded it; one
# already loaded stays (a kept screen may use it: the "NO UNDO" sign's font).
_LET_GO_WITH = const(("menu", "menurow", "smallfont", "linkgame", "linkwire", "review"))


class App:
    """The game on `hw` (hardware.Hardware), keeping its state in `settings` (settings.Settings).

    `step(now_ms)` does one iteration and returns how many ms to wait before the next one (0:
    at once): runner.Runner steps it for the board's loop and the web page, tests with a fake
    clock.

    Control flows one way: the App hands each button event and each step's time to the screen
    showing (a screen.Screen, made by _made when first shown), which answers what to do
    next (stay, draw again, or the screen to show: screen.py); the App alone shows screens,
    draws them, loads and lets go of their modules, dims, sleeps and saves. What the screens
    share is `shared` (a screen.Shared).

    What the web page may read (its view of the device): `showing` (the id of the screen
    showing, -1 before the first step), `screen` (that screen: play.Play and review.Review say
    what of theirs may be read) and `shared` (its game, whether it waits, the Coach, the
    settings).
    """

    poll_ms = 10  # main loop period while awake (100 Hz: a press shows within a frame)
    doze_ms = 50  # light-sleep slice between pad checks while the display is off
    # A save waits for a gap this long in which nothing sounds, no button is down and the
    # screen has no timed change due, less late_ms: what a note or a blink may be late by; and
    # for the buttons to have been still as long (a save stalls the loop: a press made and let
    # go inside it would be lost). The longest a settings save takes on a Pico's littlefs, and
    # how it was found: docs/benchmarks.md, "A save's gap".
    save_ms = 500
    late_ms = 30
    # A save that found no such gap this long (a result blinking on and on: it blinks every
    # 400 ms) takes the frame of the screen's next timed change instead, once nothing sounds.
    # Longer than the longest jingle (about 1 s), so a result's save follows its jingle.
    save_wait_ms = 2000
    demo_after_ms = 15000  # idle this long where the screen allows it (idle_to): the demo

    def __init__(self, hw, settings):
        self.hw = hw
        self.lcd = lcd = hw.lcd
        self.settings = settings
        self.power = power.Power(lcd, time.ticks_ms())
        self.shared = screen.Shared(settings, hw.buzzer)
        self.screens = [None] * 7  # by id (screen.TITLE ... LINK), each once made (_made)
        self.screen = None  # the one showing (the title from the first step on)
        self.showing = -1  # its id
        self.shown = 0  # when it showed: its idle time (to the demo) counts from here at least
        self.dirty = True  # the screen changed: draw and show it after this step
        # The contrast and the backlight as the glass has them: the settings screen changes
        # the settings, and the App the glass (_event).
        self.vop = settings.get("contrast")
        self.lit = settings.get("backlight")
        lcd.contrast(self.vop)
        lcd.backlight(self.lit)

    # -- the loop -----------------------------------------------------------------------------

    def step(self, now):
        start = time.ticks_ms()  # the work below takes time: the wait is timed from its end
        pad = self.hw.pad
        s = self.settings
        shared = self.shared
        timers = self.power
        if self.screen is None:
            # Timers count from the first step's clock (a test's fake clock, or ticks_ms()).
            timers.last = now
            self.show(screen.TITLE, now)
            shared.sound("CHIME")
        if timers.state == power.ASLEEP:
            if not pad.any_pressed():
                return self.doze_ms
            timers.activity(now, s.get("backlight"))
            shared.held = 0  # the waking press does nothing else
            self.dirty = True
            pad.reset(now)
        ev = pad.poll(now)
        while ev is not None:
            self._event(ev, now)
            ev = pad.poll(now)
        went = self.screen.tick(now)
        hurry = went == screen.AGAIN
        if went == screen.SLOW:
            pad.reset(now)  # whatever was pressed while the screen worked is dropped
            shared.held = 0
        # What the screen answered (screen.py): draw again, or show the screen it names.
        # Written here and in _event rather than as a method: a method is 112 B of a stock
        # board's heap while playing, where 128 B are to spare (docs/benchmarks.md).
        if went is not None:
            if went >= 0:
                self.show(went, now)
            else:
                self.dirty = True
        # Idle since the last press and since this screen showed (the link's "left" going to
        # the menu by itself: the menu's 15 s start there).
        idle = self.demo_after_ms
        if (
            timers.state == power.AWAKE
            and time.ticks_diff(now, timers.last) >= idle
            and time.ticks_diff(now, self.shown) >= idle
        ):
            to = self.screen.idle_to
            if to >= 0:
                self.show(to, now)
        sleep_s = s.get("sleep_s") if self.screen.sleeps else 0  # else only dims
        asleep = timers.update(now, s.get("dim_s"), sleep_s, s.get("backlight"))
        buzzer = shared.buzzer
        if timers.state != power.AWAKE and buzzer is not None:
            buzzer.stop()  # dimmed, nobody plays; asleep, released before light sleep
        if asleep:
            to = self.screen.asleep_to
            if to >= 0:
                self.show(to, now)
            shared.held = 0
            shared.save_due = False
            s.save()
            return self.doze_ms
        drew = self.dirty
        if drew:
            self.dirty = False
            self.screen.draw(self.lcd)
            self.lcd.show()
        now = _after(now, start)  # a frame takes ms on a board (its bytes, its drawing)
        sounding = buzzer.step(now) if buzzer is not None else 0  # notes change on time
        if (
            shared.save_due
            and not hurry
            and not sounding
            and not pad.any_pressed()
            and time.ticks_diff(now, timers.last) >= self.save_ms
        ):
            due = self.due(now)
            if (
                due < 0
                or due + self.late_ms >= self.save_ms
                or (drew and time.ticks_diff(now, shared.save_since) >= self.save_wait_ms)
            ):
                shared.save_due = False
                s.save()  # writes only if something changed
                now = _after(now, start)
                if buzzer is not None:
                    buzzer.step(now)
        if hurry:
            return 0
        # A note that ends before the next poll is changed on time: the wait shortens to it.
        due = buzzer.step(now) if buzzer is not None else 0
        return due if 0 < due < self.poll_ms else self.poll_ms

    def _event(self, ev, now):
        shared = self.shared
        if self.power.activity(now, self.settings.get("backlight")):
            shared.held = 0
            self.dirty = True
            return  # the press only woke the display (or lit the backlight)
        kind = buttons.kind_of(ev)
        bit = 1 << buttons.button_of(ev)
        if kind == buttons.CHORD:
            shared.held = 0  # the two holds of a chord do nothing more
        elif kind == buttons.PRESS:
            shared.held |= bit
        elif kind == buttons.RELEASE or not shared.held & bit:
            return  # a release acts nowhere; a hold begun before this screen, nothing more
        elif kind != buttons.REPEAT:
            shared.held &= ~bit  # CLICK and LONG end what a hold does
        went = self.screen.event(ev, now)
        if went == screen.DONE:
            shared.held &= ~bit
        if went is not None:
            if went >= 0:
                self.show(went, now)
            else:
                self.dirty = True
        # The glass's contrast and backlight follow the settings (the settings screen's live
        # preview), sent only when they change.
        s = self.settings
        vop = s.get("contrast")
        if vop != self.vop:
            self.vop = vop
            self.lcd.contrast(vop)
        lit = s.get("backlight")
        if lit != self.lit:
            self.lit = lit
            self.lcd.backlight(lit)

    def due(self, now):
        """ms until the next timed change on the glass (0: due now), -1 when none is coming:
        the screen's (screen.Screen.due), or the demo's start where the screen allows it."""
        due = self.screen.due(now)
        if self.power.state == power.AWAKE and self.screen.idle_to >= 0:
            # From the later of the last press and the show, as step() counts it.
            wait = self.demo_after_ms
            idle = max(0, wait - time.ticks_diff(now, self.power.last))
            idle = max(idle, wait - time.ticks_diff(now, self.shown))
            if due < 0 or idle < due:
                due = idle
        return due

    def show(self, which, now):
        """Show the screen `which` (screen.TITLE ...) from now on. A screen is made the first
        time it shows. The game's is kept; any other is let go when another shows, its module
        at once (the screen alone holds its code) with the helpers of _LET_GO_WITH its import
        loaded: the title, the demo, the menus and a game's review show only now and then, and
        a game never holds their code."""
        left = self.showing
        self._coach(which)  # before the screen: the review's import finds it loaded
        screens = self.screens
        if screens[which] is None:
            loaded_now = [helper for helper in _LET_GO_WITH if helper not in sys.modules]
            made = screens[which] = _made(which, self.shared, self.hw)
            if which != screen.PLAY:
                sys.modules.pop(type(made).__module__, None)
                for helper in loaded_now:
                    sys.modules.pop(helper, None)
        if left >= 0 and left != which and left != screen.PLAY:
            screens[left] = None
        self.screen = shown = screens[which]
        self.showing = which
        self.shown = now
        self.shared.held = 0  # a hold begun on the old screen does not act on the new one
        self.dirty = True
        shown.enter(now, left)

    def _coach(self, which):
        # The Coach (shared.coach) is made for a game with the Coach setting on, for a review
        # and for link play (which shows its review itself); with the setting off it is let go
        # on any other screen, its code, its marks' and the small font with it (whoever loaded
        # the font: a "NO UNDO" sign loads it again). The setting changes only on the settings
        # screen, so looking at each show is enough.
        shared = self.shared
        on = which >= screen.REVIEW or self.settings.get("coach")  # REVIEW, LINK
        if on:
            if shared.coach is None and (which == screen.PLAY or which >= screen.REVIEW):
                import coach

                shared.coach = coach.Coach()
        elif shared.coach is not None or "smallfont" in sys.modules:
            shared.coach = None
            sys.modules.pop("coach", None)
            sys.modules.pop("coachmarks", None)
            sys.modules.pop("smallfont", None)


def _made(which, shared, hw):
    # The screen `which`, from its module: each imported here by name, so that what the App
    # loads reads as imports. The boot loads none of them, nor the engine.
    if which == screen.TITLE:
        import title

        return title.Title(shared)
    if which == screen.MENU:
        import mainmenu

        return mainmenu.MainMenu(shared)
    if which == screen.PLAY:
        import play

        return play.Play(shared)
    if which == screen.SETUP:
        import setupmenu

        return setupmenu.SetupMenu(shared)
    if which == screen.DEMO:
        import demo

        return demo.Demo(shared)
    if which == screen.LINK:
        import linkplay

        return linkplay.LinkPlay(shared, hw.link)
    import review

    return review.Review(shared)


def _after(now, start):
    # `now` moved on by the time spent since ticks_ms() read `start`: the step's own clock
    # (a test's) advanced by what its work cost on time's clock.
    return time.ticks_add(now, time.ticks_diff(time.ticks_ms(), start))
