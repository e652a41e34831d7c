# The game's loop: screens as controllers, the idle timers, which presses may act, saving.
# SPDX-License-Identifier: MIT
import sys
import time

import buttons
import glyphs
from micropython import const
from power import ASLEEP, AWAKE, Power
from screen import TITLE

# The screens by id (screen.TITLE, MENU, PLAY, SETUP, DEMO): the module and the class each is
# made from, and whether it is kept. A screen is made the first time it is wanted. One that is
# not kept is let go when another shows, and its module with it (_load): the title, the demo,
# the menus show only now and then, and a game never holds their code. The one kept, the game,
# is made with the main menu (mainmenu.MainMenu asks for it): the boot loads neither (nor the
# engine), and a game started from the menu loads nothing while its choice's click sounds.
# A game's review (screen.REVIEW) is let go too: a game never reviewed never loads it.
# (const(): the tables live with the code's constants, no global name in RAM.)
_SCREENS = const(
    (
        ("title", "Title", False),
        ("mainmenu", "MainMenu", False),
        ("play", "Play", True),
        ("setupmenu", "SetupMenu", False),
        ("demo", "Demo", False),
        ("review", "Review", False),
    )
)
# What screens that are let go import and nothing else needs: the list the menus move through,
# the coach and the small font of the review. Each goes with the screen that loaded it; one
# already loaded stays (a kept screen may use it: the "NO UNDO" sign's font).
_LET_GO_WITH = const(("menu", "coach", "smallfont"))


class App:
    """The game on `hw` (hardware.Hardware), keeping its state in `settings` (settings.Settings).

    `step(now_ms)` does one iteration and returns how many ms to wait before the next one (0:
    at once): runner.Runner steps it for the board's loop and the web page, tests with a fake
    clock.

    Each screen is a screen.Screen, made by the App when first wanted (_SCREENS says how), and
    `screen` the one showing. The screens go to one another, and ask for the rest of the game,
    through the methods under "for the screens" below.
    """

    poll_ms = 10  # main loop period while awake (100 Hz: a press shows within a frame)
    doze_ms = 50  # light-sleep slice between pad checks while the display is off
    # The longest a settings save may take: littlefs on the Pico as testbed/ramdisk.py models
    # it (calibrated on the emulated Pico with the deployed files in the root), beside those
    # files, with or without error.log and settings.bad at their largest. The worst is littlefs
    # relocating the root's metadata, and where that falls moves with the deployed files' names
    # and sizes: 218 to 428 ms with three firmwares of one day (a compaction alone 140-185 ms
    # with its erase, a plain save 20-40 ms). mp_app_timing.py holds the model under this;
    # `make bench` prints it. A save waits for a gap this long in which nothing sounds, no
    # button is down and the screen has no timed change due, less late_ms: what a note or a
    # blink may be late by.
    save_ms = 500
    late_ms = 30
    # A save that found no such gap this long (a result blinking on and on: it blinks every
    # 400 ms) takes the frame of the screen's next timed change instead, once nothing sounds:
    # the longest gap a blinking screen leaves, which holds any save but a compaction beside
    # the largest files. Longer than the longest jingle (about 1 s), so a result's save
    # follows its jingle.
    save_wait_ms = 2000
    demo_after_ms = 15000  # idle on the title, or on a main menu with no game waiting: the demo

    def __init__(self, hw, settings):
        self.hw = hw
        self.lcd = lcd = hw.lcd
        self.settings = settings
        self.power = Power(lcd, time.ticks_ms())
        self.buzzer = hw.buzzer  # a sound.Sound, None on a board without a buzzer
        self.glyphs = glyphs  # the marks' drawing: glyphs.draw(fb, player, x, y, ...)
        self.screens = [None] * len(_SCREENS)  # by id, each once made (screen_named)
        self.screen = None  # the one showing (the title from the first step on)
        self.showing = -1  # its id
        self.asleep_to = None  # where the screen showing goes when the display sleeps
        # Buttons whose current hold may still act (bit 1 << name): a hold begun on one
        # screen never acts on the next, nor the rest of a press that only woke the display.
        self.armed = 0
        self.dirty = True  # the screen changed: draw and show it after this step
        self.save_due = False  # settings.save() in the next quiet gap
        self.save_since = 0  # when it became due
        lcd.contrast(settings.get("contrast"))
        lcd.backlight(settings.get("backlight"))

    # -- the loop -----------------------------------------------------------------------------

    def step(self, now):
        start = time.ticks_ms()  # the work below takes time: the wait is timed from its end
        pad = self.hw.pad
        s = self.settings
        if self.screen is None:
            # Timers count from the first step's clock (a test's fake clock, or ticks_ms()).
            self.power.last = now
            self.show(TITLE, now)
            self.sound("CHIME")  # with the title's frame, after its code has loaded
        if self.power.state == ASLEEP:
            if not pad.any_pressed():
                return self.doze_ms
            self.power.activity(now, s.get("backlight"))
            self.armed = 0  # the waking press does nothing else
            self.dirty = True
            pad.reset(now)
        ev = pad.poll(now)
        while ev is not None:
            self._event(ev, now)
            ev = pad.poll(now)
        hurry = self.screen.tick(now)
        asleep = self.power.update(now, s.get("dim_s"), s.get("sleep_s"), s.get("backlight"))
        if self.power.state != AWAKE:
            self.sound(None)  # dimmed, nobody plays; asleep, released before light sleep
        if asleep:
            if self.asleep_to is not None:
                self.show(self.asleep_to, now)
            self.armed = 0
            self.save_due = False
            s.save()
            return self.doze_ms
        drew = self.dirty
        if drew:
            self.dirty = False
            self.screen.draw(self.lcd)
            self.lcd.show()
        now = _after(now, start)  # a frame takes ms on a board (its bytes, its drawing)
        buzzer = self.buzzer
        sounding = buzzer.step(now) if buzzer is not None else 0  # notes change on time
        if self.save_due and not hurry and not sounding and not pad.any_pressed():
            due = self.screen.due(now)
            if (
                due < 0
                or due + self.late_ms >= self.save_ms
                or (drew and time.ticks_diff(now, self.save_since) >= self.save_wait_ms)
            ):
                self.save_due = False
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
        if self.power.activity(now, self.settings.get("backlight")):
            self.armed = 0
            self.dirty = True
            return  # the press only woke the display (or lit the backlight)
        kind = buttons.kind_of(ev)
        bit = 1 << buttons.button_of(ev)
        if kind == buttons.CHORD:
            self.armed = 0  # the two holds of a chord do nothing more
        elif kind == buttons.PRESS:
            self.armed |= bit
        elif kind == buttons.RELEASE or not self.armed & bit:
            return  # a release acts nowhere; a hold begun before this screen, nothing more
        elif kind != buttons.REPEAT:
            self.armed &= ~bit  # CLICK and LONG end what a hold does
        if self.screen.event(ev, now):
            self.armed &= ~bit

    # -- for the screens ----------------------------------------------------------------------

    def show(self, which, now):
        """Show the screen `which` (screen.TITLE ...) from now on; return it. The screen left
        is let go unless it is kept (_SCREENS)."""
        screen = self.screen_named(which)
        left = self.showing
        if left >= 0 and left != which and not _SCREENS[left][2]:
            self.screens[left] = None
        self.screen = screen
        self.showing = which
        self.asleep_to = None
        self.armed = 0  # a hold begun on the old screen does not act on the new one
        self.dirty = True
        screen.enter(now)
        return screen

    def screen_named(self, which):
        """The screen `which` (screen.TITLE ...), made now if it is not yet."""
        screens = self.screens
        if screens[which] is None:
            module, name, keep = _SCREENS[which]
            screens[which] = getattr(_load(module, keep), name)(self)
        return screens[which]

    def demo_due(self, now):
        """True once the buttons have been left alone for demo_after_ms, the display awake."""
        return self.idle_ms(now) >= self.demo_after_ms

    def leave_on_sleep(self, which):
        """If the display goes to sleep while the current screen shows, show `which`."""
        self.asleep_to = which

    def redraw(self):
        """What the screen shows has changed: draw it after this step."""
        self.dirty = True

    def save_soon(self, now):
        """Save the settings in the next quiet gap: nothing sounding, no button down, no timed
        change of the screen due within save_ms (only what changed is written). A save still
        waiting after save_wait_ms takes the frame of the screen's next timed change; the
        display going to sleep saves at once."""
        if not self.save_due:
            self.save_due = True
            self.save_since = now

    def held(self):
        """The buttons whose current hold may still act, as bits 1 << name."""
        return self.armed

    def idle_ms(self, now):
        """ms since the last button activity, while the display is fully awake; else -1."""
        if self.power.state != AWAKE:
            return -1
        return time.ticks_diff(now, self.power.last)

    def sound(self, name):
        """Play the sound called `name` (a table of sound.py: "MOVE", "WIN", ...) on the
        buzzer (sound.Sound.play says what it cuts), from the end of this step: once its
        work (a search) and its frame are done, so a sound starts with the change it goes
        with and no note of it is cut short by the step. With the setting "sound" off, or name
        None: silence."""
        buzzer = self.buzzer
        if buzzer is not None:
            if name and self.settings.get("sound"):
                buzzer.play(name)
            else:
                buzzer.stop()

    def sounding(self):
        """True while a sound plays (a long search waits for it: it would cut its notes)."""
        return self.buzzer is not None and self.buzzer.playing()

    def drop_input(self, now):
        """Forget what the buttons did until now: holds in progress end without acting."""
        self.hw.pad.reset(now)
        self.armed = 0


def _load(name, keep):
    # The module `name`. One not kept is forgotten at once, with the helpers of _LET_GO_WITH
    # that its import loaded: the screen made from it alone holds their code, which is freed
    # once the screen is let go, and the next import loads it again.
    if keep:
        return __import__(name)
    loaded_now = [helper for helper in _LET_GO_WITH if helper not in sys.modules]
    module = __import__(name)
    del sys.modules[name]
    for helper in loaded_now:
        sys.modules.pop(helper, None)
    return module


def _after(now, start):
    # `now` moved on by the time spent since ticks_ms() read `start`: the step's own clock
    # (a test's) advanced by what its work cost on time's clock.
    return time.ticks_add(now, time.ticks_diff(time.ticks_ms(), start))
