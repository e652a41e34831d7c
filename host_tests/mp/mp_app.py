# app.py on the glass: which presses may act (input arming), no garbage, the screens made and
# let go; and the CPU-against-CPU demo (demo.py, which title.py starts).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import random
import sys
import time

import mptest
from appheap import heap_over
from appplay import marks, menu_to, play_cell, rig_with, settings_back, to_menu
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp
from mptest import check
from screen import MENU


def test_a_hold_begun_on_the_menu_does_not_act_in_the_game():
    r = HostApp(alone=True)
    to_menu(r)
    menu_to(r, 0)
    r.down(NEXT)  # the highlight moves to "2 Players" at once; NEXT stays held...
    r.run(50)
    r.click(SELECT)  # ...while SELECT starts the game
    r.run(1500)  # NEXT's auto-repeat would count as a long press (pause) in the game
    r.up(NEXT)
    r.run(100)
    check(r.status(1, "2P") and r.status_after_glyph(0, "GO"), "not in the game:\n" + r.show())


def test_the_loop_leaves_no_garbage_idle_or_moving_on_the_menu_and_in_a_game():
    for screen in ("menu", "game"):
        for button in (None, NEXT):
            r = HostApp(alone=True)
            to_menu(r)
            if screen == "game":
                r.click(SELECT)  # "1P vs CPU": the player (X) starts
                check(r.status_after_glyph(0, "YOU"), "not in a game:\n" + r.show())
            left = heap_over(r, 500, button)[0]
            check(left == 0, "%s, %s: %d bytes left" % (screen, button, left))


PASSING = ("Title", "Demo", "SetupMenu")  # the screens shown only now and then


def held_screens(app):
    # The screens of PASSING that the app, its table or a screen it keeps still refers to.
    held = []
    kept = [screen for screen in app.screens if screen is not None]
    for holder in [app] + kept:
        for value in list(holder.__dict__.values()) + kept:
            if type(value).__name__ in PASSING and value is not app.screen:
                held.append(type(value).__name__)
    return held


def test_the_title_the_demo_and_the_settings_are_let_go_when_left():
    # Each is made when it shows and let go once left, its code with it (app.App.show):
    # nothing keeps the screen, nor sys.modules its module; shown again, it is loaded again.
    sys.modules.pop("setupmenu", None)
    r = HostApp(alone=True)
    to_menu(r)
    check("setupmenu" not in sys.modules, "the settings screen loaded before it was opened")
    menu_to(r, 1)
    r.click(SELECT)  # a two-player game: X on 0, 1, 2 wins it
    for cell in (0, 3, 1, 4, 2):
        play_cell(r, cell)
    check(r.status_after_glyph(0, "WIN"), "X won:\n" + r.show())
    r.hold(NEXT, 700)  # to the menu, with no game waiting: the demo may start there
    for _ in range(2):
        menu_to(r, 4)
        r.click(SELECT)  # Settings
        check(type(r.app.screen).__name__ == "SetupMenu", r.show())
        settings_back(r)
        r.run(r.app.demo_after_ms + 1000)  # idle on the menu: the demo
        check(r.status(0, "DEMO"), "the demo:\n" + r.show())
        r.click(PREV)  # ends it: the title
        check(r.text_at("OXO 5110", 10, 21), "the title:\n" + r.show())
        r.click(SELECT)  # the menu again, made anew: its first row highlighted
        check(r.menu_row(0) and type(r.app.screen).__name__ == "MainMenu", r.show())
        held = held_screens(r.app)
        check(not held, "still held: %s" % held)
        for name in ("title", "demo", "setupmenu", "mainmenu", "menu"):
            check(name not in sys.modules, name + " kept in sys.modules")


def test_a_game_does_not_hold_the_main_menu_and_the_menu_comes_back_with_continue():
    # The main menu is let go when a game shows, its code (mainmenu, menu) with it; the game
    # remembers that it waits, so the menu made again offers "Continue", highlighted.
    r = HostApp(alone=True)
    to_menu(r)
    menu_to(r, 0)
    r.click(SELECT)  # 1P vs CPU
    check(r.status_after_glyph(0, "YOU"), "not in a game:\n" + r.show())
    check(r.app.screens[MENU] is None, "the main menu is kept during a game")
    for name in ("mainmenu", "menu"):
        check(name not in sys.modules, name + " kept in sys.modules during a game")
    r.hold(NEXT, 700)  # to the menu, the game unfinished
    check(type(r.app.screen).__name__ == "MainMenu", r.show())
    check(r.text_at("Continue", 1, 0, True), "Continue not highlighted:\n" + r.show())
    r.click(SELECT)  # Continue
    check(r.status_after_glyph(0, "YOU") and "mainmenu" not in sys.modules, r.show())


# -- the demo ---------------------------------------------------------------------------------


def test_sleep_during_the_demo_wakes_on_the_title():
    random.seed(13)
    r = rig_with(sleep_s=20)  # asleep 5 s into the demo
    r.run(r.app.demo_after_ms + 1000)
    check(r.status(0, "DEMO"), "demo started:\n" + r.show())
    r.run(20000 - r.app.demo_after_ms)
    check(r.model.powered_down and r.blank(), "asleep")
    r.click(NEXT)  # only wakes the display
    check(not r.model.powered_down, "awake")
    check(r.text_at("OXO 5110", 10, 21), "the title, not the demo:\n" + r.show())
    check(not r.status(0, "DEMO"), r.show())
    r.run(1000)
    check(r.text_at("OXO 5110", 10, 21), "and it stays there:\n" + r.show())


def test_the_demo_starts_when_idle_plays_and_a_press_ends_it_and_lets_it_go():
    sys.modules.pop("demo", None)
    random.seed(12)
    r = HostApp(alone=True)
    r.run(r.app.demo_after_ms - 500)
    check(r.text_at("OXO 5110", 10, 21), "the title while not idle long enough:\n" + r.show())
    check(not r.status(0, "DEMO") and "demo" not in sys.modules, "loaded before it started")
    r.run(1000)
    check(r.status(0, "DEMO"), "demo started:\n" + r.show())
    r.run(3000)
    check(marks(r) >= 3, "the demo plays:\n" + r.show())
    r.click(PREV)
    check(r.text_at("OXO 5110", 10, 21), "a press stops the demo:\n" + r.show())
    check(type(r.app.screen).__name__ == "Title", "the title shows")
    r.run(100)
    check(r.text_at("OXO 5110", 10, 21), "and does nothing else")
    r.run(r.app.demo_after_ms + 1000)  # a second demo: the module is loaded again
    check(r.status(0, "DEMO") and marks(r) >= 1, "the demo again:\n" + r.show())


def test_the_demo_counts_from_a_screen_that_came_by_itself():
    # The menu's 15 s to the demo start at the last press, or when the menu came without one if
    # that is later: link play's "the other board has left" goes to the menu after 4 s, and the
    # demo must not take over 15 s after the press that opened Link play.
    r = HostApp(alone=True)
    to_menu(r)
    r.run(r.app.demo_after_ms - 1000)
    r.app.show(MENU, time.ticks_ms())  # as a screen's own answer does, with no press
    r.run(r.app.demo_after_ms - 500)
    check(type(r.app.screen).__name__ == "MainMenu", "the demo came early:\n" + r.show())
    r.run(1000)
    check(r.status(0, "DEMO"), "the demo 15 s after the menu came:\n" + r.show())


mptest.run(globals())
