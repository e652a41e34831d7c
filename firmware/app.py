# The game's loop: screens as controllers, the idle timers, which presses may act, saving.
# SPDX-License-Identifier: MIT
import sys
import time

import buttons
from glyphs import Glyphs
from power import ASLEEP, AWAKE, Power


class App:
    """The game on `hw` (hardware.Hardware), keeping its state in `settings` (settings.Settings).

    `step(now_ms)` does one iteration and returns how many ms to wait before the next one (0:
    at once): runner.Runner steps it for the board's loop and the web page, tests with a fake
    clock.

    Each screen is a controller, `screen` the one showing: mainmenu.MainMenu and play.Play
    (made by main_menu() when the title's first press asks for the menu, then kept), and the
    screens shown only now and then, made each time they show and let go when left, their code
    with them (load_for_now): title.Title (new_title()), demo.Demo (start_demo()),
    setupmenu.SetupMenu (made by the main menu). The App calls theirs:

        enter(now)      it is now the screen (go)
        event(ev, now)  a button event (buttons.button_of/kind_of) that may act; returns True
                        when the hold it belongs to has done all it does: the rest of that
                        hold (REPEATs, LONG, CLICK) is dropped
        tick(now)       time-driven work; returns True to be called again at once
        due(now)        ms until the screen's next timed change (a blink, a move, a sign
                        going; 0: due now), -1 when none is coming: the App saves only in a
                        gap long enough for a save
        draw(fb)        draw the whole screen into the frame buffer (the App shows it)

    and they use only go(), main_menu(), new_title(), demo_due(), start_demo(), load_for_now(),
    redraw(), save_soon(), held(), idle_ms(), drop_input(), leave_on_sleep() and sound() here.
    """

    poll_ms = 10  # main loop period while awake (100 Hz: a press shows within a frame)
    doze_ms = 50  # light-sleep slice between pad checks while the display is off
    # The longest a settings save may take: littlefs on the Pico as testbed/ramdisk.py models
    # it (calibrated on the emulated Pico with the deployed files in the root), beside those
    # files, with or without error.log and settings.bad at their largest, over 320 saves:
    # 343 ms, littlefs relocating the root's metadata (a compaction alone 140-185 ms with its
    # erase, a plain save 20-40 ms). mp_app_timing.py holds this to the model within late_ms; `make
    # bench` prints it. A save waits for a gap this long in which nothing sounds, no button is
    # down and the screen has no timed change due, less late_ms: what a note or a blink may be
    # late by.
    save_ms = 350
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
        self.glyphs = Glyphs()
        self.menu = None  # the main menu and the game, made when first wanted (main_menu)
        self.play = None
        self.screen = None  # the title, from the first step on
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
            self.go(self.new_title(), now)
            # Loading the title's code from flash takes time: the chime starts when it does.
            self.sound("CHIME", _after(now, start))
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
            self.sound(None, now)  # dimmed, nobody plays; asleep, released before light sleep
        if asleep:
            if self.asleep_to is not None:
                self.go(self.asleep_to, now)
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

    def go(self, screen, now):
        """Show `screen` (a controller) from now on."""
        self.screen = screen
        self.asleep_to = None
        self.armed = 0  # a hold begun on the old screen does not act on the new one
        self.dirty = True
        screen.enter(now)

    def main_menu(self):
        """The main menu, made the first time it is wanted with the game screen its rows lead
        to: the title needs neither, so the boot loads their code (the engine's included) only
        after the first frame, when a press first asks for them."""
        menu = self.menu
        if menu is None:
            from mainmenu import MainMenu
            from play import Play

            self.menu = menu = MainMenu(self, self.settings, self.lcd)
            self.play = play = Play(self, self.settings, self.glyphs)
            # Where each screen leads: the screens go to one another by these (app.go).
            play.menu = menu
            menu.play = play
        return menu

    def load_for_now(self, name):
        """The module `name`, imported for the screen about to be made from it and forgotten
        at once: the screen alone holds its code, which is freed once the screen is left, and
        the next import loads it again. For the screens that show only now and then (the
        title, the demo, the settings), so that a game does not keep them in RAM."""
        module = __import__(name)
        del sys.modules[name]
        return module

    def new_title(self):
        """A new title screen (title.Title), to go to."""
        return self.load_for_now("title").Title(self, self.glyphs)

    def demo_due(self, now):
        """True once the buttons have been left alone for demo_after_ms, the display awake."""
        return self.idle_ms(now) >= self.demo_after_ms

    def start_demo(self, now):
        """Show the demo (demo.Demo), which ends on a new title."""
        demo = self.load_for_now("demo").Demo(self, self.glyphs, self.new_title())
        self.go(demo, now)

    def leave_on_sleep(self, screen):
        """If the display goes to sleep while the current screen shows, go to `screen`."""
        self.asleep_to = screen

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

    def sound(self, name, now):
        """Play the sound called `name` (a table of sound.py: "MOVE", "WIN", ...) on the
        buzzer (sound.Sound.play says what it cuts). With the setting "sound" off, or name
        None: silence."""
        buzzer = self.buzzer
        if buzzer is not None:
            if name and self.settings.get("sound"):
                buzzer.play(name, now)
            else:
                buzzer.stop()

    def drop_input(self, now):
        """Forget what the buttons did until now: holds in progress end without acting."""
        self.hw.pad.reset(now)
        self.armed = 0


def _after(now, start):
    # `now` moved on by the time spent since ticks_ms() read `start`: the step's own clock
    # (a test's) advanced by what its work cost on time's clock.
    return time.ticks_add(now, time.ticks_diff(time.ticks_ms(), start))
