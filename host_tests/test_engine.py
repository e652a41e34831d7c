"""An independent brute-force minimax, and the engine's API contract on CPython.

The engine against the minimax at every reachable position (perfect play, exact scores, every
limited depth, the rng's picks, never losing, the recursion depth) is proved under MicroPython,
the engine as .mpy with the heap locked: mp/mp_engine_*.py read this file's reference
(conftest.py's mp_engine), every record of it.
"""

import functools
import random

import engine
import gameboard
import pytest
from hypothesis import given
from hypothesis import strategies as st

# --- An independent reference: list boards, full-width minimax, no engine code. ---------------
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def line_owner(cells):
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


def open_lines(cells, player):
    return sum(1 for line in LINES if all(cells[i] in (0, player) for i in line))


@functools.lru_cache(maxsize=None)
def value(cells, player, depth):
    """Negamax value for `player` (to move): a win n plies ahead scores 100 - n, a loss
    -(100 - n), a draw 0; at depth 0 the issue's static score (open lines difference)."""
    if line_owner(cells):
        return -100  # the previous move won: lost "now", 0 plies ahead
    if all(cells):
        return 0
    if depth == 0:
        return open_lines(cells, player) - open_lines(cells, 3 - player)
    return max(child_score(cells, player, i, depth) for i in range(9) if not cells[i])


def child_score(cells, player, i, depth):
    """The score for `player` of playing cell i: one ply further from every win or loss."""
    child = cells[:i] + (player,) + cells[i + 1 :]
    v = -value(child, 3 - player, depth - 1)
    return v - 1 if v > 50 else v + 1 if v < -50 else v


def reference_scores(cells, player, depth=9):
    return [None if cells[i] else child_score(cells, player, i, depth) for i in range(9)]


def board_of(cells):
    return sum(c << 2 * i for i, c in enumerate(cells))


@functools.lru_cache(maxsize=None)
def reachable():
    """Every position reachable from the empty board: {cells: player to move}."""
    seen = {}
    todo = [((0,) * 9, 1)]
    while todo:
        cells, player = todo.pop()
        if cells in seen:
            continue
        seen[cells] = player
        if line_owner(cells) or all(cells):
            continue
        for i in range(9):
            if not cells[i]:
                todo.append((cells[:i] + (player,) + cells[i + 1 :], 3 - player))
    return seen


def live_positions():
    return [(c, p) for c, p in reachable().items() if not line_owner(c) and not all(c)]


def optimal_cells(cells, player, depth=9):
    scores = reference_scores(cells, player, depth)
    best = max(s for s in scores if s is not None)
    return {i for i, s in enumerate(scores) if s == best}


# --- 1. The reference's positions; the engine's own order and its rng. ------------------------
def test_reachable_position_counts():
    assert len(reachable()) == 5478
    assert len(live_positions()) == 4520


def test_first_move_in_fixed_order_is_the_centre_then_corners():
    assert engine.best_move(0, engine.X) == 4
    # After a centre opening every corner draws and every edge loses: the first corner.
    assert engine.best_move(board_of((0, 0, 0, 0, 1, 0, 0, 0, 0)), engine.O) == 0


def test_rng_picks_the_equal_best_moves_uniformly():
    # The 9 equal first moves each come up about 1/9 of 2,700 times (300 +- 70). That the rng
    # picks only equal-best moves, and each of them, at every position: mp/mp_engine_play.py.
    rng = random.Random(7)
    counts = [0] * 9
    for _ in range(2700):
        counts[engine.best_move(0, engine.X, 9, rng)] += 1
    assert all(230 < n < 370 for n in counts), counts


# --- 2. Units and properties. -------------------------------------------------------------------
positions_st = st.sampled_from(sorted(reachable()))


@given(positions_st)
def test_winner_and_winning_line(cells):
    board = board_of(cells)
    assert engine.winner(board) == line_owner(cells)
    line = engine.winning_line(board)
    if line_owner(cells):
        assert line in engine.WIN_LINES and len({cells[i] for i in line}) == 1
        assert cells[line[0]] == line_owner(cells)
    else:
        assert line is None


def test_constants_and_lines():
    assert (engine.EMPTY, engine.X, engine.O) == (0, 1, 2)
    assert sorted(engine.WIN_LINES) == sorted(LINES)
    assert engine.LEVELS[-1] == "PERF" and len(engine.LEVELS) >= 3


BAD_BOARDS = [
    ("1", "board must be an int"),
    (1.0, "board must be an int"),
    (True, "board must be an int"),
    (None, "board must be an int"),
    (-1, "0 <= board < 2\\*\\*18"),
    (1 << 18, "0 <= board < 2\\*\\*18"),
    (3 << 8, "cell 4 is 0b11"),
    (0b0101, "impossible counts"),  # two X, no O
    (0b10, "impossible counts"),  # O first
]


@pytest.mark.parametrize("board,message", BAD_BOARDS)
def test_bad_boards_raise_value_error_naming_the_fault(board, message):
    for call in (
        lambda: engine.best_move(board, engine.X),
        lambda: engine.winner(board),
        lambda: engine.winning_line(board),
        lambda: engine.level_move(board, engine.X, 0, random.Random(1)),
        lambda: gameboard.root_scores(board, engine.X),
    ):
        with pytest.raises(ValueError, match=message):
            call()


@pytest.mark.parametrize(
    "board,player,depth,message",
    [
        (0, 0, 9, "player must be X"),
        (0, 3, 9, "player must be X"),
        (0, "X", 9, "player must be X"),
        (0, engine.O, 9, "not the side to move"),
        (board_of((1, 0, 0, 0, 0, 0, 0, 0, 0)), engine.X, 9, "not the side to move"),
        (board_of((1, 1, 1, 2, 2, 0, 0, 0, 0)), engine.O, 9, "game is over"),
        (board_of((1, 2, 1, 1, 2, 2, 2, 1, 1)), engine.O, 9, "game is over"),
        (0, engine.X, 0, "depth must be 1..9"),
        (0, engine.X, 10, "depth must be 1..9"),
        (0, engine.X, 2.0, "depth must be 1..9"),
    ],
)
def test_bad_moves_raise_value_error_naming_the_fault(board, player, depth, message):
    with pytest.raises(ValueError, match=message):
        engine.best_move(board, player, depth)
    with pytest.raises(ValueError, match=message):
        gameboard.root_scores(board, player, depth)


def test_other_bad_arguments():
    with pytest.raises(ValueError, match="level must index LEVELS"):
        engine.level_move(0, engine.X, len(engine.LEVELS), random.Random(1))
    with pytest.raises(ValueError, match="level must index LEVELS"):
        engine.level_move(0, engine.X, -1, None)


# --- Search shape: nodes. -------------------------------------------------------------------
def test_nodes_from_the_empty_board_with_every_root_score_known():
    engine.best_move(0, engine.X)
    assert 1 < engine.last_nodes() <= 2000
    gameboard.root_scores(0, engine.X)
    assert engine.last_nodes() <= 2000  # all nine root scores exact


def test_root_scores_searches_every_move_fully_and_leaves_best_move_as_it_was():
    # best_move searches a worse move only far enough to rule it out; root_scores searches
    # every move with a full window, and best_move afterwards prunes as before.
    wider = 0
    for cells, player in live_positions():
        board = board_of(cells)
        engine.best_move(board, player)
        pruned = engine.last_nodes()
        gameboard.root_scores(board, player)
        assert engine.last_nodes() >= pruned
        wider += engine.last_nodes() > pruned
        engine.best_move(board, player)
        assert engine.last_nodes() == pruned
    assert wider > 1000
    scores = gameboard.root_scores(0, engine.X)  # a new list each time, not a view of the engine's
    scores[4] = 99
    assert gameboard.root_scores(0, engine.X) == [0] * 9 and scores[4] == 99
