# app.py: which presses may act (input arming), on the glass.
# SPDX-License-Identifier: MIT
import gc

import mptest
from appplay import menu_to, to_menu
from buttons import NEXT, SELECT
from harness import Rig
from mptest import check


def test_a_hold_begun_on_the_menu_does_not_act_in_the_game():
    r = Rig()
    to_menu(r)
    menu_to(r, 0)
    r.down(NEXT)  # the highlight moves to "2 Players" at once; NEXT stays held...
    r.run(50)
    r.click(SELECT)  # ...while SELECT starts the game
    r.run(1500)  # NEXT's auto-repeat would count as a long press (pause) in the game
    r.up(NEXT)
    r.run(100)
    check(r.status(1, "2P") and r.status_after_glyph(0, "GO"), "not in the game:\n" + r.show())


def garbage(r, steps, button):
    # The bytes that `steps` app steps, 10 ms apart, leave on the heap with the collector off;
    # `button` (or None) goes down every 20th step and up 10 steps later: a move and its frame.
    # A call frame over 11 words is taken from the heap and freed on return (py/objfun.c,
    # VM_MAX_STATE_ON_STACK): that is not garbage, and gc.mem_alloc() does not count it.
    app = r.app
    now = r.now
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    n = 0
    while n < steps:
        if button is not None and n % 20 == 0:
            r.down(button)
        elif button is not None and n % 20 == 10:
            r.up(button)
        app.step(now)
        r.bus.clear()  # the stand-in's recording of the frames: its buffer is reused
        now += 10
        n += 1
    left = gc.mem_alloc() - before
    gc.enable()
    return left


def test_the_loop_leaves_no_garbage_idle_or_moving_on_the_menu_and_in_a_game():
    for screen in ("menu", "game"):
        for button in (None, NEXT):
            r = Rig()
            to_menu(r)
            if screen == "game":
                r.click(SELECT)  # "1P vs CPU": the player (X) starts
                check(r.status_after_glyph(0, "YOU"), "not in a game:\n" + r.show())
            left = garbage(r, 500, button)
            check(left == 0, "%s, %s: %d bytes left" % (screen, button, left))


mptest.run(globals())
