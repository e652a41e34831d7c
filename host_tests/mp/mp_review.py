# review.py: a finished game's review, read off the glass (the controller model) step by step
# against gameboard.root_scores; a session through it and out of it; its heap; its goldens.
# SPDX-License-Identifier: MIT
import builtins
import sys

import engine
import gameboard
import glasstext
import mptest
from appheap import heap_over
from appplay import first_free, line_on, mark_of, marks, new_1p, play_out, two_player, until
from buttons import NEXT, PREV, SELECT
from hostapp import read
from mptest import check
from positions import best_score, result_after, sign
from screen import REVIEW

STATUS_X = 52
# Two 2P games whose steps between them cost every way a move can (the check below says so).
GAMES = ((2, 1, 4, 0, 7, 8, 5, 6, 3), (1, 8, 0, 5, 6, 2))
RESULTS = {1: "WIN", 0: "DRAW", -1: "LOSS"}


def scores(board):
    return gameboard.root_scores(board, gameboard.to_move(board))


def said(before, after, best):
    """What the status column says of a move: (verdict, result kept, what became of it)."""
    if before != after:
        return "MISTAKE", RESULTS[before], ">" + RESULTS[after]
    if best:
        return "BEST", RESULTS[before], ""
    return "OK", RESULTS[before], "SLOWER" if before > 0 else "SOONER"


def step_shown(r, moves, k, who=None):
    """Check that the glass shows step k of the game `moves` as the review must, with the move
    on, then off; return (before, after, best) as gameboard.root_scores has them. `who`:
    "YOU"/"CPU" in a one-player game."""
    board = 0
    for j in range(k):
        board |= (engine.O if j & 1 else engine.X) << 2 * moves[j]
    mover = gameboard.to_move(board)
    cell = moves[k]
    values = scores(board)
    best = best_score(board)
    key = (sign(best), result_after(board, cell), values[cell] == best)
    # The best are boxed unless every move scores the same (coach.Coach.boxed).
    boxed = min(v for v in values if v is not None) < best
    until(r, lambda: r.cell(cell) != "cursor", "the move played on", None, 20)
    where = "step %d of %s:\n%s" % (k + 1, moves, r.show())
    # The position before the move, the move played on, the other moves' marks.
    for i in range(9):
        if board >> 2 * i & 3:
            check(r.cell(i) == "XO"[(board >> 2 * i & 3) - 1], "cell %d: %s" % (i, where))
        elif i == cell:
            check(r.cell(i) == "XO"[mover - 1], "the move on cell %d: %s" % (i, where))
        else:
            want = (mark_of(values[i]), boxed and values[i] == best, False)
            check(r.coach_mark(i) == want, "cell %d, not %r: %s" % (i, want, where))
    text = "%d/%d" % (k + 1, len(moves))
    check(r.text_at(text, STATUS_X + 8, 0), "%s: %s" % (text, where))
    verdict, kept, became = said(*key)
    glass = r.glass()
    at = glasstext.find(glass, verdict, verdict == "MISTAKE", (STATUS_X, 11, 32, 6))
    check(at == (STATUS_X, 11), verdict + ": " + where)
    check(glasstext.find(glass, kept, False, (STATUS_X, 22, 32, 6)) is not None, kept + where)
    if became:
        at = glasstext.find(glass, became, False, (STATUS_X, 29, 32, 6))
        check(at is not None, became + ": " + where)
    else:
        check(r.dark(STATUS_X, 29, 32, 6) == 0, "nothing became of it: " + where)
    if who is not None:
        check(glasstext.find(glass, who, False, (STATUS_X, 41, 32, 6)) is not None, who + where)
    # Off: the move's own mark in white on black, still framed if it was best.
    until(r, lambda: r.cell(cell) == "cursor", "the move off", None, 20)
    want = (mark_of(values[cell]), boxed and key[2], True)
    check(r.coach_mark(cell) == want, "its mark, not %r: %s" % (want, r.show()))
    return key


def finished_2p(moves):
    r = two_player(moves)
    check(r.app.shared.game.over(), "not over:\n" + r.show())
    return r


def test_every_step_of_games_that_cost_every_way_read_off_the_glass():
    seen = set()
    for moves in GAMES:
        r = finished_2p(moves)
        r.hold(SELECT)  # "ask the coach": the review, at the first move
        for k in range(len(moves)):
            if k:
                r.click(NEXT)
            seen.add(step_shown(r, moves, k))
    check(len(seen) == 8, "every kind of cost, by root_scores: %r" % (sorted(seen),))


def test_golden_steps():
    moves = GAMES[0]
    r = finished_2p(moves)
    r.hold(SELECT)
    r.click(NEXT)
    r.run(400)  # the mistake (the second move), its mark white on black
    check(r.small("MISTAKE", True) is not None, r.show())
    r.snap("review_mistake")
    r.click(NEXT)  # the third, a best move, played on
    check(r.small("BEST") is not None and r.cell(moves[2]) == "X", r.show())
    r.snap("review_best")
    for _ in range(len(moves)):
        r.click(NEXT)
    check(r.text_at("%d/%d" % (len(moves), len(moves)), STATUS_X + 8, 0), r.show())
    r.snap("review_last")


def loaded():
    return [name for name in ("review", "coach") if name in sys.modules]


class Imports:
    """Records the names imported while it is on (builtins.__import__ wrapped: app.App's
    _load imports a screen's module by name)."""

    def __init__(self):
        self.names = []
        self.real = builtins.__import__
        builtins.__import__ = self.spy

    def spy(self, name, *args):
        self.names.append(name)
        return self.real(name, *args)

    def off(self):
        builtins.__import__ = self.real
        return [name for name in ("review", "coach") if name in self.names]


def test_a_session_in_and_out_of_the_review():
    # A one-player game that the first free cell loses against "perfect" (you start).
    r = new_1p(engine.LEVELS.index("PERF"), "YOU", seed=21)
    imports = Imports()
    play_out(r, first_free)
    check(r.status(0, "LOST"), r.show())
    r.run(1000)  # the result blinks
    got = imports.off()
    check(not got and not loaded(), "a game never reviewed loads %r" % got)
    game = r.app.shared.game
    moves = bytes(game.moves[: game.count])
    n = len(moves)
    imports = Imports()
    r.hold(SELECT)
    check(type(r.app.screen).__name__ == "Review", r.show())
    check(imports.off() == ["review", "coach"], "the review loads itself and the coach")
    step_shown(r, moves, 0, "YOU")
    r.click(PREV)  # nothing before the first move
    step_shown(r, moves, 0, "YOU")
    for k in range(1, n):
        r.click(NEXT)
        step_shown(r, moves, k, "CPU" if k & 1 else "YOU")
    r.click(NEXT)  # nothing after the last
    step_shown(r, moves, n - 1, "CPU" if n & 1 == 0 else "YOU")
    r.hold(SELECT)  # a hold of SELECT does nothing here
    r.hold(PREV)  # nor one of PREV (its press stepped back once)
    step_shown(r, moves, n - 2, "CPU" if n & 1 else "YOU")
    r.click(SELECT)  # back to the result, blinking
    check(r.status(0, "LOST") and type(r.app.screen).__name__ == "Play", r.show())
    line = game.line
    seen = set()
    for _ in range(6):
        seen.add(line_on(r, line))
        r.run(200)
    check(seen == {0, 1}, "the result blinks again: %r" % (seen,))
    check(r.app.screens[REVIEW] is None and not loaded(), "let go: %r" % loaded())
    check(r.count(4, "L", 1), "counted once:\n" + r.show())
    imports = Imports()
    r.hold(SELECT)  # reviewed again: loaded again
    check(type(r.app.screen).__name__ == "Review" and imports.off() == ["review", "coach"])
    r.click(SELECT)
    r.click(SELECT)  # a click on the result: the next game
    check(r.app.shared.game.count <= 1 and marks(r) <= 1, r.show())


def test_the_menu_hold_and_the_chord_leave_the_review_for_the_menu():
    for chord in (False, True):
        r = finished_2p(GAMES[1])
        r.hold(SELECT)
        r.click(NEXT)
        if chord:
            r.run(r.chord(PREV, NEXT, 100, 0))
            r.run(100)
        else:
            r.hold(NEXT)
        check(type(r.app.screen).__name__ == "MainMenu", r.show())
        check(r.text_at("2 Players", 1, 8, True), "another game like it offered:\n" + r.show())
        check(r.app.screens[REVIEW] is None and not loaded(), "let go: %r" % loaded())


def test_the_move_blinks_when_due_says_and_the_result_is_saved_meanwhile():
    # due() is when the glass next changes (the App saves only in a gap it leaves): the move
    # played turns into its mark then and not before. The result of the game just finished,
    # counted as it ended, reaches the file while the review shows.
    import json

    r = finished_2p(GAMES[1])
    r.hold(SELECT)  # at once: the save is still waiting for a quiet gap
    screen = r.app.screen
    cell = GAMES[1][0]
    for _ in range(4):
        letter = r.cell(cell)
        due = screen.due(r.now)
        check(0 < due <= 400, "due %d" % due)
        r.run(due - 10)
        check(r.cell(cell) == letter, "changed before due:\n" + r.show())
        r.run(20)
        check(r.cell(cell) != letter, "not changed when due:\n" + r.show())
    r.run(2000)
    saved = json.loads(read(r.path))
    check(saved["tally2"] == [0, 1, 0], "O's win saved: %r" % (saved,))
    check(type(r.app.screen).__name__ == "Review", r.show())


def stepping_garbage(r, presses):
    # The bytes left on the heap, the collector off, by `presses` presses of NEXT then as many
    # of PREV (each down 100 ms, up 100 ms), across both ends of the game.
    return heap_over(r, presses * 20, NEXT)[0] + heap_over(r, presses * 20, PREV)[0]


def test_stepping_through_the_review_leaves_no_garbage():
    moves = GAMES[0]
    r = finished_2p(moves)
    r.hold(SELECT)
    stepping_garbage(r, 2)  # the first frames of each step kind
    left = stepping_garbage(r, len(moves) + 2)
    check(left == 0, "%d bytes left by stepping" % left)
    check(r.text_at("1/%d" % len(moves), STATUS_X + 8, 0), "back at the first:\n" + r.show())


mptest.run(globals())
