# The real firmware (main.py, both board files, the app) powered on by a HostApp: it boots, plays,
# sleeps and wakes, plays on when its settings cannot be saved. main.py's error path and settings
# over a power cycle: mp_main.py; the HostApp itself: mp_hostapp.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import json
import os
import sys
import time

import engine
import gameboard
import hostapp
import mptest
from buttons import NEXT, PREV, SELECT
from mptest import check


def test_real_app_boots_on_each_board():
    glasses = {}
    for board in ("pico", "esp32"):
        out = {}

        def script(h, out=out):
            yield h.wait(1000)
            out["glass"] = h.glass()
            out["lit"], out["vop"] = h.lit(), h.model.vop
            out["anomalies"] = list(h.model.anomalies)
            out["error"] = h.shows("ERROR", inverted=True)

        h = hostapp.HostApp(board)
        h.play(script)
        check(any(out["glass"]) and not out["error"], board + ": no first screen")
        check(out["lit"] is True and out["vop"] == 60 and out["anomalies"] == [], repr(out))
        check("app" in sys.modules and not h.returned and h.boots == 1)
        # A first boot writes nothing: no log, and no settings.json until something changes.
        check(hostapp.read("error.log") == "" and hostapp.read("settings.json") == "", board)
        glasses[board] = out["glass"]
    # The board file changes only the wiring (lit and Vop are checked on each above).
    check(glasses["pico"] == glasses["esp32"], "the boards boot to different screens")


def test_boot_and_a_drawn_game_against_perfect():
    out = {}

    def script(h):
        yield h.wait(300)
        out["title"] = h.shows("OXO 5110")
        yield h.press(SELECT)
        out["menu"] = h.shows("1P vs CPU", inverted=True)
        yield h.press(NEXT)
        yield h.press(NEXT)
        yield h.press(SELECT)  # level: hard (the default) -> perfect
        out["perfect"] = h.shows("PERF", inverted=True)
        yield h.press(PREV)
        yield h.press(PREV)
        yield h.press(SELECT)  # 1P vs CPU; "alternate": the player starts the first game
        yield h.wait(100)
        moves = 0
        while True:
            board, cursor = h.board_and_cursor()
            if cursor < 0:
                break
            best = engine.best_move(board, gameboard.to_move(board))
            for _ in range(9):
                if h.board_and_cursor()[1] == best:
                    break
                yield h.press(NEXT)
            yield h.press(SELECT)
            yield h.wait(50)
            moves += 1
        out["moves"] = moves
        yield h.until(lambda: h.shows("DRAW"), 2000)
        out["drawn"] = h.shows("PERF")
        # The result blinks, so its save waits for a gap, at most save_wait_ms, then takes
        # the frame of a blink.
        yield h.wait(sys.modules["app"].App.save_wait_ms + 500)
        with open("settings.json") as f:
            out["saved"] = json.loads(f.read())

    hostapp.HostApp("pico").play(script)
    check(out["title"] and out["menu"] and out["perfect"], repr(out))
    check(out["moves"] == 5 and out["drawn"], repr(out))
    check(out["saved"]["tally1"] == [0, 1, 0] and out["saved"]["level"] == 3, repr(out))


def test_dim_sleep_lightsleep_and_wake_to_the_same_screen():
    dim_sleep_wake(0)


def test_dim_sleep_and_wake_across_the_tick_wrap():
    # The boards' ticks_ms() wraps at 2**30: here it wraps 20 s into the idle time, between the
    # move and the dimming, so every idle timer spans the wrap.
    dim_sleep_wake((1 << 30) - 20000)


def dim_sleep_wake(start_ms):
    out = {}

    def script(h):
        yield h.wait(300)
        yield h.press(SELECT)
        yield h.press(NEXT)
        yield h.press(SELECT)  # 2 players
        yield h.press(SELECT)  # X in the centre
        picture = h.glass()
        yield h.wait(29000)
        out["lit_before"] = h.lit()
        yield h.wait(2000)
        out["dimmed"] = not h.lit() and h.showing()
        clock = time.clock()
        dozed = clock.dozed_ms
        yield h.wait(150000)
        out["asleep"] = not h.showing() and not h.lit()
        out["dozed"] = clock.dozed_ms - dozed
        yield h.press(NEXT, 700)  # the waking press: held long enough to mean "menu"
        out["same"] = h.showing() and h.lit() and h.glass() == picture
        yield h.press(NEXT)
        out["moves_on"] = h.board_and_cursor()[1] == 6  # from 5, where it went after X

    hostapp.HostApp("pico", start_ms=start_ms).play(script)
    check(out["lit_before"] and out["dimmed"], "backlight off after dim_s: %r" % out)
    check(out["asleep"] and out["dozed"] > 50000, "display and light off, lightsleep: %r" % out)
    check(out["same"], "woke to the same screen, the press did nothing else: %r" % out)
    check(out["moves_on"], repr(out))


def test_settings_that_cannot_be_saved_are_logged_and_the_game_plays_on():
    # A directory named settings.json: every save fails (FAT refuses to rename onto it; how
    # each filesystem fails is mp_settings_save.py's), the log says so once, and why.
    out = {}

    def script(h):
        os.mkdir("settings.json")  # before the power comes on
        yield h.wait(300)
        yield h.press(SELECT)
        yield h.press(NEXT)
        yield h.press(SELECT)  # 2 players: X wins 0-1-2, every move a press
        for cell in (0, 3, 1, 4, 2):
            for _ in range(9):
                if h.board_and_cursor()[1] == cell:
                    break
                yield h.press(NEXT)
            yield h.press(SELECT)
        # The result's jingle (about 1 s), then a blink: the save waits for the sound to end
        # and the buttons to have been still for app.App.save_ms.
        yield h.wait(1600)
        out["won"] = h.shows("WIN") and h.shows("1")
        yield h.press(SELECT)  # the next game starts: the app is alive
        yield h.wait(100)
        out["next"] = h.board_and_cursor() == (0, 4)
        out["log"] = hostapp.read("error.log")

    hostapp.HostApp("pico", flash="fat").play(script)
    lines = out["log"].split("\n")
    check(out["won"] and out["next"], repr(out))
    check(len(lines) == 2 and lines[1] == "", "one line: %r" % out["log"])
    check("settings.json not saved: [Errno 21] EISDIR" in lines[0], lines[0])


mptest.run(globals())
