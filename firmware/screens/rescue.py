# What shows when the game cannot run: safe mode, and the error screen that waits for a press.
# SPDX-License-Identifier: MIT
# Imported by startup.py only when needed, so a game never holds it in RAM.
import gc
import sys
import time

import buttons
import errorlog
from micropython import const

_SAFE_CHECK_MS = const(50)  # a button must still be held this much later: not a glitch
_POLL_MS = const(20)
_DIM_MS = const(30000)  # the error screen's backlight goes off after this long
# Text screens: a title bar (a line of the 8x8 font with a row above and below), then lines
# of the small font (smallfont.py) 7 pixels apart from _TOP, the last one kept for the foot.
_CHAR = const(8)  # the 8x8 font's characters
_BAR = const(10)  # the title bar's height
_TOP = const(12)
_FOOT = const(41)
# If the small font cannot be loaded: lines of the 8x8 font, 9 pixels apart from _PLAIN_TOP.
_PLAIN_TOP = const(13)
_PLAIN_LINE = const(9)


def safe_mode(hw):
    """A button held at power-on (and still 50 ms later): skip the game, say so on the glass
    and the REPL, and return True; False for a glitch."""
    time.sleep_ms(_SAFE_CHECK_MS)
    if not hw.pad.any_pressed():
        return False
    try:
        if hw.buzzer is not None:
            hw.buzzer.stop()  # the PWM released: silent, and free for whoever uses the REPL
    except Exception as err:  # safe mode must show whatever else is broken
        sys.print_exception(err)
    print("oxo5110: safe mode - a button was held at power-on. Game skipped; the REPL is yours.")
    print("Press reset (with no button held) to play.")
    lcd = hw.lcd
    try:
        from settings import Settings

        lcd.contrast(Settings.load().get("contrast"))
    except Exception:  # safe mode must show even if the settings code is broken
        pass
    text = "A button was held at power-on. No game: the REPL is free."
    screen(lcd, "SAFE MODE", (text,), "press reset to play")
    lcd.backlight(True)
    return True


def screen(lcd, title, paragraphs, foot):
    """Clear the glass; draw title in an inverted bar, then each paragraph word-wrapped and
    centred in the small font (as many lines as fit), and foot on the bottom line."""
    lcd.fill(0)
    lcd.fill_rect(0, 0, lcd.width, _BAR, 1)
    lcd.text(title, (lcd.width - _CHAR * len(title)) // 2, (_BAR - _CHAR) // 2, 0)
    try:
        import smallfont
    except Exception:  # a broken font module must not hide the error it may have caused
        y = _PLAIN_TOP
        for line in paragraphs + (foot,):
            line = line[: lcd.width // _CHAR]  # what fits on a line
            lcd.text(line, (lcd.width - _CHAR * len(line)) // 2, y, 1)
            y += _PLAIN_LINE
        lcd.show()
        return
    y = _TOP
    for text in paragraphs:
        data = text.encode()
        k = smallfont.skip(data, 0)
        while k < len(data) and y < _FOOT:
            end = smallfont.line(data, k, lcd.width)
            x = (lcd.width - smallfont.width(data, k, end)) // 2
            smallfont.text(lcd, data, x, y, 1, k, end)
            y += smallfont.LINE
            k = smallfont.skip(data, end)
    data = foot.encode()
    smallfont.text(lcd, data, (lcd.width - smallfont.width(data)) // 2, _FOOT)
    lcd.show()


def show_error(hw, settings, exc, halted=False):
    """The error screen for exc: silence, the message on the glass and the console, a line in
    error.log, the settings saved. Returns at once (see Waiting for the wait after it).
    halted: the game will not be restarted (runner.Runner's crash limit): the screen asks
    for a reset instead of a press.

    Each step is guarded on its own: a failing display, a full flash or a second MemoryError
    must not stop the others, and never the wait (the loop would spin through restarts)."""
    gc.collect()  # a MemoryError leaves the app's garbage behind
    try:
        if hw.buzzer is not None:
            hw.buzzer.stop()  # no tone goes on sounding over the error screen
    except Exception as err:
        sys.print_exception(err)
    if halted:
        print("oxo5110: the game failed again and again; it stays stopped until a reset.")
    else:
        print("oxo5110: the game stopped with an error; press a button to restart it.")
    message = errorlog.message(exc)
    try:
        sys.print_exception(exc)
    except Exception:
        pass
    try:
        lcd = hw.lcd
        lcd.power_on()
        lcd.invert(False)
        lcd.backlight(True)
        foot = "press reset to retry" if halted else "press a key to restart"
        screen(lcd, "ERROR", (type(exc).__name__, message), foot)
    except Exception as err:  # the display itself may be what failed
        sys.print_exception(err)
    try:
        errorlog.log(exc, None if settings is None else settings.get("boots"))
    except Exception as err:
        sys.print_exception(err)
    try:
        if settings is not None:
            settings.save()
    except Exception as err:
        sys.print_exception(err)


class Waiting:
    """The wait on the error screen, one step at a time: done(now) is True once a button was
    pressed and released (one held at the start does not count). The backlight goes off after
    _DIM_MS without a press, as in the game."""

    poll_ms = _POLL_MS

    def __init__(self, hw, now):
        self.hw = hw
        self.start = now
        self.lit = True
        hw.pad.reset(now)

    def done(self, now):
        pad = self.hw.pad
        ev = pad.poll(now)
        if ev is not None and buttons.kind_of(ev) == buttons.RELEASE:
            pad.reset(time.ticks_ms())
            return True
        if self.lit and time.ticks_diff(now, self.start) >= _DIM_MS:
            self.lit = False
            self.hw.lcd.backlight(False)
        return False
