# Boot: build the board, offer safe mode, load the settings and run the game, surviving errors.
# SPDX-License-Identifier: MIT
import gc
import os
import sys
import time

import board  # the board file (boards/<name>.py), deployed as board.py
import buttons
from micropython import const

LOG = "error.log"
LOG_MAX = const(2048)  # bytes; when full, the oldest half of the lines goes
_LINE_MAX = const(120)
_SAFE_CHECK_MS = const(50)  # a button must still be held this much later: not a glitch
_POLL_MS = const(20)
_DIM_MS = const(30000)  # the error screen's backlight goes off after this long
# Text screens: a title bar in the 8x8 font (10 rows), then lines of the small font (glyphs.py)
# 7 pixels apart from _TOP, the last one kept for the foot.
_TOP = const(12)
_FOOT = const(41)
_COLS = const(10)  # the 8x8 font on 84 pixels, if the small font cannot be loaded


def main():
    """Run the game forever; return only in safe mode or when the board cannot be built."""
    try:
        hw = board.build()
    except Exception as exc:
        print("oxo5110: the board could not be built:")
        sys.print_exception(exc)
        log(exc)
        return
    if safe_mode(hw):
        return
    # Imported here, inside the loop's try, not at the top: safe mode needs only the board, and
    # a broken game module (settings and engine included) ends on the error screen rather than
    # in a traceback nobody sees.
    settings = None
    while True:
        try:
            if settings is None:
                from settings import Settings

                settings = Settings.load(report=note)
            import app

            apply(hw, settings)
            app.App(hw, settings).run()
        except Exception as exc:  # KeyboardInterrupt and SystemExit reach the REPL
            recover(hw, settings, exc)


def apply(hw, settings):
    """Put the stored contrast and backlight on the display."""
    hw.lcd.power_on()
    hw.lcd.invert(False)
    hw.lcd.contrast(settings.get("contrast"))
    hw.lcd.backlight(settings.get("backlight"))


def safe_mode(hw):
    """A button held at power-on: skip the game, say so on the glass and the REPL."""
    if not hw.pad.any_pressed():
        return False
    time.sleep_ms(_SAFE_CHECK_MS)
    if not hw.pad.any_pressed():
        return False
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
    lcd.fill_rect(0, 0, lcd.width, 10, 1)
    lcd.text(title, (lcd.width - 8 * len(title)) // 2, 1, 0)
    try:
        import smallfont
    except Exception:  # a broken font module must not hide the error it may have caused
        y = 13
        for line in paragraphs + (foot,):
            line = line[:_COLS]
            lcd.text(line, (lcd.width - 8 * len(line)) // 2, y, 1)
            y += 9
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


def recover(hw, settings, exc):
    """Show the error, log it, keep the settings, wait for a press; the caller restarts.

    Each step is guarded on its own: a failing display, a full flash or a second MemoryError
    must not stop the others, and never the wait (the loop would spin through restarts)."""
    gc.collect()  # a MemoryError leaves the app's garbage behind
    print("oxo5110: the game stopped with an error; press a button to restart it.")
    message = _text(exc)
    try:
        sys.print_exception(exc)
    except Exception:
        pass
    try:
        lcd = hw.lcd
        lcd.power_on()
        lcd.invert(False)
        lcd.backlight(True)
        screen(lcd, "ERROR", (type(exc).__name__, message), "press a key to restart")
    except Exception as err:  # the display itself may be what failed
        sys.print_exception(err)
    try:
        log(exc)
    except Exception as err:
        sys.print_exception(err)
    try:
        if settings is not None:
            settings.save()
    except Exception as err:
        sys.print_exception(err)
    wait_press(hw)


def wait_press(hw):
    """Block until a button is pressed and released (one held now does not count). The
    backlight goes off after _DIM_MS without a press, as in the game."""
    pad = hw.pad
    start = time.ticks_ms()
    pad.reset(start)
    dim = True
    while True:
        now = time.ticks_ms()
        ev = pad.poll(now)
        if ev is not None and buttons.kind_of(ev) == buttons.RELEASE:
            pad.reset(time.ticks_ms())
            return
        if dim and time.ticks_diff(now, start) >= _DIM_MS:
            dim = False
            hw.lcd.backlight(False)
        time.sleep_ms(_POLL_MS)


def _text(exc):
    # The exception's message; "?" when even that fails (out of memory, a broken __str__).
    try:
        return str(exc)
    except Exception:
        return "?"


def where(exc):
    """'file:line' of the innermost frame of exc's traceback, or '?'."""
    try:
        import io

        out = io.StringIO()
        sys.print_exception(exc, out)
        found = "?"
        for line in out.getvalue().split("\n"):
            line = line.strip()
            if line.startswith('File "'):
                parts = line.split('"')
                found = "%s:%s" % (parts[1].split("/")[-1], parts[2].split(",")[1].split()[-1])
        return found
    except Exception:
        return "?"


def log(exc, path=LOG):
    """Append one line about exc to the log (see note): "<type>: <message> @<file>:<line>"."""
    note("%s: %s @%s" % (type(exc).__name__, _text(exc), where(exc)), path)


def note(text, path=LOG):
    """Append "t=<time.time()> <text>" as one line to the log, keeping the file under LOG_MAX
    bytes (t is the board's clock in seconds: since its fixed start date at power-on unless
    the RTC was set). A log that cannot be written is reported on the REPL only."""
    text = "t=%d %s" % (time.time(), text)
    line = (text.replace("\n", " ")[: _LINE_MAX - 1] + "\n").encode()
    try:
        try:
            size = os.stat(path)[6]
        except OSError:
            size = 0
        if size + len(line) <= LOG_MAX:
            with open(path, "ab") as f:
                f.write(line)
            return
        with open(path, "rb") as f:
            f.seek(max(0, size - LOG_MAX))
            tail = f.read(LOG_MAX)
        # Keep the newest whole lines that fit in half the budget, so trimming is rare; bytes,
        # so a cut through a multi-byte character cannot fail to decode.
        start = tail.find(b"\n", len(tail) - LOG_MAX // 2) + 1
        with open(path + ".tmp", "wb") as f:
            if start > 0:
                f.write(tail[start:])
            f.write(line)
        os.rename(path + ".tmp", path)
    except OSError as err:  # a full or read-only flash must not stop the game
        print("oxo5110: cannot write", path, err)


if __name__ == "__main__":
    main()
