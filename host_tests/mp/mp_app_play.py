# Scripted games and screens of the app, asserting what the glass (controller model) shows.
# SPDX-License-Identifier: MIT
import random

import engine
import micropython
import mptest
from apprig import FOLDER, NEXT, PREV, SELECT, Rig, remove
from mptest import check

LEVELS = len(engine.LEVELS)
LABEL = {"easy": "EASY", "medium": "MED", "hard": "HARD", "perfect": "PERF"}


def board_of(r):
    """The board as the glass shows it (the cursor cell counts as empty)."""
    cells = []
    for i in range(9):
        c = r.steady(i)
        check(c in ("X", "O", ".", "cursor"), "cell %d unreadable:\n%s" % (i, r.show()))
        cells.append(engine.X if c == "X" else engine.O if c == "O" else engine.EMPTY)
    return engine.pack(cells)


def marks(r):
    b = board_of(r)
    return sum(1 for i in range(9) if (b >> (2 * i)) & 3)


def menu_to(r, row):
    """Move the menu highlight to `row` (reading the glass), with NEXT."""
    for _ in range(8):
        if r.menu_row(row):
            return
        r.click(NEXT)
    raise AssertionError("menu row %d never highlighted:\n%s" % (row, r.show()))


def set_level(r, level):
    """From the main menu: cycle the Level row until the glass shows the level's label."""
    menu_to(r, 2)
    label = LABEL[engine.LEVELS[level]]
    for _ in range(LEVELS):
        if r.text_at(label, 84 - 8 * len(label), 16, True):
            return
        r.click(SELECT)
    raise AssertionError("level %s never shown:\n%s" % (label, r.show()))


def set_starts(r, text):
    menu_to(r, 3)
    for _ in range(3):
        if r.text_at(text, 84 - 24, 24, True):
            return
        r.click(SELECT)
    raise AssertionError("starts %s never shown" % text)


def to_menu(r):
    r.run(50)
    check(r.text_at("OXO 5110", 10, 21), "title expected:\n" + r.show())
    r.click(SELECT)
    check(r.menu_row(0) and r.text_at("1P vs CPU", 1, 0, True), "menu row 0 highlighted")


def new_1p(level, starts="YOU", seed=1):
    random.seed(seed)
    r = Rig()
    to_menu(r)
    set_level(r, level)
    set_starts(r, starts)
    menu_to(r, 0)
    r.click(SELECT)
    r.run(50)
    return r


def play_cell(r, cell):
    """Move the cursor to `cell` with NEXT (reading the glass) and place the mark there."""
    for _ in range(9):
        if r.cursor() == cell:
            r.click(SELECT)
            return
        r.click(NEXT)
    raise AssertionError("cursor never reached %d:\n%s" % (cell, r.show()))


def human_turn(r):
    return r.cursor() >= 0


def play_out(r, choose):
    """Play the human's moves with choose(board, player) until the game ends; returns moves."""
    moves = 0
    while human_turn(r):
        before = marks(r)
        b = board_of(r)
        player = engine.to_move(b)
        cell = choose(b, player)
        play_cell(r, cell)
        moves += 1
        after = board_of(r)
        check((after >> (2 * cell)) & 3 == player, "own mark not on the glass")
        check(marks(r) in (before + 1, before + 2), "one move and at most one reply")
    return moves


def perfect(b, player):
    return engine.best_move(b, player)


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


def test_title_and_menu():
    r = Rig()
    r.run(50)
    check(r.text_at("OXO 5110", 10, 21), r.show())
    r.click(SELECT)
    check(r.menu_row(0), "first row highlighted:\n" + r.show())
    check(r.text_at("2 Players", 1, 8), r.show())
    r.click(NEXT)
    check(r.menu_row(1) and not r.menu_row(0), "NEXT moves the highlight")
    r.click(PREV)
    check(r.menu_row(0))


def test_full_game_at_each_level():
    for level in range(LEVELS):
        r = new_1p(level, "YOU", seed=level)
        check(r.status_after_glyph(0, "YOU"), "your turn shown:\n" + r.show())
        label = LABEL[engine.LEVELS[level]]
        check(r.status(1, label), "level shown:\n" + r.show())
        check(r.cursor() == 4, "cursor starts in the centre")
        play_out(r, perfect)
        b = board_of(r)
        won = engine.winner(b)
        check(won != engine.O, "a perfect human never loses")
        if won == engine.X:
            check(r.status(0, "WIN!"), r.show())
            check(r.count(2, "W", 1) and r.count(4, "L", 0), r.show())
        else:
            check(won == engine.EMPTY and all((b >> (2 * i)) & 3 for i in range(9)))
            r.run(10)
            check(r.count(3, "D", 1), "draw counted:\n" + r.show())
        if level == LEVELS - 1:
            check(won == engine.EMPTY, "perfect against perfect is a draw")


def test_win_with_blinking_line_then_next_game():
    # Against the weakest level, a perfect player wins within a few games.
    r = new_1p(0, "YOU", seed=3)
    for _ in range(20):
        play_out(r, perfect)
        b = board_of(r)
        if engine.winner(b) == engine.X:
            break
        r.click(SELECT)  # a press starts the next game
        r.run(50)
    else:
        raise AssertionError("no win against the weakest level in 20 games")
    line = engine.winning_line(b)
    check(r.status(0, "WIN!"), r.show())
    seen = [line_on(r, line)]
    for _ in range(6):
        r.run(200)
        seen.append(line_on(r, line))
    check(1 in seen and 0 in seen, "the winning line blinks: %r" % seen)
    check(r.count(2, "W", 1), r.show())
    r.click(NEXT)
    r.run(50)
    check(marks(r) <= 1, "a press started the next game:\n" + r.show())


def test_loss_against_perfect():
    r = new_1p(LEVELS - 1, "YOU", seed=4)
    play_out(r, first_free)
    b = board_of(r)
    check(engine.winner(b) == engine.O, "perfect beats first-free:\n" + r.show())
    check(r.status(0, "LOST"), r.show())
    check(r.count(4, "L", 1) and r.count(2, "W", 0), r.show())


def two_player(moves):
    r = Rig()
    to_menu(r)
    menu_to(r, 1)
    r.click(SELECT)
    r.run(50)
    check(r.status(1, "2P"), r.show())
    for k, cell in enumerate(moves):
        mover = "X" if k % 2 == 0 else "O"
        check(r.status_after_glyph(0, "GO"), r.show())
        play_cell(r, cell)
        check(r.steady(cell) == mover, "mark %s on %d:\n%s" % (mover, cell, r.show()))
    return r


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


def test_two_players_o_wins():
    r = two_player((0, 4, 1, 8, 3, 2, 5, 6))  # O completes 2-4-6
    check(r.status_after_glyph(0, "WIN"), r.show())
    check(r.count(3, "O", 1) and r.count(2, "X", 0), r.show())
    check(r.cursor() == -1, "no cursor after the end")


def test_two_players_draw():
    r = two_player((0, 4, 8, 1, 7, 6, 2, 5, 3))
    seen = 0
    for _ in range(6):
        r.run(200)
        seen += r.status(0, "DRAW")
    check(0 < seen < 6, "DRAW shown, blinking")
    check(r.count(4, "D", 1), r.show())


def test_hint_blinks_best_move():
    r = new_1p(LEVELS - 1, "CPU", seed=5)
    check(marks(r) == 1, "the CPU opened:\n" + r.show())
    b = board_of(r)
    r.hold(SELECT, 700)
    hint = r.cursor()
    states = []
    for _ in range(8):
        r.run(125)
        states.append(r.cell(hint))
    check("cursor" in states and "O" in states, "hint blinks: %r" % states)
    check(marks(r) == 1, "a hint places nothing")
    check(hint == engine.best_move(b, engine.O), "the hint is the engine's best move")
    r.run(2000)
    check(r.cell(hint) == "cursor", "blinking stops, the cursor stays on the hint")


def test_undo_takes_back_move_and_reply():
    r = new_1p(LEVELS - 1, "YOU", seed=6)
    r.hold(PREV, 700)
    check(marks(r) == 0, "nothing to undo at the start")
    play_cell(r, 4)
    check(marks(r) == 2, r.show())
    play_cell(r, [i for i in range(9) if r.cell(i) in (".", "cursor")][0])
    check(marks(r) == 4, r.show())
    r.hold(PREV, 700)
    check(marks(r) == 2, "move and reply taken back:\n" + r.show())
    check(r.cell(4) == "X", r.show())
    r.hold(PREV, 700)
    check(marks(r) == 0 and r.cursor() >= 0, r.show())


def test_cpu_opening_is_not_undone():
    r = new_1p(LEVELS - 1, "CPU", seed=7)
    check(marks(r) == 1)
    r.hold(PREV, 700)
    check(marks(r) == 1, "the CPU's opening stays")
    check(no_undo_sign(r), "and the sign says so:\n" + r.show())


def cursor_to(r, cell):
    """Move the cursor to `cell` with NEXT, reading the glass."""
    for _ in range(9):
        if r.cursor() == cell:
            return
        r.click(NEXT)
    raise AssertionError("cursor never reached %d:\n%s" % (cell, r.show()))


def no_undo_sign(r):
    """The "NO UNDO" sign: white on black over the status column's second row."""
    at = r.small("NO UNDO", inverted=True)
    return at is not None and at[0] >= 50 and 9 <= at[1] <= 12


def test_hold_next_then_continue_leaves_the_cursor_where_it_was():
    # NEXT moves the cursor when it goes down; once the press turns into the hold that opens
    # the menu, the cursor goes back, so Continue shows it where the player left it.
    r = new_1p(LEVELS - 1, "YOU", seed=15)
    play_cell(r, 4)
    free = [i for i in range(9) if r.cell(i) in (".", "cursor")]
    cursor_to(r, free[2])
    r.hold(NEXT, 700)
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), r.show())
    r.click(SELECT)  # Continue
    r.run(50)
    check(r.cursor() == free[2], "cursor %d, left on %d:\n%s" % (r.cursor(), free[2], r.show()))
    r.click(NEXT)
    check(r.cursor() == free[3], "and a short press still moves it at once")


def test_undo_leaves_the_cursor_where_it_was():
    r = new_1p(LEVELS - 1, "YOU", seed=16)
    play_cell(r, 4)
    play_cell(r, [i for i in range(9) if r.cell(i) in (".", "cursor")][0])
    check(marks(r) == 4, r.show())
    free = [i for i in range(9) if r.cell(i) in (".", "cursor")]
    cursor_to(r, free[1])
    r.hold(PREV, 700)
    check(marks(r) == 2, "undone:\n" + r.show())
    check(r.cursor() == free[1], "cursor %d, left on %d:\n%s" % (r.cursor(), free[1], r.show()))
    check(not no_undo_sign(r), "no sign when the undo worked")


def test_prev_next_chord_opens_the_menu_and_leaves_the_cursor():
    r = new_1p(LEVELS - 1, "YOU", seed=17)
    play_cell(r, 4)
    free = [i for i in range(9) if r.cell(i) in (".", "cursor")]
    cursor_to(r, free[1])
    r.down(PREV)
    r.run(20)
    r.down(NEXT)
    r.run(100)
    r.up(PREV)
    r.up(NEXT)
    r.run(100)
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), "chord: the menu\n" + r.show())
    r.click(SELECT)
    r.run(50)
    check(r.cursor() == free[1], "cursor %d, left on %d:\n%s" % (r.cursor(), free[1], r.show()))


def test_a_chord_of_two_directions_leaves_the_cursor():
    # On a 5-way pad given a chord, UP then DOWN is not a way there and back: with X on 1,
    # UP from 4 goes to 0 and DOWN from 0 to 3. The chord still leaves the cursor on 4.
    import buttons

    r = Rig(five=True, chords=(buttons.chord_id(buttons.UP, buttons.DOWN),))
    r.run(50)
    r.click(SELECT)
    r.click(buttons.DOWN)
    r.click(SELECT)  # 2 players
    r.run(50)
    r.click(buttons.UP)
    r.click(SELECT)  # X on 1; the cursor steps on to 2
    r.click(buttons.LEFT)
    check(r.cursor() == 4 and r.cell(1) == "X", r.show())
    r.down(buttons.UP)
    r.run(20)
    r.down(buttons.DOWN)
    r.run(100)
    r.up(buttons.UP)
    r.up(buttons.DOWN)
    r.run(100)
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), "chord: the menu\n" + r.show())
    r.click(SELECT)
    r.run(50)
    check(r.cursor() == 4, "cursor %d, left on 4:\n%s" % (r.cursor(), r.show()))


def test_undo_with_nothing_to_undo_shows_a_sign():
    r = new_1p(LEVELS - 1, "YOU", seed=18)
    check(r.status(1, "PERF") and not no_undo_sign(r), r.show())
    r.down(PREV)
    r.run(300)
    check(not no_undo_sign(r), "not before the hold:\n" + r.show())
    r.run(200)
    check(no_undo_sign(r) and not r.status(1, "PERF"), "the sign:\n" + r.show())
    check(r.cursor() == 4, "the cursor went back:\n" + r.show())
    micropython.heap_lock()  # a frame with the sign is drawn without allocating, as any frame
    try:
        r.app.play.draw(r.hw.lcd)
        drawn = True
    except MemoryError:
        drawn = False
    micropython.heap_unlock()
    check(drawn, "drawing the sign allocated")
    r.up(PREV)
    r.run(r.app.play.sign_ms - 400)  # the sign came with the hold, 400 ms (and a poll) in
    check(no_undo_sign(r), "still up:\n" + r.show())
    r.run(400)
    check(not no_undo_sign(r) and r.status(1, "PERF"), "gone again:\n" + r.show())
    # After the end too: the game is counted, so it cannot be taken back.
    play_out(r, first_free)
    check(r.status(0, "LOST"), r.show())
    r.hold(PREV, 700)
    check(no_undo_sign(r) and r.status(0, "LOST"), "after the end:\n" + r.show())
    r.hold(NEXT, 700)  # to the menu: the sign does not follow
    check(not r.small("NO UNDO", True), r.show())


def test_presses_during_cpu_turn_are_ignored():
    r = new_1p(LEVELS - 1, "YOU", seed=8)
    r.app.play.think_ms = 0  # every search is announced: a frame in which the CPU is to move
    r.down(SELECT)
    r.run(80)
    r.up(SELECT)
    # One step: the click places X and the frame shows it with the thinking indicator.
    r.app.step(r.now)
    r.sync()
    check(r.status_after_glyph(0, "..."), "thinking shown:\n" + r.show())
    check(marks(r) == 1)
    r.down(NEXT)  # pressed while the CPU is to move
    r.down(SELECT)
    r.run(10)
    check(marks(r) == 2, "the CPU replied")
    cursor = r.cursor()
    r.run(200)
    r.up(NEXT)
    r.up(SELECT)
    r.run(200)
    check(marks(r) == 2 and r.cursor() == cursor, "nothing queued:\n" + r.show())
    r.click(NEXT)
    check(r.cursor() != cursor, "the next press works")


def test_settings_screen():
    r = Rig()
    to_menu(r)
    menu_to(r, 4)
    r.click(SELECT)
    check(r.text_at("Contr", 1, 0, True) and r.menu_row(0), r.show())
    with open(r.path) as f:
        saved = f.read()
    vop = r.model.vop
    check(vop == 60, "contrast from settings: %d" % vop)
    r.click(SELECT)  # adjust contrast
    check(r.text_at("<", 43, 0, True), "arrows while adjusting:\n" + r.show())
    for _ in range(3):
        r.click(NEXT)
    check(r.model.vop == 63, "live preview: Vop %d" % r.model.vop)
    r.click(PREV)
    check(r.model.vop == 62)
    r.click(SELECT)  # done adjusting
    r.click(NEXT)
    check(r.menu_row(1))
    check(r.model.backlight is True)
    r.click(SELECT)
    check(r.model.backlight is False, "backlight off at once")
    with open(r.path) as f:
        check(f.read() == saved, "nothing written while on the screen")
    for _ in range(4):
        r.click(NEXT)
    check(r.menu_row(5))
    r.click(SELECT)  # Back
    check(r.text_at("Settings", 1, 32, True) and r.menu_row(4), "back on the menu")
    with open(r.path) as f:
        text = f.read()
    check('"contrast": 62' in text and '"backlight": false' in text, text)


def rig_with(**values):
    """A Rig started on a settings file that already holds `values` (as a device would boot
    with scores and timers saved by an earlier session)."""
    import settings

    path = FOLDER + "/settings.json"
    remove(path)
    s = settings.Settings.load(path)
    for key in values:
        s.set(key, values[key])
    s.save()
    return Rig(path, fresh=False)


def to_reset_row(r):
    """From the main menu: open Settings and highlight its Reset scores row (CLR)."""
    paused = r.text_at("Continue", 1, 0, True) or r.text_at("Continue", 1, 0)
    menu_to(r, 5 if paused else 4)
    r.click(SELECT)
    menu_to(r, 4)
    check(r.text_at("CLR", 84 - 24, 32, True), "Reset row shows CLR:\n" + r.show())


def settings_back(r):
    """From Settings: Back to the main menu."""
    menu_to(r, 5)
    r.click(SELECT)
    check(r.text_at("Settings", 1, 32, True) or r.text_at("Settings", 1, 40, True), r.show())


def test_reset_scores_needs_confirmation():
    r = new_1p(LEVELS - 1, "YOU", seed=9)
    play_out(r, first_free)
    check(r.count(4, "L", 1))
    r.click(SELECT)
    r.run(50)
    r.hold(NEXT, 700)  # to the menu
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), r.show())
    to_reset_row(r)
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 32, True), r.show())
    # One press only asks: back in the game the loss is still counted. (Checking only after
    # the second press could not tell whether the first one had already cleared.)
    settings_back(r)
    menu_to(r, 0)
    r.click(SELECT)  # Continue
    check(r.count(4, "L", 1), "one press clears nothing:\n" + r.show())
    r.hold(NEXT, 700)
    to_reset_row(r)
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 32, True), r.show())
    r.click(SELECT)
    check(r.text_at("CLR", 84 - 24, 32, True), "asked and done:\n" + r.show())
    check(r.settings.get("tally1") == (0, 0, 0))
    settings_back(r)
    menu_to(r, 0)
    r.click(SELECT)  # Continue
    check(r.count(4, "L", 0), "reset shown in the game:\n" + r.show())


def test_moving_off_reset_cancels_the_question():
    r = rig_with(tally1=(2, 1, 3), starts=0)
    to_menu(r)
    to_reset_row(r)
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 32, True), r.show())
    r.click(NEXT)  # away to Back...
    check(r.menu_row(5), r.show())
    check(r.text_at("CLR", 84 - 24, 32), "moving away cancels the question:\n" + r.show())
    r.click(PREV)  # ...and back: the next press asks again, it does not clear
    check(r.text_at("CLR", 84 - 24, 32, True), r.show())
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 32, True), "asked again:\n" + r.show())
    settings_back(r)
    menu_to(r, 0)
    r.click(SELECT)  # 1P vs CPU
    r.run(50)
    check(r.count(2, "W", 2) and r.count(3, "D", 1), "scores kept:\n" + r.show())
    check(r.count(4, "L", 3), "scores kept:\n" + r.show())


def test_demo_starts_when_idle_and_stops_at_a_press():
    random.seed(11)
    r = Rig()
    r.run(r.app.title.demo_after_ms - 500)
    check(r.text_at("OXO 5110", 10, 21))
    r.run(1000)
    check(r.status(0, "DEMO"), "demo started:\n" + r.show())
    r.run(3000)
    n = marks(r)
    check(n >= 3, "the demo plays:\n" + r.show())
    r.click(PREV)
    check(r.text_at("OXO 5110", 10, 21), "a press stops the demo:\n" + r.show())
    r.run(100)
    check(r.text_at("OXO 5110", 10, 21), "and does nothing else")


def test_power_saving_and_wake():
    r = new_1p(LEVELS - 1, "YOU", seed=12)
    play_cell(r, 4)
    picture = r.model.glass()
    cursor = r.cursor()
    dim = r.settings.get("dim_s") * 1000
    r.run(dim - 100)
    check(r.model.backlight is True)
    r.run(200)
    check(r.model.backlight is False, "backlight off after dim_s")
    r.click(NEXT)
    check(r.model.backlight is True and r.cursor() == cursor, "the press only lit it")
    r.run(r.settings.get("sleep_s") * 1000)
    check(r.model.powered_down and r.blank(), "display powered down")
    dozed = r.dozed
    r.run(5000)
    check(r.dozed - dozed >= 4000, "the board dozes")
    r.down(SELECT)
    r.run(60)
    check(not r.model.powered_down and r.model.backlight is True, "awake")
    r.run(700)  # held long enough to be a hint, were it not the waking press
    r.up(SELECT)
    r.run(100)
    check(r.model.glass() == picture, "the same screen, nothing acted:\n" + r.show())
    r.click(SELECT)
    check(marks(r) == 4, "and the game goes on")


def test_sleep_during_the_demo_wakes_on_the_title():
    random.seed(13)
    r = rig_with(sleep_s=20)  # asleep 5 s into the demo
    r.run(r.app.title.demo_after_ms + 1000)
    check(r.status(0, "DEMO"), "demo started:\n" + r.show())
    r.run(20000 - r.app.title.demo_after_ms)
    check(r.model.powered_down and r.blank(), "asleep")
    r.click(NEXT)  # only wakes the display
    check(not r.model.powered_down, "awake")
    check(r.text_at("OXO 5110", 10, 21), "the title, not the demo:\n" + r.show())
    check(not r.status(0, "DEMO"), r.show())
    r.run(1000)
    check(r.text_at("OXO 5110", 10, 21), "and it stays there:\n" + r.show())


def test_no_demo_while_a_paused_game_waits():
    r = new_1p(LEVELS - 1, "YOU", seed=14)
    play_cell(r, 4)
    board = board_of(r)
    r.hold(NEXT, 700)  # pause: to the menu
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), r.show())
    r.run(r.app.title.demo_after_ms + 2000)
    check(not r.status(0, "DEMO"), "no demo over a paused game:\n" + r.show())
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), "menu stays:\n" + r.show())
    r.click(SELECT)  # Continue
    r.run(50)
    check(board_of(r) == board and r.cursor() >= 0, "the game is as it was:\n" + r.show())


def test_sleep_turns_the_backlight_off_even_without_dimming():
    r = rig_with(dim_s=0, sleep_s=20)
    to_menu(r)
    menu_to(r, 1)
    r.click(SELECT)  # a two-player game: nothing moves by itself
    r.run(20000 - 500)
    check(r.model.backlight is True and not r.model.powered_down, "dim_s = 0: never dimmed")
    r.run(1000)
    check(r.model.powered_down and r.blank(), "asleep after sleep_s")
    check(r.model.backlight is False, "asleep, the backlight is off too")
    r.down(SELECT)
    r.run(60)
    check(not r.model.powered_down and r.model.backlight is True, "awake and lit")
    r.up(SELECT)
    r.run(100)
    check(r.cursor() == 4 and marks(r) == 0, "the waking press placed nothing")


def test_five_way_pad_moves_by_direction():
    r = Rig(five=True)
    import buttons

    r.run(50)
    r.click(SELECT)
    r.click(buttons.DOWN)
    check(r.menu_row(1), r.show())
    r.click(SELECT)  # 2 players
    r.run(50)
    check(r.cursor() == 4)
    r.click(buttons.RIGHT)
    check(r.cursor() == 5)
    r.click(buttons.UP)
    check(r.cursor() == 2)
    r.click(buttons.RIGHT)
    check(r.cursor() == 0, "wraps around")
    r.click(SELECT)
    check(r.cell(0) == "X" and r.cursor() == 1, "the cursor leaves the taken cell")
    r.click(buttons.DOWN)
    check(r.cursor() == 4)
    r.click(buttons.LEFT)
    check(r.cursor() == 3)


mptest.run(globals())
