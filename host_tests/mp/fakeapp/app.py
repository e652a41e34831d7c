# Test scaffolding only: a tiny app.App for testing main.py without the real game.
# SPDX-License-Identifier: MIT
# On MICROPYPATH ahead of the firmware it replaces firmware/app.py in the main.py tests. Its
# first step shows "APP <n>" (n = how many times it was started since power-on); on a click of:
#   SELECT raises ValueError("boom on request"), NEXT raises MemoryError,
#   PREV sets contrast 50 and backlight off and saves; a long SELECT raises KeyboardInterrupt;
#   the PREV+NEXT chord raises an exception that fails again (MemoryError) when printed;
#   holding NEXT (its first REPEAT) sets contrast 44 without saving, powers the display down
#   and raises ValueError("while asleep");
#   holding PREV (its first REPEAT) hangs: the step never returns (a driver waiting for
#   ever), and so does the first step when a file named "hang" is on the flash; a file named
#   "reset" is removed by the first step, which then calls machine.reset() (as mpremote does);
#   a file named "slow" holds a number of ms: a click of SELECT then keeps the step busy that
#   long (on the fake clock, as a long flash write would) before it raises.
import os
import time

import buttons
import machine
from power import Power

starts = [0]


class Unprintable(Exception):
    def __str__(self):
        raise MemoryError("while printing the error")


def hang():
    while True:
        time.sleep_ms(10)


class App:
    def __init__(self, hw, settings):
        self.hw = hw
        self.settings = settings
        self.started = False
        self.power = Power(hw.lcd, time.ticks_ms())  # never sleeps: the runner reads its state
        hw.lcd.contrast(settings.get("contrast"))  # as app.App does: the glass's stored look
        hw.lcd.backlight(settings.get("backlight"))
        self.busy_ms = 0
        if "slow" in os.listdir():
            with open("slow") as f:
                self.busy_ms = int(f.read())

    def step(self, now):
        if not self.started:
            self.started = True
            starts[0] += 1
            lcd = self.hw.lcd
            lcd.fill(0)
            lcd.text("APP %d" % starts[0], 0, 20, 1)
            lcd.show()
            if "hang" in os.listdir():
                hang()
            if "reset" in os.listdir():
                os.remove("reset")
                machine.reset()
        ev = self.hw.pad.poll(now)
        if ev is not None:
            b, kind = buttons.button_of(ev), buttons.kind_of(ev)
            if kind == buttons.CHORD:
                raise Unprintable()
            if kind == buttons.LONG and b == buttons.SELECT:
                raise KeyboardInterrupt
            if kind == buttons.CLICK and b == buttons.SELECT:
                time.clock().spend_us(self.busy_ms * 1000)
                raise ValueError("boom on request")
            if kind == buttons.REPEAT and b == buttons.NEXT:
                self.settings.set("contrast", 44)
                self.hw.lcd.power_off()
                raise ValueError("while asleep")
            if kind == buttons.REPEAT and b == buttons.PREV:
                hang()
            if kind == buttons.CLICK and b == buttons.NEXT:
                raise MemoryError
            if kind == buttons.CLICK and b == buttons.PREV:
                self.settings.set("contrast", 50)
                self.settings.set("backlight", False)
                self.hw.lcd.contrast(50)
                self.hw.lcd.backlight(False)
                self.settings.save()
        return 10
