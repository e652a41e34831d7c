# play.py: whole games on the board screen, read off the glass (the controller model).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import engine
import micropython
import mptest
from appplay import (
    LEVELS,
    board_of,
    cursor_to,
    first_free,
    marks,
    new_1p,
    no_undo_sign,
    perfect,
    play_cell,
    play_out,
    two_player,
)
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp
from mptest import check
from screen import PLAY


def test_full_game_at_each_level():
    for level in range(LEVELS):
        r = new_1p(level, "YOU", seed=level)
        check(r.status_after_glyph(0, "YOU"), "your turn shown:\n" + r.show())
        label = engine.LEVELS[level]
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


def test_undo_takes_back_move_and_reply_and_puts_the_cursor_on_the_move():
    # Wherever the cursor was, it lands on the cell of the player's own move undone: the one
    # the player most likely wants to play again differently, and it shows what was undone.
    r = new_1p(LEVELS - 1, "YOU", seed=16)
    play_cell(r, 4)
    check(marks(r) == 2, r.show())
    mine = [i for i in range(9) if r.cell(i) in (".", "cursor")][0]
    play_cell(r, mine)
    check(marks(r) == 4, r.show())
    free = [i for i in range(9) if r.cell(i) in (".", "cursor")]
    cursor_to(r, free[1])
    r.hold(PREV, 700)
    check(marks(r) == 2 and r.cell(4) == "X", "move and reply taken back:\n" + r.show())
    check(r.cursor() == mine, "cursor %d, undone %d:\n%s" % (r.cursor(), mine, r.show()))
    check(not no_undo_sign(r), "no sign when the undo worked")
    r.hold(PREV, 700)
    check(marks(r) == 0 and r.cursor() >= 0, r.show())


def test_a_hold_of_next_or_the_chord_to_the_menu_then_continue_leaves_the_cursor():
    # NEXT moves the cursor when it goes down; once the press turns into the hold that opens
    # the menu, the cursor goes back, so Continue shows it where the player left it.
    for way in ("hold", "chord"):
        r = new_1p(LEVELS - 1, "YOU", seed=15)
        play_cell(r, 4)
        free = [i for i in range(9) if r.cell(i) in (".", "cursor")]
        cursor_to(r, free[2])
        if way == "hold":
            r.hold(NEXT, 700)
        else:
            r.run(r.chord(PREV, NEXT, 100, 0))
            r.run(100)
        check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), way + ":\n" + r.show())
        r.click(SELECT)  # Continue
        r.run(50)
        where = "%s: cursor %d, left on %d:\n%s" % (way, r.cursor(), free[2], r.show())
        check(r.cursor() == free[2], where)
        r.click(NEXT)
        check(r.cursor() == free[3], way + ": and a short press still moves it at once")


def test_a_chord_of_two_directions_leaves_the_cursor():
    # On a 5-way pad given a chord, UP then DOWN is not a way there and back: with X on 1,
    # UP from 4 goes to 0 and DOWN from 0 to 3. The chord still leaves the cursor on 4.
    import buttons

    r = HostApp("fiveway")
    r.board().CHORDS = (buttons.chord_id(buttons.UP, buttons.DOWN),)
    r.start()
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
    check(r.cursor() == 4, "a hold that can only say NO UNDO moves nothing:\n" + r.show())
    r.run(200)
    check(no_undo_sign(r) and not r.status(1, "PERF"), "the sign:\n" + r.show())
    check(r.cursor() == 4 and marks(r) == 0, "nothing moved nor taken back:\n" + r.show())
    micropython.heap_lock()  # a frame with the sign is drawn without allocating, as any frame
    try:
        r.app.screens[PLAY].draw(r.hw.lcd)
        drawn = True
    except MemoryError:
        drawn = False
    micropython.heap_unlock()
    check(drawn, "drawing the sign allocated")
    r.up(PREV)
    r.run(r.app.screens[PLAY].sign_ms - 400)  # the sign came with the hold, 400 ms (and a poll) in
    check(no_undo_sign(r), "still up:\n" + r.show())
    r.run(400)
    check(not no_undo_sign(r) and r.status(1, "PERF"), "gone again:\n" + r.show())
    check(r.cursor() == 4, "nor after the hold:\n" + r.show())
    r.down(PREV)  # a short press with nothing to undo moves the cursor when it comes up
    r.run(100)
    check(r.cursor() == 4, "not while down:\n" + r.show())
    r.up(PREV)
    r.run(100)
    check(r.cursor() == 3, "on release:\n" + r.show())
    # After the end too: the game is counted, so it cannot be taken back.
    play_out(r, first_free)
    check(r.status(0, "LOST"), r.show())
    r.hold(PREV, 700)
    check(no_undo_sign(r) and r.status(0, "LOST"), "after the end:\n" + r.show())
    r.hold(NEXT, 700)  # to the menu: the sign does not follow
    check(not r.small("NO UNDO", True), r.show())


def test_presses_during_cpu_turn_are_ignored():
    r = new_1p(LEVELS - 1, "YOU", seed=8)
    r.app.screens[PLAY].think_ms = 0  # every search announced: a frame in which the CPU is to move
    r.down(SELECT)
    r.run(80)
    r.up(SELECT)
    # One step: the click places X and the frame shows it with the thinking indicator.
    r.app.step(r.now)
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


def test_five_way_pad_moves_by_direction():
    r = HostApp("fiveway", alone=True)
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
