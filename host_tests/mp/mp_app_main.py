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
from appplay import to_two_players
from buttons import NEXT, PREV, SELECT
from mptest import check
from session import to_cell


def test_real_app_boots_on_each_board():
    glasses = {}
    for board in ("pico", "esp32"):

        def script(h, board=board):
            yield h.wait(1000)
            glasses[board] = h.glass()
            check(any(glasses[board]) and not h.shows("ERROR", True), board + ": no first screen")
            got = (h.lit(), h.model.vop, h.model.anomalies)
            check(got == (True, 60, []), "%s: lit, Vop, anomalies %r" % (board, got))

        h = hostapp.HostApp(board)
        h.play(script)
        check("app" in sys.modules and not h.returned and h.boots == 1)
        # A first boot writes nothing: no log, and no settings.json until something changes.
        check(hostapp.read("error.log") == "" and hostapp.read("settings.json") == "", board)
    # The board file changes only the wiring (lit and Vop are checked on each above).
    check(glasses["pico"] == glasses["esp32"], "the boards boot to different screens")


def test_boot_and_a_drawn_game_against_perfect():
    def script(h):
        yield h.wait(300)
        check(h.shows("OXO 5110"), h.screen())
        yield h.press(SELECT)
        check(h.shows("1P vs CPU", inverted=True), h.screen())
        yield h.press(NEXT)
        yield h.press(NEXT)
        yield h.press(SELECT)  # level: hard (the default) -> perfect
        check(h.shows("PERF", inverted=True), h.screen())
        yield h.press(PREV)
        yield h.press(PREV)
        yield h.press(SELECT)  # 1P vs CPU; "alternate": the player starts the first game
        yield h.wait(100)
        moves = 0
        while h.cursor() >= 0:
            board = h.board_and_cursor()[0]
            yield from to_cell(h, engine.best_move(board, gameboard.to_move(board)))
            yield h.press(SELECT)
            yield h.wait(50)
            moves += 1
        check(moves == 5, "%d moves" % moves)
        yield h.until(lambda: h.shows("DRAW"), 2000)
        check(h.shows("PERF"), h.screen())
        # The result blinks, so its save waits for a gap, at most save_wait_ms, then takes
        # the frame of a blink.
        yield h.wait(sys.modules["app"].App.save_wait_ms + 500)

    hostapp.HostApp("pico").play(script)
    saved = json.loads(hostapp.read("settings.json"))
    check(saved["tally1"] == [0, 1, 0] and saved["level"] == 3, repr(saved))


def test_dim_sleep_lightsleep_and_wake_to_the_same_screen():
    dim_sleep_wake(0)


def test_dim_sleep_and_wake_across_the_tick_wrap():
    # The boards' ticks_ms() wraps at 2**30: here it wraps 20 s into the idle time, between the
    # move and the dimming, so every idle timer spans the wrap.
    dim_sleep_wake((1 << 30) - 20000)


def dim_sleep_wake(start_ms):
    def script(h):
        yield from to_two_players(h)
        yield h.press(SELECT)  # X in the centre
        picture = h.glass()
        yield h.wait(29000)
        check(h.lit(), "dimmed before dim_s")
        yield h.wait(2000)
        check(not h.lit() and h.showing(), "backlight not off after dim_s")
        dozed = time.clock().dozed_ms
        yield h.wait(150000)
        check(not h.showing() and not h.lit(), "display and light not off")
        dozed = time.clock().dozed_ms - dozed
        check(dozed > 50000, "lightsleep: %d ms" % dozed)
        yield h.press(NEXT, 700)  # the waking press: held long enough to mean "menu"
        same = h.showing() and h.lit() and h.glass() == picture
        check(same, "woke to another screen, or the press did more:\n" + h.screen())
        yield h.press(NEXT)
        check(h.cursor() == 6, "the cursor did not move on from 5:\n" + h.screen())

    hostapp.HostApp("pico", start_ms=start_ms).play(script)


def test_settings_that_cannot_be_saved_are_logged_and_the_game_plays_on():
    # A directory named settings.json: every save fails (FAT refuses to rename onto it; how
    # each filesystem fails is mp_settings.py's), the log says so once, and why.
    def script(h):
        os.mkdir("settings.json")  # before the power comes on
        yield from to_two_players(h)
        for cell in (0, 3, 1, 4, 2):  # X wins 0-1-2, every move a press
            yield from to_cell(h, cell)
            yield h.press(SELECT)
        # The result's jingle (about 1 s), then a blink: the save waits for the sound to end
        # and the buttons to have been still for app.App.save_ms.
        yield h.wait(1600)
        check(h.shows("WIN") and h.shows("1"), h.screen())
        yield h.press(SELECT)  # the next game starts: the app is alive
        yield h.wait(100)
        check(h.board_and_cursor() == (0, 4), "no next game:\n" + h.screen())

    hostapp.HostApp("pico", flash="fat").play(script)
    lines = hostapp.read("error.log").split("\n")
    check(len(lines) == 2 and lines[1] == "", "one line: %r" % lines)
    check("settings.json not saved: [Errno 21] EISDIR" in lines[0], lines[0])


mptest.run(globals())
