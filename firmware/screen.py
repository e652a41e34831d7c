# What every screen is to the App: the calls it answers, the screens' ids, the blink.
# SPDX-License-Identifier: MIT
import time

from micropython import const

# The screens, by id: a screen goes to another through the App (app.show(MENU, now)), which
# makes each when first wanted (app.App's table _SCREENS: which module, kept or let go).
TITLE = const(0)
MENU = const(1)
PLAY = const(2)
SETUP = const(3)
DEMO = const(4)
REVIEW = const(5)

BLINK_MS = const(400)  # what blinks on a screen ("press key", the winning line, "DRAW")


class Screen:
    """One screen: while it shows, the buttons and the glass are its. app.App makes it with
    Screen(app), calls the methods below and draws it; the screen reaches the rest of the game
    only through `app` (app.App's "for the screens" part). These defaults do nothing."""

    def __init__(self, app):
        self.app = app
        self.phase = 0  # blink phase: 0 on, 1 off (blink())

    def enter(self, now):
        """It is now the screen shown (app.App.show)."""

    def event(self, ev, now):
        """A button event (buttons.button_of/kind_of) that may act. True when the hold it
        belongs to has done all it does: the rest of that hold (REPEATs, LONG, CLICK) is
        dropped."""
        return False

    def tick(self, now):
        """Time-driven work, once per step; True to be called again at once."""
        return False

    def due(self, now):
        """ms until the screen's next timed change (a blink, a move, a sign going; 0: due
        now), -1 when none is coming: the App saves only in a gap long enough for a save."""
        return -1

    def draw(self, fb):
        """Draw the whole screen into the frame buffer (the App shows it)."""

    def blink(self, now, since, period):
        """Move `phase` on for a blink that began at `since`: on for `period` ms, off for as
        long, and so on; a change asks the App for a redraw."""
        phase = (time.ticks_diff(now, since) // period) & 1
        if phase != self.phase:
            self.phase = phase
            self.app.redraw()

    def blink_due(self, now, since, period):
        """ms until that blink next changes."""
        return period - time.ticks_diff(now, since) % period
