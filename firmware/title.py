# The title screen, and the CPU-against-CPU demo it starts when nobody plays.
# SPDX-License-Identifier: MIT
import time

import buttons
from micropython import const

_BLINK_MS = const(400)  # "press key"


class Title:
    """The first screen: any press opens the main menu; after app.App.demo_after_ms without
    one, the demo starts. A controller with the interface app.App describes."""

    def __init__(self, app, glyphs):
        self.app = app
        self.glyphs = glyphs
        self.since = 0
        self.phase = 0  # blink phase: 0 on, 1 off

    def enter(self, now):
        self.since = now
        self.phase = 0

    def event(self, ev, now):
        if buttons.kind_of(ev) == buttons.PRESS:
            # The first press loads the menu and the game (app.App.main_menu); its click
            # sounds after that, so the load never lengthens the note.
            menu = self.app.main_menu()
            self.app.sound("MOVE", now)
            self.app.go(menu, now)  # at once; the rest of this hold does nothing
        return True

    def tick(self, now):
        if self.app.demo_due(now):
            self.app.start_demo(now)
            return False
        k = time.ticks_diff(now, self.since) // _BLINK_MS
        if (k & 1) != self.phase:
            self.phase = k & 1
            self.app.redraw()
        return False

    def due(self, now):
        blink = _BLINK_MS - time.ticks_diff(now, self.since) % _BLINK_MS
        idle = self.app.idle_ms(now)
        return blink if idle < 0 else min(blink, max(0, self.app.demo_after_ms - idle))

    def draw(self, fb):
        # Drawn here rather than in screens.py: the title is the first frame after power-on,
        # and screens.py's game drawing (with game.py and the engine) is loaded only later.
        fb.fill(0)
        x = 15
        for p in (2, 1, 2):
            fb.rect(x, 1, 15, 15, 1)
            self.glyphs.draw(fb, p, x + 2, 3)
            x += 19
        fb.text("OXO 5110", 10, 21, 1)
        fb.hline(10, 30, 64, 1)
        if not self.phase:
            fb.text("press key", 6, 37, 1)
