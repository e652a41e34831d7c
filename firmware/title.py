# The title screen, and the CPU-against-CPU demo it starts when nobody plays.
# SPDX-License-Identifier: MIT
import buttons
from screen import BLINK_MS, DEMO, MENU, Screen


class Title(Screen):
    """The first screen: any press opens the main menu; after app.App.demo_after_ms without
    one, the demo starts."""

    def __init__(self, app):
        super().__init__(app)
        self.glyphs = app.glyphs
        self.since = 0  # "press key" blinks from here

    def enter(self, now):
        self.since = now
        self.phase = 0

    def event(self, ev, now):
        if buttons.kind_of(ev) == buttons.PRESS:
            # The first press loads the menu and the game (app.App._SCREENS); its click starts
            # once that is done (app.App.sound), so the load never cuts the note.
            self.app.show(MENU, now)  # at once; the rest of this hold does nothing
            self.app.sound("MOVE")
        return True

    def tick(self, now):
        if self.app.demo_due(now):
            self.app.show(DEMO, now)
        else:
            self.blink(now, self.since, BLINK_MS)
        return False

    def due(self, now):
        blink = self.blink_due(now, self.since, BLINK_MS)
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
