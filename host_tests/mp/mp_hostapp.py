# The HostApp itself: its fake time, its actions, its reads of the glass, its errors. The real
# firmware powered on by it: mp_app_main.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import sys
import time

import hostapp
import mptest
from buttons import SELECT
from hostapp import read
from mptest import check


def idle_boot():
    sys.modules["board"].build()
    while True:
        time.sleep_ms(10)


def test_time_moves_only_in_sleeps_and_steps_land_exactly():
    seen = []

    def script(h):
        seen.append(h.now)
        yield h.wait(25)
        seen.append(h.now)
        yield 7
        seen.append(h.now)
        yield h.press(SELECT, 100, 50)
        seen.append(h.now)

    h = hostapp.HostApp("pico", flash=None)
    h.play(script, boot=idle_boot)
    check(seen == [0, 25, 32, 182], repr(seen))


def test_script_errors_are_not_swallowed_by_main():
    def script(h):
        yield h.wait(500)
        raise KeyError("from the script")

    try:
        hostapp.HostApp("pico").play(script)
        check(False, "the script's exception was lost")
    except KeyError as exc:
        check(exc.args[0] == "from the script")
    check(read("error.log") == "", "main logged the script's exception as a game error")


def test_the_app_alone_does_the_same_actions_on_the_callers_clock():
    r = hostapp.HostApp(flash=None, alone=True)
    start = r.now
    r.run(r.press(SELECT, 100, 50))  # the title: SELECT opens the menu
    check(150 <= r.now - start < 160 and r.menu_row(0), "%d ms\n%s" % (r.now - start, r.show()))
    r.run(r.until(lambda: r.shows("1P vs CPU"), 300))
    try:
        r.run(r.until(lambda: False, 300))
        check(False, "until() never gave up")
    except AssertionError as exc:
        check("still false after 300 ms" in str(exc), str(exc))


def test_busy_wait_is_reported():
    def spin():
        while True:
            time.ticks_ms()

    def script(h):
        yield h.wait(100)

    try:
        hostapp.HostApp("pico", flash=None).play(script, boot=spin)
        check(False, "spinning firmware was not caught")
    except time.Spinning:
        pass


def test_ticks_wrap_like_the_boards():
    h = hostapp.HostApp("pico", flash=None, start_ms=(1 << 30) - 5)
    check(time.ticks_ms() == (1 << 30) - 5)
    h.clock.sleep_ms(10)
    check(time.ticks_ms() == 5 and time.ticks_diff(time.ticks_ms(), (1 << 30) - 5) == 10)
    check(time.ticks_add((1 << 30) - 1, 2) == 1 and time.ticks_diff(1, (1 << 30) - 1) == 2)


def test_shows_finds_text_anywhere_and_only_there():
    def script(h):
        yield h.wait(5)  # the first step runs at power-on, before the board is built
        lcd = h.hw.lcd
        lcd.fill(0)
        lcd.text("Hi 42", 13, 29, 1)
        lcd.fill_rect(0, 0, 84, 10, 1)
        lcd.text("BAR", 3, 1, 0)
        lcd.show()
        yield h.wait(1)
        check(h.shows("Hi 42") and h.shows("BAR", inverted=True) and h.shows("42"), "not found")
        check(not h.shows("Hi 43") and not h.shows("BAR", inverted=False), "found wrongly")
        check(not h.shows("Hi 42", True), "found in the wrong colours")

    hostapp.HostApp("pico", flash=None).play(script, boot=idle_boot)


mptest.run(globals())
