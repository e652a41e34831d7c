# Idle timers: backlight off after dim_s, display power-down and light sleep after sleep_s.
# SPDX-License-Identifier: MIT
import time

from micropython import const

AWAKE = const(0)
DIM = const(1)  # backlight off (if it was on), display still showing
ASLEEP = const(2)  # display powered down (PD bit), the board dozes between pad checks


class Power:
    """Tracks the time of the last button activity and switches the LCD accordingly."""

    def __init__(self, lcd, now_ms):
        self._lcd = lcd
        self.state = AWAKE
        self.last = now_ms

    def activity(self, now_ms, backlight):
        """A button did something. Returns True if the press only woke the device up.

        A press is swallowed when the display was asleep, and when the backlight had been dimmed
        (so a player in the dark never makes a move they could not see); with the backlight
        setting off, dimming changes nothing visible and nothing is swallowed.
        """
        self.last = now_ms
        state = self.state
        if state == AWAKE:
            return False
        self.state = AWAKE
        if state == ASLEEP:
            self._lcd.power_on()
        if backlight:
            self._lcd.backlight(True)
        return state == ASLEEP or backlight

    def update(self, now_ms, dim_s, sleep_s, backlight):
        """Apply the idle timers (0 = never); return True when the display went to sleep."""
        if self.state == ASLEEP:
            return False
        idle = time.ticks_diff(now_ms, self.last)
        if sleep_s and idle >= sleep_s * 1000:
            self.state = ASLEEP
            self._lcd.backlight(False)
            self._lcd.power_off()
            return True
        if self.state == AWAKE and dim_s and idle >= dim_s * 1000:
            self.state = DIM
            if backlight:
                self._lcd.backlight(False)
        return False
