# Start-up: build the board, offer safe mode, then run the game (runner.Runner) forever.
# SPDX-License-Identifier: MIT
# main.py, which the board compiles from source at every boot, only calls main() here: this
# module is deployed compiled (startup.mpy), so nothing large is compiled on the device.
import sys
import time


def main(later=None):
    """Run the game forever; return only in safe mode or when the board cannot be built.
    later: called once, as soon as the game's first frame is on the glass, or before anything
    is written to the flash if that comes first (runner.Runner)."""
    hw = boot(later)
    # The board file's code is needed no more: what it built holds none of it (see
    # hardware.Hardware), so it leaves RAM with its module, and with it the pads' making
    # (pads.py: the Pad it made is buttons.py's).
    sys.modules.pop("board", None)
    sys.modules.pop("pads", None)
    if hw is None:
        return  # safe mode or no board: the watchdog was never started
    # Everything from the settings on is loaded by the runner's steps, not here: safe mode
    # needs only the board, and a broken game module (settings and engine included) ends on
    # the error screen rather than in a traceback nobody sees.
    from runner import Runner

    runner = Runner(hw, later)  # starts the watchdog
    doze = hw.doze
    try:
        while True:
            wait = runner.step(time.ticks_ms())
            if wait:
                app = runner.app
                if doze is not None and app is not None:
                    # Imported here: a broken game module must reach the error screen.
                    from power import ASLEEP

                    if app.power.state == ASLEEP:  # the display sleeps: a light sleep
                        doze(wait)
                        continue
                time.sleep_ms(wait)
    finally:
        runner.stop()  # Ctrl-C to the REPL: no tone left sounding, no watchdog to reset it


def boot(later=None):
    """The board's hardware.Hardware, or None: it could not be built (said and logged), or a
    button held at power-on asked for safe mode."""
    try:
        import board  # the board file (boards/<name>.py), deployed as board.py

        hw = board.build()
    except Exception as exc:
        print("oxo5110: the board could not be built:")
        sys.print_exception(exc)
        if later is not None:
            later()  # before error.log is written
        import errorlog  # only when something is logged: a game never holds it in RAM

        errorlog.log(exc)
        return None
    if hw.pad.any_pressed() and hw.recheck is not None:
        hw.recheck()  # a pin whose setup was undone reads pressed: set up anew, read again
        time.sleep_ms(5)
    if hw.pad.any_pressed():
        import rescue  # only when needed: a game never holds it in RAM

        if rescue.safe_mode(hw):
            return None
    return hw
