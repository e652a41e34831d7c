# app.py: which presses may act (input arming), on the glass.
# SPDX-License-Identifier: MIT
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


mptest.run(globals())
