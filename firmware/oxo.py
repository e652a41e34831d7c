# Boot: build the board, offer safe mode, load the settings and run the game, surviving errors.
# SPDX-License-Identifier: MIT
# main.py, which the board compiles from source at every boot, only calls main() here: this
# module is deployed compiled (oxo.mpy), so nothing large is compiled on the device.
import gc
import sys

import board  # the board file (boards/<name>.py), deployed as board.py


def main():
    """Run the game forever; return only in safe mode or when the board cannot be built."""
    hw = boot()
    if hw is None:
        return
    settings = None
    try:
        while True:
            # Everything from the settings on is loaded inside this try, not at the top: safe
            # mode needs only the board, and a broken game module (settings and engine
            # included) ends on the error screen rather than in a traceback nobody sees.
            try:
                if settings is None:
                    settings = load_settings()
                start(hw, settings).run()
            except Exception as exc:  # KeyboardInterrupt and SystemExit reach the REPL
                gc.collect()  # the app's objects are garbage now; room for the error screen
                import rescue

                rescue.recover(hw, settings, exc)  # silences the buzzer first
    finally:
        if hw.buzzer is not None:
            hw.buzzer.stop()  # Ctrl-C to the REPL: no tone is left sounding


def boot():
    """The board's hardware.Hardware, or None: it could not be built (said and logged), or a
    button held at power-on asked for safe mode."""
    try:
        hw = board.build()
    except Exception as exc:
        print("oxo5110: the board could not be built:")
        sys.print_exception(exc)
        import errorlog  # only when something is logged: a game never holds it in RAM

        errorlog.log(exc)
        return None
    if hw.pad.any_pressed():
        import rescue  # only when needed: a game never holds it in RAM

        if rescue.safe_mode(hw):
            return None
    return hw


def load_settings():
    """The stored settings (defaults where the file is missing or bad; a failed write is
    noted in error.log)."""
    from settings import Settings

    return Settings.load(report=note)


def note(text):
    """Append a line to error.log (errorlog.note), loading that module only now: a session
    that logs nothing never holds its code in RAM."""
    import errorlog

    errorlog.note(text)


def start(hw, settings):
    """A new app.App on hw, the stored contrast and backlight on the display: ready to run()
    (or to be stepped, as the web page does)."""
    import app

    apply(hw, settings)
    return app.App(hw, settings)


def apply(hw, settings):
    """Put the stored contrast and backlight on the display (after an error screen too)."""
    hw.lcd.power_on()
    hw.lcd.invert(False)
    hw.lcd.contrast(settings.get("contrast"))
    hw.lcd.backlight(settings.get("backlight"))
