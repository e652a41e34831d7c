# The coach's screens, driven with the buttons and printed as "GLASS <name> <hex>" for
# host_tests/test_coach.py to compare with the golden PNGs.
# SPDX-License-Identifier: MIT
import binascii

import mptest
from appplay import cursor_to, menu_to, play_cell, settings_back, to_menu
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp


def snap(r, name):
    print("GLASS", name, binascii.hexlify(r.model.glass()).decode())


def test_the_buttons_reach_the_coachs_screens():
    r = HostApp(alone=True)
    to_menu(r)
    menu_to(r, 4)
    r.click(SELECT)  # Settings
    for _ in range(5):
        r.click(NEXT)
    r.click(SELECT)  # Coach ON, the first time: what the marks mean
    snap(r, "coach_told")
    r.click(PREV)  # a press dismisses it
    settings_back(r)
    menu_to(r, 1)
    r.click(SELECT)  # 2 Players
    r.run(50)
    snap(r, "coach_empty")  # every move draws: none is boxed
    play_cell(r, 0)
    play_cell(r, 2)  # X to move: wins, a draw, a loss
    cursor_to(r, 1)
    snap(r, "coach_mid")
    cursor_to(r, 3)
    snap(r, "coach_cursor_best")


mptest.run(globals())
