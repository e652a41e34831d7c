# Boot: build the board, offer safe mode, load the settings and run the game, surviving errors.
# SPDX-License-Identifier: MIT
# main.py, which the board compiles from source at every boot, only calls main() here: this
# module is deployed compiled (oxo.mpy), so nothing large is compiled on the device.
import gc
import sys

import board  # the board file (boards/<name>.py), deployed as board.py
import errorlog


def main():
    """Run the game forever; return only in safe mode or when the board cannot be built."""
    try:
        hw = board.build()
    except Exception as exc:
        print("oxo5110: the board could not be built:")
        sys.print_exception(exc)
        errorlog.log(exc)
        return
    if hw.pad.any_pressed():
        import rescue  # here and below only when needed: a game never holds it in RAM

        if rescue.safe_mode(hw):
            return
    # Imported here, inside the loop's try, not at the top: safe mode needs only the board, and
    # a broken game module (settings and engine included) ends on the error screen rather than
    # in a traceback nobody sees.
    settings = None
    try:
        while True:
            try:
                if settings is None:
                    from settings import Settings

                    settings = Settings.load(report=errorlog.note)
                import app

                apply(hw, settings)
                app.App(hw, settings).run()
            except Exception as exc:  # KeyboardInterrupt and SystemExit reach the REPL
                gc.collect()  # the app's objects are garbage now; room for the error screen
                import rescue

                rescue.recover(hw, settings, exc)  # silences the buzzer first
    finally:
        if hw.buzzer is not None:
            hw.buzzer.stop()  # Ctrl-C to the REPL: no tone is left sounding


def apply(hw, settings):
    """Put the stored contrast and backlight on the display (after an error screen too)."""
    hw.lcd.power_on()
    hw.lcd.invert(False)
    hw.lcd.contrast(settings.get("contrast"))
    hw.lcd.backlight(settings.get("backlight"))
