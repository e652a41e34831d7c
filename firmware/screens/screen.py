# What a screen is to the App: its ids, what its calls answer, and the state screens share.
# SPDX-License-Identifier: MIT
import time

from micropython import const

# The screens, by id. A screen goes to another by returning its id from event() or tick();
# the App makes each when first shown (app.App.show: which module; only the game's is kept).
TITLE = const(0)
MENU = const(1)
PLAY = const(2)
SETUP = const(3)
DEMO = const(4)
REVIEW = const(5)
LINK = const(6)  # a game against another board over the link cable
# What event() and tick() return when they stay on the screen; None: nothing changed.
SAME = const(-1)  # the glass changed: the App draws it again
DONE = const(-2)  # SAME, and the rest of the hold this event belongs to does nothing
AGAIN = const(-3)  # SAME, and step again at once: the frame shown before long work (a search)
SLOW = const(-4)  # SAME after long work: what the buttons did while it ran is dropped

BLINK_MS = const(400)  # what blinks on a screen ("press key", the winning line, "DRAW")


class Shared:
    """What the screens share, handed to each: the settings (settings.Settings), the game in
    play (game.Game, made by the first screen that starts one; kept across screens for the
    menu's Continue and the review), whether it `waits` behind Continue, the Coach
    (coach.Coach, which the App makes and lets go with its setting), and `held`: the buttons
    whose current hold may still act, as bits 1 << button (the App keeps it). A screen asks
    for a sound or a save here."""

    def __init__(self, settings, buzzer):
        self.settings = settings
        self.game = None
        self.waits = False
        self.coach = None
        self.held = 0
        self.buzzer = buzzer  # a sound.Sound, None on a board without a buzzer
        self.save_due = False  # a save waits for a quiet gap (save_soon)
        self.save_since = 0  # since then

    def sound(self, name):
        """Play the sound `name` (sound.py's tables: "MOVE", "WIN", ...); with the setting
        "sound" off, silence. It starts at the end of this step (sound.Sound.play says what it
        cuts): once its work (a search) and its frame are done, so it starts with the change it
        goes with and no note of it is cut short by the step."""
        buzzer = self.buzzer
        if buzzer is not None:
            if self.settings.get("sound"):
                buzzer.play(name)
            else:
                buzzer.stop()  # turned off: what plays stops too

    def save_soon(self, now):
        """Save the settings in the next quiet gap (app.App.step says when; only what changed
        is written)."""
        if not self.save_due:
            self.save_due = True
            self.save_since = now


class Screen:
    """One screen: while it shows, the buttons and the glass are its. The App makes it with
    Screen(shared) (a Shared), calls the methods below, reads `asleep_to` and `idle_to`, and
    draws it. A screen reaches nothing
    but `shared` and the modules it imports; it says where to go next by what event() and
    tick() return. These defaults do nothing."""

    asleep_to = -1  # the screen to show when the display goes to sleep on this one (-1: none)
    # The screen to show once the buttons have been left alone for app.App.demo_after_ms with
    # the display awake (the demo), -1: none.
    idle_to = -1
    # The display may go to sleep on this screen after the sleep_s setting (and the board then
    # light-sleeps, when bytes on a UART would be lost): False keeps it awake (it may dim).
    sleeps = True

    def __init__(self, shared):
        self.shared = shared
        self.phase = 0  # blink phase: 0 on, 1 off (blink())

    def enter(self, now, came_from):
        """It is now the screen shown; `came_from` is the id of the one before (-1: none)."""

    def event(self, ev, now):
        """A button event (buttons.button_of/kind_of) that may act: None, SAME, DONE or the id
        of the screen to show next."""
        return None

    def tick(self, now):
        """Time-driven work, once per step: None, SAME, AGAIN, SLOW or a screen's id."""
        return None

    def due(self, now):
        """ms until the screen's next timed change (a blink, a move, a sign going; 0: due
        now), -1 when none is coming: the App saves only in a gap long enough for a save."""
        return -1

    def draw(self, fb):
        """Draw the whole screen into the frame buffer (the App shows it)."""

    def blink(self, now, since, period):
        """Move `phase` on for a blink that began at `since`: on for `period` ms, off for as
        long, and so on. SAME when it changed, else None."""
        phase = (time.ticks_diff(now, since) // period) & 1
        if phase != self.phase:
            self.phase = phase
            return SAME
        return None

    def blink_due(self, now, since, period):
        """ms until that blink next changes."""
        return period - time.ticks_diff(now, since) % period
