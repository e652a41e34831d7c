# Test scaffolding only: a tiny app.App for testing main.py without the real game.
# SPDX-License-Identifier: MIT
# On MICROPYPATH ahead of the firmware it replaces firmware/app.py in the main.py tests. It
# shows "APP <n>" (n = how many times it was started) and, on a click of:
#   SELECT raises ValueError("boom on request"), NEXT raises MemoryError,
#   PREV sets contrast 50 and backlight off and saves; a long SELECT raises KeyboardInterrupt;
#   the PREV+NEXT chord raises an exception that fails again (MemoryError) when printed;
#   holding NEXT (its first REPEAT) sets contrast 44 without saving, powers the display down
#   and raises ValueError("while asleep").
import time

import buttons

starts = [0]


class Unprintable(Exception):
    def __str__(self):
        raise MemoryError("while printing the error")


class App:
    def __init__(self, hw, settings):
        self.hw = hw
        self.settings = settings

    def run(self):
        starts[0] += 1
        lcd = self.hw.lcd
        lcd.fill(0)
        lcd.text("APP %d" % starts[0], 0, 20, 1)
        lcd.show()
        pad = self.hw.pad
        while True:
            ev = pad.poll(time.ticks_ms())
            if ev is not None:
                b, kind = buttons.button_of(ev), buttons.kind_of(ev)
                if kind == buttons.CHORD:
                    raise Unprintable()
                if kind == buttons.LONG and b == buttons.SELECT:
                    raise KeyboardInterrupt
                if kind == buttons.CLICK and b == buttons.SELECT:
                    raise ValueError("boom on request")
                if kind == buttons.REPEAT and b == buttons.NEXT:
                    self.settings.set("contrast", 44)
                    self.hw.lcd.power_off()
                    raise ValueError("while asleep")
                if kind == buttons.CLICK and b == buttons.NEXT:
                    raise MemoryError
                if kind == buttons.CLICK and b == buttons.PREV:
                    self.settings.set("contrast", 50)
                    self.settings.set("backlight", False)
                    self.hw.lcd.contrast(50)
                    self.hw.lcd.backlight(False)
                    self.settings.save()
            time.sleep_ms(10)
