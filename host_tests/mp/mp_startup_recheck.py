# startup.boot's second look at a press at power-on: on the Pico, a NEXT pin whose setup the
# USB enumeration fix undid (RP2040-E5: its pad back to the power-on pull-down, so it reads
# pressed) is set up again before safe mode is believed; a button really held still gives it.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import sys

import buttons
import hostapp
import mptest
import startup
from mptest import check

NEXT_PIN = []  # the NEXT button's pin object, as the last boot's board file made it


def _next_pin(hw):
    for b in hw.pad.buttons:
        if b.name == buttons.NEXT:
            return b.pin
    raise AssertionError("no NEXT button")


def boot(undone, held, recheck=True):
    """startup.boot() on the Pico's board file, NEXT's pin put back to a pull-down after the
    board is built if `undone`, NEXT held if `held`, the board's recheck taken away unless
    `recheck`; True if it booted into the game."""
    h = hostapp.HostApp("pico", flash=None)
    board = h.board()
    build = board.build
    next_pin = board.BTN_NEXT

    machine = sys.modules["machine"]  # the host board's, as the board file imports it

    def built_then_undone():
        hw = build()
        pin = _next_pin(hw)
        NEXT_PIN[:] = [pin]
        if undone:
            pin.init(machine.Pin.IN, machine.Pin.PULL_DOWN)  # what the fix puts back
        if not recheck:
            hw.recheck = None
        return hw

    board.build = built_then_undone
    if held:
        machine.set_level(next_pin, 0)
    try:
        return startup.boot() is not None
    finally:
        board.build = build
        machine.reset_state()


def test_a_pin_whose_setup_was_undone_does_not_give_safe_mode():
    check(boot(undone=True, held=False), "safe mode for a pin that only reads pressed")
    pin = NEXT_PIN[0]
    check(pin.pull() == sys.modules["machine"].Pin.PULL_UP, "NEXT's pull-up not set up again")


def test_a_button_held_at_power_on_still_gives_safe_mode():
    check(not boot(undone=False, held=True), "no safe mode for a held button")
    check(not boot(undone=True, held=True), "no safe mode for a held button, its pin undone")


def test_without_the_second_look_the_undone_pin_gives_safe_mode():
    # What the board file's recheck is for: with none, the undone pin reads as a held NEXT.
    check(not boot(undone=True, held=False, recheck=False), "the undone pin did not read pressed")


mptest.run(globals())
