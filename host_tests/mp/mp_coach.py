# The Coach setting in games: marks on a human's turn only, one search per position, the coach's
# code loaded only while the setting is on, no garbage; and its marks read back off the glass
# for every position a game can go on from: the real app in a two-player game (both sides
# human, so every position shows the marks) is put in each position, steps once to draw it, and
# the glass (the controller model, fed what the driver sent) is read cell by cell with the small
# font (glass.coach_mark) and held against gameboard.root_scores, restated as marks.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=1024k paths={hostboard}
import gc
import sys

import engine
import gameboard
import mptest
from appplay import (
    MARKS,
    choose,
    coach_game,
    coach_row,
    cursor_to,
    first_free,
    mark_of,
    menu_to,
    open_settings,
    play_cell,
    play_out,
    rig_with,
    settings_back,
    to_menu,
)
from buttons import NEXT, SELECT
from hostapp import HostApp
from mptest import check
from positions import GOING_ON, going_on
from screen import PLAY


def free_cells(r):
    board = r.app.shared.game.board
    return [i for i in range(9) if not (board >> 2 * i) & 3]


def marked(r):
    """Every free cell of the game shows a coach's mark."""
    return all(r.coach_mark(i)[0] in MARKS for i in free_cells(r))


def unmarked(r):
    """No cell of the glass shows a coach's mark (the demo's game too, which is not Play's)."""
    return all(r.coach_mark(i)[0] not in MARKS for i in range(9))


def test_a_game_without_the_coach_never_loads_it():
    sys.modules.pop("coach", None)
    r = HostApp(alone=True)  # the coach is off by default
    to_menu(r)
    choose(r, 0)
    play_out(r, first_free)  # reads every cell as X, O or empty: no marks
    r.click(SELECT)  # the next game
    r.run(50)
    check(unmarked(r), r.show())
    check("coach" not in sys.modules, "loaded by a game with the coach off")


def test_marks_show_on_each_humans_turn_and_never_on_the_cpus_or_after_the_end():
    r = coach_game(0, starts=0)  # the player starts against the CPU
    check(marked(r), "the player's turn:\n" + r.show())
    game = r.app.shared.game
    while not game.over():
        cursor_to(r, free_cells(r)[0])
        r.down(SELECT)
        r.run(80)
        r.up(SELECT)
        r.app.step(r.now)  # the click: the player's mark, and the frame before the CPU's search
        if not game.over():
            check(game.cpu_to_move() and unmarked(r), "the CPU's turn:\n" + r.show())
        r.run(100)
        check(marked(r) if not game.over() else unmarked(r), r.show())
    r.hold(NEXT, 700)  # to the menu (no game waits there)
    choose(r, 1)  # 2 Players: both turns are a human's
    for cell in (4, 0, 8):
        check(marked(r), "%s to move:\n%s" % ("XO"[game.count & 1], r.show()))
        play_cell(r, cell)
        r.run(50)


def test_one_search_per_position_however_many_frames():
    r = coach_game(1)
    real = engine.scores_into
    searched = []

    def counting(out, board, player):
        searched.append(board)
        real(out, board, player)

    frames = []
    kind = type(r.app.screens[PLAY])
    draw = kind.draw

    def counting_draw(self, fb):
        frames.append(1)
        draw(self, fb)

    engine.scores_into = counting
    kind.draw = counting_draw
    try:
        play_cell(r, 4)  # a cursor move and a move: frames, and one new position
        r.hold(SELECT, 700)  # the hint blinks for 2 s: frame after frame of one position
        r.run(2500)
    finally:
        engine.scores_into = real
        kind.draw = draw
    check(len(searched) == len(set(searched)) == 1, repr(searched))
    check(len(frames) > 8, "%d frames" % len(frames))


def test_the_hint_blinks_on_a_best_cell_with_its_mark_readable_in_both_phases():
    r = coach_game(1)
    play_cell(r, 0)
    play_cell(r, 2)  # X to move: W3 on the best cells, D and L3 on the others
    hint = engine.best_move(r.app.shared.game.board, engine.X)
    r.hold(SELECT, 700)
    seen = set()
    for _ in range(16):  # 2 s of blinking, 250 ms a phase
        seen.add(r.coach_mark(hint))
        r.run(60)
    check(seen == {("W3", True, True), ("W3", True, False)}, repr(seen))
    r.run(2000)  # the blink ends with the cursor on the hint, solid
    check(r.coach_mark(hint) == ("W3", True, True) and r.cursor() == hint, r.show())


def test_the_demo_shows_no_marks():
    r = rig_with(coach=True, coach_told=True)
    r.run(r.app.demo_after_ms + 3000)  # idle on the title: the demo plays
    check(r.text_at("DEMO", 52, 0), "the demo:\n" + r.show())
    for _ in range(10):
        check(unmarked(r), r.show())
        r.run(300)


def test_turning_the_coach_off_lets_its_code_go():
    sys.modules.pop("coach", None)
    r = coach_game(1)
    check("coach" in sys.modules and marked(r), r.show())
    r.hold(NEXT, 700)  # to the menu: Continue, 1P, 2P, Level, Start, Settings
    menu_to(r, 5)
    r.click(SELECT)
    coach_row(r)
    r.click(SELECT)  # OFF
    settings_back(r)
    choose(r, 0)  # Continue
    check(unmarked(r) and r.cursor() >= 0, "the game goes on without marks:\n" + r.show())
    check("coach" not in sys.modules and "smallfont" not in sys.modules, "still loaded")
    check(r.app.shared.coach is None, "still held")


def test_turned_on_once_and_off_again_before_a_game_nothing_stays():
    # The note on what the marks mean loads the small font after the settings screen's own
    # helpers were let go: a game with the coach off must not keep it.
    for name in ("coach", "smallfont"):
        sys.modules.pop(name, None)
    r = HostApp(alone=True)  # the coach off, never told
    open_settings(r)  # no game waits: Settings is the menu's row 4
    coach_row(r)
    r.click(SELECT)  # ON: the note on the marks
    check("smallfont" in sys.modules, "the note did not load the font:\n" + r.show())
    r.click(SELECT)  # the note goes
    r.click(SELECT)  # OFF again
    settings_back(r)
    choose(r, 0)
    check(unmarked(r), r.show())
    check("coach" not in sys.modules and "smallfont" not in sys.modules, "still loaded")


def test_the_search_and_the_frame_leave_no_garbage():
    # Each position searched and drawn, with the collector off. A call frame over 11 words is
    # taken from the heap and freed on return (py/objfun.c, VM_MAX_STATE_ON_STACK): that is not
    # garbage, and gc.mem_alloc() does not count it.
    r = coach_game(1)
    play = r.app.screens[PLAY]
    game = r.app.shared.game
    lcd = r.app.lcd
    boards = (
        0,
        gameboard.pack((1, 0, 2, 0, 0, 0, 0, 0, 0)),
        gameboard.pack((1, 1, 0, 2, 2, 0, 0, 0, 0)),
    )
    counts = (0, 2, 4)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for k in range(3):
        game.board = boards[k]
        game.count = counts[k]
        play.cursor = 8
        play.draw(lcd)  # the search, then the frame
    left = gc.mem_alloc() - before
    gc.enable()
    check(r.app.shared.coach.board == boards[2], "searched")
    check(left == 0, "%d bytes left" % left)


# -- the marks in every position --------------------------------------------------------------


def expected(board, player):
    """Per cell: None if taken, else (mark, boxed) from root_scores; the best are boxed unless
    every move scores the same."""
    scores = gameboard.root_scores(board, player)
    free = [s for s in scores if s is not None]
    best = max(free)
    tie = min(free) == best
    return [None if s is None else (mark_of(s), s == best and not tie) for s in scores]


def show(r, board, n, k):
    """Put the game in `board` (n marks on it), the cursor on its k-th free cell (mod their
    count), and draw it: solid for even k, for odd k in a hint blink's off phase."""
    play = r.app.screens[PLAY]
    game = r.app.shared.game
    game.board = board
    game.count = n
    game.result = 0
    game.line = None
    free = [i for i in range(9) if not (board >> 2 * i) & 3]
    play.cursor = free[k % len(free)]
    play.hint_left = k & 1
    play.since = r.now - 250  # a hint blinking since then is in its off phase
    r.app.dirty = True
    r.app.step(r.now)
    return play.cursor, not k & 1


def wrong(r, board, n, k):
    """What the glass says wrongly in this position: a list of (cell, shown, expected)."""
    cursor, solid = show(r, board, n, k)
    out = []
    for i, want in enumerate(expected(board, engine.O if n & 1 else engine.X)):
        if want is not None:
            seen = r.coach_mark(i)
            if seen != (want[0], want[1], i == cursor and solid):
                out.append((i, seen, want))
    return out


def test_the_marks_on_the_glass_say_what_root_scores_says_in_every_position():
    r = coach_game(1)
    positions = going_on()
    check(len(positions) == GOING_ON, "%d positions" % len(positions))
    k = 0
    for board, n in positions.items():
        bad = wrong(r, board, n, k)
        check(not bad, "board %d: %r\n%s" % (board, bad, r.show()))
        k += 1
    check(r.model.anomalies == [], repr(r.model.anomalies))


mptest.run(globals())
