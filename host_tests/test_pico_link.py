"""Link play on the real MicroPython rp2 port (issue 27, point 7): two emulated Picos in rp2040js,
UART0 of each joined to the other's (testbed/picopair.py: the host is the cable), each played
only by its buttons and read only from its LCD (`make test-pico`). From their titles to Link
play, they find each other and play X's win on the bottom row at the 7th move, the cable pulled
after the 3rd: NO LINK on both within 2 s, gone once it is back; the same marks on both after
every move; each board's own player's result and tally. Each firmware as in test_pico.py;
without the boot ROM, node or a firmware the file skips in one line.
"""

import functools
import types

import glasstext
import picolab
import picoplay
import picosetup
import pytest
from linkpair import expected
from picopair import Pair

_PROBLEM = picosetup.problem()
if _PROBLEM:
    pytest.skip("Pico lab: " + _PROBLEM, allow_module_level=True)

MOVES = (0, 4, 8, 2, 6, 3, 7)  # X: 0 8 6 7, the bottom row at the 7th; O: 4 2 3, no line
PULL_AFTER = 3  # moves made before the cable is pulled
LOST_MS = 2000  # linkgame.LOST_MS: the "noticed within 2 s"
POLL_MS = 10  # app.App.poll_ms: the loop sees the silence at its next poll and draws it
MOVE_MS = 1000  # the longest a move may take to show on the other glass (a retry: 250 ms)


def _no_link(glass):
    return glasstext.shows(glass, "NO LINK", inverted=True)  # widgets.sign: white on black


@functools.cache
def _link_game(kind):
    """What the two boards showed: `x`, the board whose player is X; `shown`, (marks on a,
    marks on b) after each move; `lost` and `back`: board -> ms from the pull to its first
    frame with NO LINK and from the return to its first without (None: never); `result`:
    board -> "WIN!", "LOST" or None from its status column; `tally`: board -> "tally_link" on
    its flash after the game; the buses' `anomalies`."""
    problem = picosetup.problem(kind)
    if problem:
        pytest.skip("Pico lab (%s): %s" % (kind, problem))
    out = types.SimpleNamespace(shown=[], lost={}, back={}, result={}, tally={})
    with Pair(picolab.boot(kind), picolab.boot(kind)) as pair:
        boards = pair.boards
        pair.run(800)
        out.x = picoplay.join(pair)
        players = (out.x, "b" if out.x == "a" else "a")
        for k, cell in enumerate(MOVES):
            if k == PULL_AFTER:
                _pull(pair, out)
            mover = players[k % 2]
            picoplay.wait_frame(boards[mover], MOVE_MS, lambda g: picoplay.cursor(g) >= 0)
            picoplay.play_cell(boards[mover], cell)
            want = expected(MOVES[: k + 1])
            out.shown.append(tuple(_marks_shown(boards[n], want) for n in "ab"))
        pair.run(1500)  # the jingle
        for name in "ab":
            glass = picoplay.glass(boards[name])
            found = [w for w in ("WIN!", "LOST") if picoplay.shows8(glass, w)]
            out.result[name] = found[0] if found else None
        pair.run(2500)  # the result saved (App.save_wait_ms, 2 s)
        for name in "ab":
            settings = picoplay.settings(boards[name])
            out.tally[name] = settings and tuple(settings.get("tally_link", ()))
        out.anomalies = [boards[n].anomalies for n in "ab"]
        return out


def _pull(pair, out):
    # The cable out, and back: out.lost, then out.back (see _link_game).
    for pulled, into, ms in ((True, out.lost, LOST_MS + 1000), (False, out.back, 1000)):
        pair.pulled = pulled
        at = pair.boards["a"].t
        for name, board in pair.boards.items():
            frame = picoplay.wait_frame(board, ms, lambda g, p=pulled: _no_link(g) == p)
            into[name] = None if frame is None else frame.t - at


def _marks_shown(board, want):
    # The marks of the first frame on this board's glass, from the one there now, that shows
    # `want` (a winning line blinks across its marks), else of the last.
    frame = picoplay.wait_frame(board, MOVE_MS, lambda g: picoplay.marks(g) == want)
    return picoplay.marks((frame or board.frames[-1]).glass)


@pytest.fixture
def game(kind):
    return _link_game(kind)


@pytest.fixture
def kind(request):
    return request.cls.kind


class _Checks:
    kind = None

    def test_the_boards_find_each_other_and_one_is_x(self, game):
        assert game.x in ("a", "b")

    def test_both_glasses_show_the_same_marks_after_every_move(self, game):
        assert len(game.shown) == len(MOVES)
        for k, (a, b) in enumerate(game.shown):
            assert a == b == expected(MOVES[: k + 1]), (k, a, b)

    def test_the_cable_pulled_shows_no_link_on_both_within_2_s(self, game):
        for name in "ab":
            ms = game.lost[name]
            assert ms is not None, "no NO LINK on %s" % name
            assert ms <= LOST_MS + POLL_MS, (name, ms)

    def test_the_cable_back_clears_no_link_on_both(self, game):
        for name in "ab":
            assert game.back[name] is not None, "NO LINK stays on %s" % name

    def test_each_board_shows_and_keeps_its_own_players_result(self, game):
        o = "b" if game.x == "a" else "a"
        assert game.result == {game.x: "WIN!", o: "LOST"}
        assert game.tally == {game.x: (1, 0, 0), o: (0, 0, 1)}  # W D L

    def test_the_lcd_buses_have_no_anomalies(self, game):
        assert game.anomalies == [[], []]


class TestFrozen(_Checks):
    kind = "frozen"


class TestStock(_Checks):
    kind = "stock"
