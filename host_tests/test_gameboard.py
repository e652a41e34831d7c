"""testbed/gameboard.py: the tests' board helpers (moved off the firmware's heap), checked
against the independent reference in test_engine.py."""

import engine
import gameboard
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_engine import BAD_BOARDS, board_of, line_owner, open_lines, reachable

cells_st = st.lists(st.sampled_from([0, 1, 2]), min_size=9, max_size=9)
positions_st = st.sampled_from(sorted(reachable()))


@given(cells_st)
def test_pack_unpack_round_trip(cells):
    board = gameboard.pack(cells)
    assert board == board_of(cells)
    assert 0 <= board < 1 << 18
    xs, os = cells.count(1), cells.count(2)
    if xs - os in (0, 1):
        assert gameboard.unpack(board) == cells
        assert gameboard.to_move(board) == (engine.X if xs == os else engine.O)
    else:
        with pytest.raises(ValueError, match="impossible counts"):
            gameboard.unpack(board)


@given(positions_st, st.sampled_from([engine.X, engine.O]))
def test_evaluate_ranges_and_meaning(cells, player):
    score = gameboard.evaluate(board_of(cells), player)
    owner = line_owner(cells)
    assert -100 <= score <= 100
    if owner:
        assert score == (100 if owner == player else -100)
    else:
        assert -8 <= score <= 8
        assert score == open_lines(cells, player) - open_lines(cells, 3 - player)


@pytest.mark.parametrize("board,message", BAD_BOARDS)
def test_bad_boards_raise_value_error_naming_the_fault(board, message):
    for call in (
        lambda: gameboard.unpack(board),
        lambda: gameboard.to_move(board),
        lambda: gameboard.evaluate(board, engine.X),
    ):
        with pytest.raises(ValueError, match=message):
            call()


def test_other_bad_arguments():
    with pytest.raises(ValueError, match="pack needs 9 cells"):
        gameboard.pack([0] * 8)
    with pytest.raises(ValueError, match="each 0, 1 or 2"):
        gameboard.pack([0, 0, 0, 3, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="player must be X"):
        gameboard.evaluate(0, 0)


def test_the_firmware_engine_holds_no_board_helpers():
    # They cost the board's heap while playing (issue 19); the tests and benches use these.
    for name in ("pack", "unpack", "to_move", "evaluate"):
        assert not hasattr(engine, name), name
