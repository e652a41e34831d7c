"""testbed/gameboard.py: the tests' board helpers (moved off the firmware's heap), checked
against the independent reference in test_engine.py."""

import engine
import gameboard
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_engine import BAD_BOARDS, board_of

cells_st = st.lists(st.sampled_from([0, 1, 2]), min_size=9, max_size=9)


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


@pytest.mark.parametrize("board,message", BAD_BOARDS)
def test_bad_boards_raise_value_error_naming_the_fault(board, message):
    for call in (gameboard.unpack, gameboard.to_move):
        with pytest.raises(ValueError, match=message):
            call(board)


def test_other_bad_arguments():
    with pytest.raises(ValueError, match="pack needs 9 cells"):
        gameboard.pack([0] * 8)
    with pytest.raises(ValueError, match="each 0, 1 or 2"):
        gameboard.pack([0, 0, 0, 3, 0, 0, 0, 0, 0])


def test_the_firmware_engine_holds_no_board_helpers():
    # They cost the board's heap while playing (issue 19); the tests and benches use these.
    for name in ("pack", "unpack", "to_move"):
        assert not hasattr(engine, name), name
