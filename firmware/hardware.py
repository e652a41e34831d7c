# What a board provides to the game: display, buttons, light sleep, buzzer, watchdog, a name.
# SPDX-License-Identifier: MIT


class Hardware:
    """Built by a board file's build(); main.py and the app use only this.

    `lcd` is a pcd8544.PCD8544 (a framebuf.FrameBuffer with show/contrast/backlight/power_off/
    power_on), `pad` a buttons.Pad, `doze(ms)` sleeps lightly for at most ms, returning early
    only where a button can wake the board (machine.lightsleep; None where the port cannot,
    then the app just sleeps; the app reads the buttons after each doze either way), `name`
    the board's name for messages, `buzzer` a sound.Sound on the board's piezo (None where
    there is none: then the game is silent and sound.py is never loaded).

    The hardware watchdog: `wdt(timeout=ms)` starts it and returns an object whose feed()
    must then come within ms (machine.WDT; None: the board runs without one), `wdt_off()`
    stops it again so the REPL is not reset (None: it cannot be stopped), `wdt_reset` is True
    when this boot follows a reset by the watchdog (not one by machine.reset()).
    """

    def __init__(
        self, lcd, pad, doze=None, name="", buzzer=None, wdt=None, wdt_off=None, wdt_reset=False
    ):
        self.lcd = lcd
        self.pad = pad
        self.doze = doze
        self.name = name
        self.buzzer = buzzer
        self.wdt = wdt
        self.wdt_off = wdt_off
        self.wdt_reset = wdt_reset
