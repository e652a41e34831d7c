# power.py through the app: dimming, sleep and the press that only wakes, on the glass.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import mptest
import power
from appplay import LEVELS, marks, menu_to, new_1p, play_cell, rig_with, to_menu
from buttons import NEXT, SELECT
from mptest import check


def test_power_saving_and_wake():
    r = new_1p(LEVELS - 1, "YOU", seed=12)
    play_cell(r, 4)
    picture = r.model.glass()
    cursor = r.cursor()
    dim = r.settings.get("dim_s") * 1000
    r.run(dim - 100)
    check(r.model.backlight is True)
    r.run(200)
    check(r.model.backlight is False, "backlight off after dim_s")
    r.click(NEXT)
    check(r.model.backlight is True and r.cursor() == cursor, "the press only lit it")
    r.run(r.settings.get("sleep_s") * 1000)
    check(r.model.powered_down and r.blank(), "display powered down")
    dozed = r.clock.dozed_ms
    r.run(5000)
    check(r.clock.dozed_ms - dozed >= 4000, "the board dozes")
    r.down(SELECT)
    r.run(60)
    check(not r.model.powered_down and r.model.backlight is True, "awake")
    r.run(700)  # held long enough to be a hint, were it not the waking press
    r.up(SELECT)
    r.run(100)
    check(r.model.glass() == picture, "the same screen, nothing acted:\n" + r.show())
    r.click(SELECT)
    check(marks(r) == 4, "and the game goes on")


def test_sleep_turns_the_backlight_off_even_without_dimming():
    r = rig_with(dim_s=0, sleep_s=20)
    to_menu(r)
    menu_to(r, 1)
    r.click(SELECT)  # a two-player game: nothing moves by itself
    r.run(20000 - 500)
    check(r.model.backlight is True and not r.model.powered_down, "dim_s = 0: never dimmed")
    r.run(1000)
    check(r.model.powered_down and r.blank(), "asleep after sleep_s")
    check(r.model.backlight is False, "asleep, the backlight is off too")
    r.down(SELECT)
    r.run(60)
    check(not r.model.powered_down and r.model.backlight is True, "awake and lit")
    r.up(SELECT)
    r.run(100)
    check(r.cursor() == 4 and marks(r) == 0, "the waking press placed nothing")


class Lcd:
    """What Power does to the display, in order."""

    def __init__(self):
        self.calls = []

    def backlight(self, on):
        self.calls.append("light on" if on else "light off")

    def power_off(self):
        self.calls.append("off")

    def power_on(self):
        self.calls.append("on")


def test_dim_then_sleep_then_a_press_wakes():
    lcd = Lcd()
    p = power.Power(lcd, 1000)
    check(not p.update(30999, 30, 120, True) and p.state == power.AWAKE and lcd.calls == [])
    check(not p.update(31000, 30, 120, True) and p.state == power.DIM)
    check(lcd.calls == ["light off"], repr(lcd.calls))
    check(p.update(121000, 30, 120, True) and p.state == power.ASLEEP)
    check(lcd.calls == ["light off", "light off", "off"], repr(lcd.calls))
    check(not p.update(500000, 30, 120, True), "asleep: nothing more to do")
    check(p.activity(500000, True) and p.state == power.AWAKE, "the press only woke it")
    check(lcd.calls[-2:] == ["on", "light on"], repr(lcd.calls))
    check(not p.activity(500100, True), "the next press acts")


def test_after_dimming_the_first_press_only_lights_the_backlight():
    for backlight in (True, False):
        lcd = Lcd()
        p = power.Power(lcd, 0)
        p.update(30000, 30, 120, backlight)
        check(p.state == power.DIM)
        # With the backlight setting off, dimming changed nothing visible: the press acts.
        check(p.activity(30500, backlight) == backlight, repr(backlight))
        check(lcd.calls == (["light off", "light on"] if backlight else []), repr(lcd.calls))


def test_a_timer_of_0_never_fires():
    lcd = Lcd()
    p = power.Power(lcd, 0)
    check(not p.update(10**7, 0, 0, True) and p.state == power.AWAKE and lcd.calls == [])
    check(p.update(120000, 0, 120, True) and lcd.calls == ["light off", "off"], repr(lcd.calls))


def test_the_timers_span_the_tick_wrap():
    # 1 s before ticks_ms() wraps (at the port's period: 2**30 on the boards), so the 30 s of
    # idle time span the wrap.
    import time

    start = time.ticks_add(0, -1000)
    p = power.Power(Lcd(), start)
    check(not p.update(time.ticks_add(start, 29999), 30, 120, True), "not yet")
    check(p.state == power.AWAKE)
    p.update(time.ticks_add(start, 30000), 30, 120, True)
    check(p.state == power.DIM, "dimmed 30 s after, across the wrap")


mptest.run(globals())
