# Every app screen, the coach's too, driven with the buttons and printed as GLASS lines
# (Glass.snap: what the glass shows, from the controller model) for
# host_tests/test_app_screens.py to compare with the golden PNGs.
# SPDX-License-Identifier: MIT
import random

import mptest
from appplay import (
    choose,
    coach_row,
    cursor_to,
    line_on,
    menu_to,
    open_settings,
    perfect,
    play_cell,
    play_out,
    settings_back,
    until,
)
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp
from screen import PLAY


def test_the_buttons_reach_every_screen():
    random.seed(5110)
    r = HostApp(alone=True)
    r.run(50)
    r.snap("title")
    r.click(SELECT)
    r.snap("menu")
    # 1P at "hard" (the default level), the player starts (alternate: game 1).
    r.click(SELECT)
    r.run(50)
    play_cell(r, 4)
    play_cell(r, 2)
    r.snap("board_1p")
    # The thinking indicator: the frame drawn before a search expected to be slow.
    r.app.screens[PLAY].think_ms = 0
    cursor_to(r, [i for i in range(9) if r.cell(i) in (".", "cursor")][0])
    r.down(SELECT)
    r.run(80)
    r.up(SELECT)
    r.app.step(r.now)  # the click: the player's mark and the indicator, no search yet
    r.snap("thinking")
    r.app.screens[PLAY].think_ms = 150
    r.run(100)
    # Hold NEXT: to the menu, where the game waits behind "Continue".
    r.hold(NEXT, 700)
    r.snap("menu_paused")
    menu_to(r, 5)  # Continue, 1P, 2P, Level, Start, Settings
    r.click(SELECT)
    r.snap("settings")
    r.click(SELECT)
    r.click(NEXT)
    r.snap("settings_contrast")
    r.click(PREV)
    r.click(SELECT)
    settings_back(r)
    choose(r, 2)  # a two-player game (Continue is row 0): X wins on the diagonal
    for cell in (0, 1):
        play_cell(r, cell)
    r.snap("board_2p")
    for cell in (4, 2, 8):
        play_cell(r, cell)
    until(r, lambda: r.pixel(13, 13) == 1, "the winning line", None, 40)
    r.snap("win_2p")
    r.click(SELECT)
    r.run(50)
    for cell in (0, 4, 8, 1, 7, 6, 2, 5, 3):
        play_cell(r, cell)
    until(r, lambda: r.status(0, "DRAW"), "DRAW", None, 40)
    r.snap("draw_2p")
    # A 1P game won against "easy", with the line through.
    r.click(SELECT)  # a press starts the next game
    r.hold(NEXT, 700)  # to the menu: Continue, 1P, 2P, Level, Start, Settings, Link play
    menu_to(r, 3)
    until(r, lambda: r.text_at("EASY", 52, 24, True), "EASY", SELECT, 4)
    choose(r, 1)  # 1P vs CPU
    for _game in range(30):
        play_out(r, perfect)
        game = r.app.shared.game
        if r.status(0, "WIN!") or game.result == game.human:
            break
        r.click(SELECT)
        r.run(50)
    until(r, lambda: line_on(r, r.app.shared.game.line) == 1, "the winning line", None, 40)
    r.snap("win_1p")
    # The demo, on an idle menu (held NEXT at the end of a game: no game waits there).
    r.hold(NEXT, 700)
    r.run(r.app.demo_after_ms + 2200)
    r.snap("demo")


def test_the_buttons_reach_the_coachs_screens():
    r = HostApp(alone=True)
    open_settings(r)
    coach_row(r)
    r.click(SELECT)  # Coach ON, the first time: what the marks mean
    r.snap("coach_told")
    r.click(PREV)  # a press dismisses it
    settings_back(r)
    choose(r, 1)  # 2 Players
    r.snap("coach_empty")  # every move draws: none is boxed
    play_cell(r, 0)
    play_cell(r, 2)  # X to move: wins, a draw, a loss
    cursor_to(r, 1)
    r.snap("coach_mid")
    cursor_to(r, 3)
    r.snap("coach_cursor_best")


mptest.run(globals())
