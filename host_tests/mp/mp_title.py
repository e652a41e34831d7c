# title.py: the first screen, driven by the buttons and read off the glass.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import sys
import time

import mptest
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp
from mptest import check

# What the title does not need: the menu, the game and the engine (app.App.show: made at
# the first press). The game's modules stay in sys.modules; the menu's leave it at once, their
# code held by the menu screen alone (app._load); the game's screen comes with the first game.
_KEPT = ("game", "widgets", "engine")
_LATER = ("mainmenu", "menu", "play") + _KEPT


def test_a_boot_shows_the_title_before_the_menu_and_the_game_are_loaded():
    # The first check in this file (mptest runs them sorted by name): a fresh interpreter, in
    # which no earlier check has loaded the game.
    r = HostApp(alone=True)
    r.run(50)
    check(r.text_at("OXO 5110", 10, 21), r.show())
    loaded = [name for name in _LATER if name in sys.modules]
    check(not loaded, "loaded before the first press: %r" % (loaded,))
    r.down(SELECT)
    r.run(40)
    check(r.menu_row(0), "the first press opens the menu:\n" + r.show())
    missing = [name for name in _KEPT if name not in sys.modules]
    check(not missing, "not loaded by the menu: %r" % (missing,))


def test_the_prompt_blinks():
    r = HostApp(alone=True)
    seen = []
    for _ in range(6):
        r.run(200)
        check(r.text_at("OXO 5110", 10, 21), r.show())
        seen.append(r.text_at("press key", 6, 37))
    check(True in seen and False in seen, "press key blinks: %r" % (seen,))


def idle_ms(r):
    # How long the buttons have been left alone (power.Power.last: the last activity).
    return time.ticks_diff(r.now, r.app.power.last)


def test_due_is_the_next_blink_or_the_demo_whichever_comes_first():
    # The App asks due() before a save (app.App.step): it must answer on the title.
    r = HostApp(alone=True)
    r.run(50)
    title = r.app.screen
    due = r.app.due(r.now)
    check(0 < due <= 400, "the next blink of the prompt: %d ms" % due)
    r.run(r.app.demo_after_ms - 30 - idle_ms(r))  # idle, the demo 30 ms away
    left = r.app.demo_after_ms - idle_ms(r)
    due = r.app.due(r.now)
    check(r.app.screen is title and 0 <= due <= left <= 30, "the demo first: %d ms" % due)


def test_a_press_opens_the_menu_at_once_and_its_hold_does_nothing_more():
    r = HostApp(alone=True)
    r.run(50)
    r.down(SELECT)
    r.run(40)
    check(r.menu_row(0) and r.text_at("1P vs CPU", 1, 0, True), "on the down edge:\n" + r.show())
    r.run(1000)  # long enough to be a LONG; released: it would be a click on "1P vs CPU"
    r.up(SELECT)
    r.run(100)
    check(r.menu_row(0) and r.text_at("1P vs CPU", 1, 0, True), "still the menu:\n" + r.show())
    r.down(NEXT)
    r.run(40)
    check(r.menu_row(1) and not r.menu_row(0), "the next press acts")
    check(r.text_at("2 Players", 1, 8, True), r.show())
    r.up(NEXT)
    r.click(PREV)
    check(r.menu_row(0) and not r.menu_row(1), "PREV moves the highlight back")


def test_a_save_waiting_on_the_title_or_the_main_menu_is_made():
    # The App asks the screen's due() only while a save waits (app.App.step): on the title it
    # must know when the demo is due; on the menu, a change made on the settings screen may
    # wait for its click to sound out (issue 19: on the rp2 port this step raised
    # AttributeError on both). The title's prompt blinks: the save takes a blink's frame; the
    # still menu gives it a gap at once.
    from app import App

    for where, ms in (("title", App.save_wait_ms + 500), ("menu", 1000)):
        r = HostApp(alone=True)
        r.run(50)
        if where == "menu":
            r.click(SELECT)
        r.settings.set("level", 0)
        r.app.shared.save_soon(r.now)
        r.run(ms)
        shown = r.text_at("OXO 5110", 10, 21) if where == "title" else r.menu_row(0)
        check(shown, where + ":\n" + r.show())
        check(not r.settings.dirty, "the save waiting on the %s was made" % where)


mptest.run(globals())
