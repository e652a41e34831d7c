# Light sleep and waking through the real firmware: main.py, a board file and the app under the
# harness, the fake machine modelling the board's port (its clocks after a light sleep, the
# pins that can end one), the controller model as the glass and the judge of the SPI clock.
# SPDX-License-Identifier: MIT
import harness
import mptest
from buttons import NEXT, SELECT
from mptest import check

RATED_HZ = 4000000  # PCD8544: at most 4.0 Mbit/s
SLICE_MS = 50  # app.App.doze_ms: the board dozes in slices this long while asleep
# Asleep after 1 s idle (the backlight is not dimmed first): many sleeps in little fake time.
SETTINGS = '{"dim_s": 0, "sleep_s": 1}'


def into_a_game(h):
    """Two players, X in the centre: PREV/NEXT would now move the cursor, SELECT place an O."""
    yield h.wait(300)
    yield h.press(SELECT)  # title -> menu
    yield h.press(NEXT)  # 2 Players
    yield h.press(SELECT)
    yield h.press(SELECT)  # X in the centre


def spent(model, since):
    """{Hz: bytes the controller took at that SCK rate since the `since` snapshot}."""
    out = {}
    for hz in model.clocked:
        n = model.clocked[hz] - since.get(hz, 0)
        if n:
            out[hz] = n
    return out


def test_pico_lcd_clock_is_4_mhz_after_every_wake():
    out = {}

    def script(h):
        yield h.wait(300)
        out["boot"] = dict(h.model.clocked)  # the first frames, before any sleep
        yield from into_a_game(h)
        for n in range(2):
            yield h.wait(1500)  # past sleep_s: the display is off, the board dozes
            out["asleep%d" % n] = not h.showing()
            before = dict(h.model.clocked)
            yield h.press(NEXT)  # wakes the board (and only that)
            yield h.press(NEXT)  # the cursor moves: frames drawn after the wake
            yield h.press(SELECT)  # an O: more frames
            out["wake%d" % n] = spent(h.model, before)
        out["anomalies"] = list(h.model.anomalies)

    harness.Harness("pico", files={"settings.json": SETTINGS}).run(script)
    boot = out["boot"]
    check(list(boot) == [RATED_HZ] and boot[RATED_HZ] >= 504, "boot clock: %r" % boot)
    for n in range(2):
        wake = out["wake%d" % n]
        check(out["asleep%d" % n], "the board did not go to sleep")
        check(list(wake) == [RATED_HZ] and wake[RATED_HZ] >= 3 * 504, "wake %d: %r" % (n, wake))
    check(out["anomalies"] == [], repr(out["anomalies"]))


mptest.run(globals())
