# The title screen, and the CPU-against-CPU demo it starts when nobody plays.
# SPDX-License-Identifier: MIT
import buttons
import glyphs
from screen import BLINK_MS, DEMO, MENU, Screen


class Title(Screen):
    """The first screen: any press opens the main menu; after app.App.demo_after_ms without
    one, the demo starts."""

    idle_to = DEMO

    def __init__(self, shared):
        super().__init__(shared)
        self.since = 0  # "press key" blinks from here

    def enter(self, now, came_from):
        self.since = now
        self.phase = 0

    def event(self, ev, now):
        if buttons.kind_of(ev) == buttons.PRESS:
            self.shared.sound("MOVE")
            return MENU  # the rest of this hold does nothing there
        return None

    def tick(self, now):
        return self.blink(now, self.since, BLINK_MS)

    def due(self, now):
        return self.blink_due(now, self.since, BLINK_MS)

    def draw(self, fb):
        # Drawn here rather than in widgets.py: the title is the first frame after power-on,
        # and widgets.py's game drawing (with game.py and the engine) is loaded only later.
        fb.fill(0)
        x = 15
        for p in (2, 1, 2):
            fb.rect(x, 1, 15, 15, 1)
            glyphs.draw(fb, p, x + 2, 3)
            x += 19
        fb.text("OXO 5110", 10, 21, 1)
        fb.hline(10, 30, 64, 1)
        if not self.phase:
            fb.text("press key", 6, 37, 1)
