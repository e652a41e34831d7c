# What a board provides to the game: the display, the buttons, a light sleep, a buzzer, a name.
# SPDX-License-Identifier: MIT


class Hardware:
    """Built by a board file's build(); main.py and the app use only this.

    `lcd` is a pcd8544.PCD8544 (a framebuf.FrameBuffer with show/contrast/backlight/power_off/
    power_on), `pad` a buttons.Pad, `doze(ms)` sleeps lightly for at most ms, returning early
    only where a button can wake the board (machine.lightsleep; None where the port cannot,
    then the app just sleeps; the app reads the buttons after each doze either way), `name`
    the board's name for messages, `buzzer` a sound.Sound on the board's piezo (None where
    there is none: then the game is silent and sound.py is never loaded).
    """

    def __init__(self, lcd, pad, doze=None, name="", buzzer=None):
        self.lcd = lcd
        self.pad = pad
        self.doze = doze
        self.name = name
        self.buzzer = buzzer
