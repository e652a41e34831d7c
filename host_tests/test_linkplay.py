"""Link play between two whole apps (issue 27): two boards, each the firmware's App under the
MicroPython unix port on the host board's stand-ins, stepped together with this process as
their cable (testbed/linktwin.py), both glasses read back."""

import random

import linkgame as lg
import pytest
from linkpair import CELLS, expected, frame
from linktwin import Twin

LOST_MS = 2000  # linkgame.LOST_MS: the "noticed within 2 s"


@pytest.fixture
def paths(hostboard, mp_path):
    return (hostboard, *mp_path)


@pytest.fixture
def t(paths):
    """Two boards from their titles to link play, found each other (to_link_play)."""
    with Twin(paths) as twin:
        to_link_play(twin)
        yield twin


def to_link_play(t):
    # From the title: a key to the menu, PREV to its last row ("Link play"), SELECT; the two
    # find each other.
    for name in "ab":
        t.press(name, "SELECT", "PREV")
    for name in "ab":
        t.press(name, "SELECT")
    t.run(600)
    assert not t.read("a", "h.shows('waiting')") and not t.read("b", "h.shows('waiting')")


def other(name):
    return "b" if name == "a" else "a"


def screen_says(t, name, *words):
    return all(t.read(name, "h.shows(%r)" % w) for w in words)


def at_menu(t, name):
    """Board `name` shows the main menu, its Link play row highlighted."""
    return t.read(name, "h.shows('Link play', True)")


def no_link(t, name):
    return t.read(name, "h.small('NO LINK', True) is not None")


def mover(t, patience_ms=5000):
    """The board whose player is to move: its glass says YOU (once a move sent again has
    arrived, on a spoiled wire)."""
    for _ in range(patience_ms // 100):
        turns = [name for name in "ab" if t.read(name, "h.status_after_glyph(0, 'YOU')")]
        if turns:
            assert len(turns) == 1, "YOU on both boards"
            return turns[0]
        t.run(100)
    raise AssertionError(
        "YOU on neither board:\n%s\n%s" % (t.read("a", "h.screen()"), t.read("b", "h.screen()"))
    )


def place(t, cell):
    """The player to move puts their mark on `cell`: NEXT until the cursor is on it, SELECT."""
    name = mover(t)
    for _ in range(9):
        if t.read(name, "h.cursor()") == cell:
            break
        t.press(name, "NEXT")
    t.press(name, "SELECT")
    return name


def cells(t, name):
    """The nine cells as board `name`'s glass shows them, read between the blinks of a
    winning line (which crosses the marks)."""
    for _ in range(60):
        shown = t.read(name, "[h.cell(i) for i in range(9)]")
        if "?" not in shown:
            return "".join(shown).replace("cursor", ".")
        t.run(20)
    raise AssertionError("cells unreadable on %s" % name)


def tally(t, name):
    return t.read(name, "h.app.settings.get('tally_link')")


def test_a_drawn_game_and_a_won_rematch_show_on_both_glasses(t):
    x = mover(t)
    o = other(x)
    assert t.read(o, "h.status(1, 'LINK')")
    for k, cell in enumerate(CELLS):
        assert place(t, cell) == (x if k % 2 == 0 else o)
        t.run(100)
        assert cells(t, "a") == cells(t, "b") == expected(CELLS[: k + 1]), k
    assert tally(t, "a") == tally(t, "b") == (0, 1, 0)  # W D L: a draw on both
    assert t.read("a", "h.count(4, 'L', 0)") and t.read("b", "h.count(3, 'D', 1)")
    # The next game: ready on a only (READY shows), then on b too; O starts it.
    t.press("a", "SELECT")
    assert t.read("a", "h.small('READY', True) is not None")
    t.press("b", "SELECT")
    t.run(300)
    assert mover(t) == o
    for cell in (0, 3, 1, 4, 2):  # o's player, X now, wins on the top row
        place(t, cell)
        t.run(100)
    assert t.read(o, "h.shows('WIN!')") or (t.run(400) or t.read(o, "h.shows('WIN!')"))
    assert tally(t, o) == (1, 1, 0) and tally(t, x) == (0, 1, 1)


def test_the_cable_pulled_is_said_within_2_s_and_the_game_goes_on_when_it_is_back(t):
    place(t, 4)
    t.run(200)
    t.pulled = True
    t.run(LOST_MS + 100)
    assert [no_link(t, name) for name in "ab"] == [True, True]
    t.pulled = False
    t.run(800)
    assert [no_link(t, name) for name in "ab"] == [False, False]
    for cell in CELLS[1:]:
        place(t, cell)
        t.run(100)
    assert cells(t, "a") == cells(t, "b") == expected(CELLS)


def test_noise_and_a_repl_banner_on_the_wire_change_nothing(paths):
    rng = random.Random(5110)
    banner = b"MicroPython v1.28.0 on 2026-01-01; Raspberry Pi Pico with RP2040\r\n>>> "

    def noisy(end, data):
        # Now and then a burst of up to 20 random bytes before what was sent: it spoils the
        # frame it runs into (no zero byte ends it), which is sent again.
        if rng.random() < 0.7:
            return data
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(20))) + data

    with Twin(paths) as t:
        t.ask("b", "feed " + banner.hex())
        to_link_play(t)
        t.fault = noisy
        for cell in CELLS:
            place(t, cell)
            t.run(100)
        assert cells(t, "a") == cells(t, "b") == expected(CELLS)


def test_a_board_that_resets_is_noticed_within_2_s_and_its_old_game_ends(t):
    place(t, 4)
    t.run(200)
    t.power_on("b")  # b resets: its game and its link are gone
    t.run(LOST_MS + 100)
    assert no_link(t, "a")
    t.run(300)
    t.press("b", "SELECT", "PREV", "SELECT")  # b to link play again: another board to a
    t.run(600)
    assert screen_says(t, "a", "board has", "left.")
    assert screen_says(t, "b", "waiting")
    t.run(4000)  # b's greetings go on: a still goes to the menu 4 s after saying so
    assert at_menu(t, "a")


def test_a_cable_pulled_for_a_minute_ends_the_game_on_both(t):
    place(t, 4)
    t.pulled = True
    t.run(lg.GONE_MS + 200)
    for name in "ab":
        assert screen_says(t, name, "board has", "left."), name
    t.pulled = False
    t.run(500)  # back too late: nothing changes
    for name in "ab":
        assert screen_says(t, name, "board has", "left."), name
    t.run(3500)  # said for 4 s, then the menu by itself
    for name in "ab":
        assert at_menu(t, name), name
        assert t.read(name, "machine.UARTS[0].baudrate") == 0, name


def test_another_protocol_version_is_one_clear_line(paths):
    with Twin(paths) as t:
        for name in "ab":
            t.press(name, "SELECT", "PREV")
        t.press("b", "SELECT")  # only b goes to link play; v2 HELLOs come in
        hello = frame(2, 1, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0)
        t.ask("b", "feed " + hello.hex())
        t.run(100)
        assert screen_says(t, "b", "link v2,", "this v%d." % lg.VERSION)
        t.press("b", "NEXT")  # a click: the menu
        assert at_menu(t, "b")


def test_a_forged_move_onto_a_taken_cell_is_refused_and_never_applied(t):
    x = place(t, 4)
    t.run(300)
    place(t, 0)  # O on 0; X to move: a move from O's board now is out of turn
    t.run(300)
    before = cells(t, x)
    # From O's side (seq 9), onto taken cell 4, with a position that would fit it.
    t.ask(x, "feed " + frame(lg.VERSION, 2, 9, 4, 3, 0, 0, 0).hex())
    t.run(300)
    assert cells(t, x) == before and mover(t) == x  # nothing applied, still X's turn
    place(t, 8)
    t.run(300)
    assert cells(t, "a") == cells(t, "b")


def test_two_positions_that_disagree_are_said_on_both_and_go_to_the_menu(t):
    x = mover(t)
    o = other(x)
    # A move said to come from X's board, its position not what O's board would make of
    # it (an O in the cell where an X was played).
    t.ask(o, "feed " + frame(lg.VERSION, 2, 1, 0, 1, 0, 0, 2).hex())
    t.run(500)
    for name in "ab":
        assert screen_says(t, name, "disagree:", "stopped."), name
    assert t.read(o, "h.app.shared.game.board") == 0  # nothing of it applied
    t.press("a", "SELECT")  # a click: the menu at once
    assert at_menu(t, "a")
    assert screen_says(t, "b", "disagree:")
    t.run(4000)  # b's player did nothing: the menu by itself after 4 s
    assert at_menu(t, "b")


def test_the_waiting_screen_goes_back_with_next(paths):
    with Twin(paths) as t:
        t.press("a", "SELECT", "PREV", "SELECT")
        t.run(1000)
        assert screen_says(t, "a", "waiting", "NEXT: back")
        t.press("a", "NEXT")
        assert at_menu(t, "a")
        # Nothing of the link is left loaded (the App let it go with its screen).
        modules = "[m for m in __import__('sys').modules if m.startswith('link') or m == 'review']"
        assert t.read("a", modules) == []
        assert t.read("a", "machine.UARTS[0].baudrate") == 0  # the cable's UART stopped


def test_a_link_game_dims_but_never_sleeps(paths):
    with Twin(paths) as t:
        for name in "ab":
            t.read(name, "h.app.settings.set('dim_s', 1)")
            t.read(name, "h.app.settings.set('sleep_s', 2)")
        to_link_play(t)
        t.run(3000)
        for name in "ab":
            assert t.read(name, "h.app.power.state") == 1, name  # power.DIM, not ASLEEP
        t.press("a", "SELECT")  # the first press only wakes the dimmed display
        t.press("a", "NEXT", ms=700)  # the menu: there the board may sleep again
        t.run(2500)
        assert t.read("a", "h.app.power.state") == 2  # power.ASLEEP


def test_the_coach_and_the_review_work_on_each_board_for_its_own_player(paths):
    with Twin(paths) as t:
        t.read("a", "h.app.settings.set('coach', True)")  # a's player has the Coach on
        to_link_play(t)
        x = mover(t)
        o = other(x)
        # Each free cell's Coach mark, the cursor's cell left out (the cursor is drawn over it).
        read = "[h.coach_mark(i)[0] for i in %r if i != h.cursor()]"
        for k, cell in enumerate(CELLS):
            name = mover(t)
            free = [i for i, c in enumerate(expected(CELLS[:k])) if c == "."]
            marks = t.read(name, read % free)
            if name == "a":  # the Coach's marks on a's turn, every free cell scored
                assert len(marks) == len(free) - 1 and all(marks), (k, marks)
            else:
                assert not any(marks), marks  # b's player plays without
            place(t, cell)
            t.run(100)
        # The review, on a: the game's moves, whose (YOU or THEM); b's link is not lost.
        t.press("a", "SELECT", ms=700)  # held
        t.run(100)
        assert t.read("a", "h.small('YOU' if %r == 'a' else 'THEM') is not None" % x)
        t.press("a", "NEXT")
        assert t.read("a", "h.small('YOU' if %r == 'a' else 'THEM') is not None" % o)
        t.run(3000)
        assert not no_link(t, "b")
        t.press("a", "SELECT")  # back to the result, then a rematch from both
        t.run(100)
        assert t.read("a", "h.status(0, 'DRAW')") or (
            t.run(400) or t.read("a", "h.status(0, 'DRAW')")
        )
        for name in "ab":
            t.press(name, "SELECT")
        t.run(300)
        assert mover(t) == o


def heard(t, name):
    """The frequencies board `name`'s buzzer started since the last call (sound.py's notes)."""
    return [hz for _, hz, duty in t.read(name, "machine.PWMS[0].take()") if 0 < duty < 65535]


def test_sounds_as_in_a_game(t):
    place_hz, other_hz, draw_hz = 2093, 3520, 2637  # the first notes of PLACE, CPU, DRAW
    for k, cell in enumerate(CELLS):
        name = mover(t)
        heard(t, "a"), heard(t, "b")
        place(t, cell)
        t.run(300)
        if k < len(CELLS) - 1:
            assert place_hz in heard(t, name)  # the player's own mark
            assert other_hz in heard(t, other(name))  # the other's, as a CPU's in a game
    assert draw_hz in heard(t, "a") and draw_hz in heard(t, "b")


def test_no_undo_over_the_cable_and_prev_moves_on_its_click(t):
    x = mover(t)
    assert t.read(x, "h.cursor()") == 4
    t.press(x, "PREV", ms=700)  # held
    assert t.read(x, "h.small('NO UNDO', True) is not None")
    assert t.read(x, "h.cursor()") == 4  # the hold did not move it
    t.press(x, "PREV")
    assert t.read(x, "h.cursor()") == 3


def test_a_player_who_leaves_is_said_at_once_on_the_other_board(t):
    x = place(t, 4)
    t.run(200)
    t.press(x, "NEXT", ms=700)  # held: x's player goes to the menu mid-game
    # Within the hold's gap: no minute of NO LINK.
    assert screen_says(t, other(x), "board has", "left.")
    t.run(4000)
    assert at_menu(t, other(x))
