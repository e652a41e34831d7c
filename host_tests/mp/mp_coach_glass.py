# The coach's marks, read back off the glass, for every position a game can go on from.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=1024k paths={hostboard}
# The real app in a two-player game (both sides are
# human, so every position shows the marks) is put in each position, steps once to draw it, and
# the glass (the controller model, fed what the driver sent) is read cell by cell with the small
# font (glass.coach_mark) and held against engine.root_scores, restated here as marks.
import engine
import gameboard
import mptest
from appplay import coach_game, mark_of
from mptest import check
from positions import GOING_ON, going_on
from screen import PLAY


def expected(board, player):
    """Per cell: None if taken, else (mark, boxed) from root_scores; the best are boxed unless
    every move scores the same."""
    scores = engine.root_scores(board, player)
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


def test_a_wrong_mark_is_caught():
    r = coach_game(1)
    import coach  # the App's: a HostApp starts the firmware from nothing

    board = gameboard.pack((1, 1, 0, 2, 2, 0, 0, 0, 0))  # X to move: cell 2 wins at once
    right = coach.mark

    def off_by_one(value):
        return b"W2" if right(value) == b"W1" else right(value)

    coach.mark = off_by_one
    try:
        bad = wrong(r, board, 4, 0)
    finally:
        coach.mark = right
    check([cell for cell, _, _ in bad] == [2], repr(bad))
    check(not wrong(r, board, 4, 0), "right again")


mptest.run(globals())
