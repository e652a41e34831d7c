# Playing the app by its buttons and reading the glass, for the MicroPython checks of the
# screens (mp_play.py, mp_mainmenu.py, mp_setupmenu.py, mp_coach.py, mp_app_screens.py, ...).
# SPDX-License-Identifier: MIT
import random

import engine
import gameboard
from buttons import NEXT, SELECT
from hostapp import HostApp
from mptest import check

LEVELS = len(engine.LEVELS)


def board_of(r):
    """The board as the glass shows it (the cursor cell counts as empty)."""
    cells = []
    for i in range(9):
        c = r.steady(i)
        check(c in ("X", "O", ".", "cursor"), "cell %d unreadable:\n%s" % (i, r.show()))
        cells.append(engine.X if c == "X" else engine.O if c == "O" else engine.EMPTY)
    return gameboard.pack(cells)


def marks(r):
    b = board_of(r)
    return sum(1 for i in range(9) if (b >> (2 * i)) & 3)


def until(r, probe, what, press=NEXT, tries=8):
    """Click `press` until probe() holds (reading the glass), at most `tries` times; with press
    None, let 50 ms pass each time instead (for a blink)."""
    for _ in range(tries):
        if probe():
            return
        if press is None:
            r.run(50)
        else:
            r.click(press)
    raise AssertionError("%s never shown:\n%s" % (what, r.show()))


def menu_to(r, row):
    """Move the menu highlight to `row` (reading the glass), with NEXT."""
    until(r, lambda: r.menu_row(row), "menu row %d highlighted" % row)


def choose(r, row):
    """From the main menu: highlight `row` and select it; a game on it draws its first frame
    (rows with no game waiting: 0 1P vs CPU, 1 2 Players; with one, 0 is Continue)."""
    menu_to(r, row)
    r.click(SELECT)
    r.run(50)


def set_level(r, level):
    """From the main menu: cycle the Level row until the glass shows the level's label."""
    menu_to(r, 2)
    label = engine.LEVELS[level]
    until(r, lambda: r.text_at(label, 84 - 8 * len(label), 16, True), label, SELECT, LEVELS)


def set_starts(r, text):
    menu_to(r, 3)
    until(r, lambda: r.text_at(text, 84 - 24, 24, True), "starts " + text, SELECT, 3)


def to_menu(r):
    r.run(50)
    check(r.text_at("OXO 5110", 10, 21), "title expected:\n" + r.show())
    r.click(SELECT)
    check(r.menu_row(0) and r.text_at("1P vs CPU", 1, 0, True), "menu row 0 highlighted")


def new_1p(level, starts="YOU", seed=1):
    random.seed(seed)
    r = HostApp(alone=True)
    to_menu(r)
    set_level(r, level)
    set_starts(r, starts)
    choose(r, 0)
    return r


def play_cell(r, cell):
    """Move the cursor to `cell` with NEXT (reading the glass) and place the mark there."""
    cursor_to(r, cell)
    r.click(SELECT)


def play_out(r, choose):
    """Play the human's moves with choose(board, player) until the game ends; returns moves."""
    moves = 0
    while r.cursor() >= 0:  # the human's turn
        before = marks(r)
        b = board_of(r)
        player = gameboard.to_move(b)
        cell = choose(b, player)
        play_cell(r, cell)
        moves += 1
        after = board_of(r)
        check((after >> (2 * cell)) & 3 == player, "own mark not on the glass")
        check(marks(r) in (before + 1, before + 2), "one move and at most one reply")
    return moves


perfect = engine.best_move  # a chooser for play_out(): the engine's move, which never loses


def first_free(b, player):
    for i in range(9):
        if not (b >> (2 * i)) & 3:
            return i


def line_on(r, line):
    """A pixel on the winning stroke, 6 px from the first cell's centre towards the second,
    outside both glyphs: dark only while the line is drawn."""
    a, b = line[0], line[1]
    dx = (b % 3) - (a % 3)
    dy = (b // 3) - (a // 3)
    return r.pixel((a % 3) * 16 + 7 + 6 * dx, (a // 3) * 16 + 7 + 6 * dy)


def two_player(moves):
    r = HostApp(alone=True)
    to_menu(r)
    choose(r, 1)
    check(r.status(1, "2P"), r.show())
    for k, cell in enumerate(moves):
        mover = "X" if k % 2 == 0 else "O"
        check(r.status_after_glyph(0, "GO"), r.show())
        play_cell(r, cell)
        check(r.steady(cell) == mover, "mark %s on %d:\n%s" % (mover, cell, r.show()))
    return r


def cursor_to(r, cell):
    """Move the cursor to `cell` with NEXT, reading the glass."""
    until(r, lambda: r.cursor() == cell, "the cursor on %d" % cell, NEXT, 9)


def no_undo_sign(r):
    """The "NO UNDO" sign: white on black over the status column's second row."""
    at = r.small("NO UNDO", inverted=True)
    return at is not None and at[0] >= 50 and 9 <= at[1] <= 12


def rig_with(**values):
    """The App alone started on a settings file that already holds `values` (as a device would
    boot with scores and timers saved by an earlier session)."""
    import settings

    r = HostApp()
    s = settings.Settings.load("settings.json")
    for key in values:
        s.set(key, values[key])
    s.save()
    return r.start()


def to_reset_row(r):
    """From the main menu: open Settings and highlight its Reset scores row (CLR)."""
    paused = r.text_at("Continue", 1, 0, True) or r.text_at("Continue", 1, 0)
    menu_to(r, 5 if paused else 4)
    r.click(SELECT)
    # The list scrolls: the row is found by what it shows.
    until(r, lambda: r.text_at("CLR", 84 - 24, 40, True), "the Reset row's CLR")


def settings_back(r):
    """From Settings: Back to the main menu (the last row: the list scrolls to it)."""
    until(r, lambda: r.text_at("Back", 1, 40, True), "Back")
    r.click(SELECT)
    check(r.text_at("Settings", 1, 32, True) or r.text_at("Settings", 1, 40, True), r.show())


def open_settings(r):
    """From the title: the Settings screen, on its first row (Contr)."""
    to_menu(r)
    menu_to(r, 4)
    r.click(SELECT)
    check(r.text_at("Contr", 1, 0, True), r.show())


def coach_row(r):
    """From the first row of Settings: down to the Coach row."""
    for _ in range(5):
        r.click(NEXT)
    check(r.text_at("Coach", 1, 40, True), "the Coach row:\n" + r.show())


def coach_game(row, **values):
    """The App alone with the coach on (already told), from the title into the game on menu
    row `row` (0: 1P vs CPU, 1: 2 Players); `values`: other settings saved before the boot."""
    r = rig_with(coach=True, coach_told=True, **values)
    to_menu(r)
    choose(r, row)
    return r


MARKS = ("D", "W1", "W2", "W3", "W4", "W5", "L1", "L2", "L3", "L4")  # every mark_of there is


def mark_of(score):
    """The coach's mark for a root_scores score: W n, a win with the mover's n-th move (a win k
    plies away, k odd, is its (k + 1) / 2-th); L n, a loss with the other's n-th (k even: its
    k / 2-th); D, a draw."""
    if score > 0:
        return "W%d" % ((100 - score + 1) // 2)
    if score < 0:
        return "L%d" % ((100 + score) // 2)
    return "D"


# -- steps of a play() script (yield from them) ----------------------------------------------


def to_two_players(h):
    """From power-on: the title, then the menu's 2 Players row chosen: X to move on 4."""
    yield h.wait(300)
    yield h.press(SELECT)
    yield h.press(NEXT)
    yield h.press(SELECT)
