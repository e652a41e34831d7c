"""game.py (one game: moves, result, undo, tally slot, cursor moves), on CPython; the soak of
1,000 games with the tally on flash under MicroPython at 32k is mp/mp_game_soak.py."""

import engine
import pytest
from game import (
    DEMO,
    DRAW,
    ONE_PLAYER,
    PLAYING,
    START_ALTERNATE,
    START_CPU,
    START_YOU,
    TWO_PLAYERS,
    Game,
    first_player,
    next_free,
    toward,
)
from hypothesis import given
from hypothesis import strategies as st

X, O = engine.X, engine.O  # noqa: E741 - the engine names the pieces X and O
orders = st.permutations(range(9))


def replay(moves):
    board = 0
    for k, cell in enumerate(moves):
        board |= (O if k % 2 else X) << (2 * cell)
    return board


def play_until_over(game, order):
    played = []
    for cell in order:
        if game.over():
            break
        game.play(cell)
        played.append(cell)
    return played


def test_start_rejects_bad_arguments():
    g = Game()
    with pytest.raises(ValueError, match="mode"):
        g.start(7)
    with pytest.raises(ValueError, match="human"):
        g.start(ONE_PLAYER, human=3)
    with pytest.raises(ValueError, match="level"):
        g.start(ONE_PLAYER, level=len(engine.LEVELS))


def test_play_rejects_taken_cells_and_finished_games():
    g = Game()
    g.start(TWO_PLAYERS)
    g.play(4)
    with pytest.raises(ValueError, match="taken"):
        g.play(4)
    with pytest.raises(ValueError, match="cell"):
        g.play(9)
    for cell in (0, 1, 3, 7):
        g.play(cell)
    assert g.over() and g.result == X and g.line == (1, 4, 7)
    with pytest.raises(ValueError):
        g.play(8)


@given(orders)
def test_result_and_line_follow_the_engine(order):
    g = Game()
    g.start(TWO_PLAYERS)
    played = play_until_over(g, order)
    board = replay(played)
    assert g.board == board and g.count == len(played)
    won = engine.winner(board)
    assert g.result == (won if won else DRAW if len(played) == 9 else PLAYING)
    assert g.line == engine.winning_line(board)
    assert g.over()


@given(orders, st.integers(0, 9), st.sampled_from([X, O]))
def test_undo_against_the_cpu_takes_back_to_before_the_last_human_move(order, n, human):
    g = Game()
    g.start(ONE_PLAYER, human=human)
    played = play_until_over(g, order[:n])
    k = len(played) - 1
    while k >= 0 and (O if k % 2 else X) != human:
        k -= 1
    if k < 0:
        assert not g.undo() and g.count == len(played), "nothing of the human's to take back"
        return
    assert g.undo()
    assert g.count == k and g.board == replay(played[:k]) and g.result == PLAYING
    assert g.turn() == human, "after undo it is the human's turn again"
    assert len(played) - k in (1, 2), "the human's move and at most the CPU's reply"


@given(orders, st.integers(1, 9))
def test_undo_with_two_players_takes_back_one_move(order, n):
    g = Game()
    g.start(TWO_PLAYERS)
    played = play_until_over(g, order[:n])
    assert g.undo()
    assert g.board == replay(played[:-1]) and g.count == len(played) - 1


def test_demo_has_no_undo_and_no_tally():
    g = Game()
    g.start(DEMO)
    g.play(0)
    assert not g.undo() and g.count == 1
    assert g.tally_slot() is None


def test_cpu_to_move():
    g = Game()
    g.start(ONE_PLAYER, human=O)
    assert g.cpu_to_move()
    g.play(g.cpu_move(len(engine.LEVELS) - 1, None))
    assert not g.cpu_to_move()
    g.start(TWO_PLAYERS)
    assert not g.cpu_to_move()
    g.start(DEMO)
    assert g.cpu_to_move()


@pytest.mark.parametrize(
    "mode, human, result, slot",
    [
        (ONE_PLAYER, X, X, ("tally1", 0)),
        (ONE_PLAYER, O, O, ("tally1", 0)),
        (ONE_PLAYER, X, DRAW, ("tally1", 1)),
        (ONE_PLAYER, X, O, ("tally1", 2)),
        (ONE_PLAYER, O, X, ("tally1", 2)),
        (TWO_PLAYERS, X, X, ("tally2", 0)),
        (TWO_PLAYERS, X, O, ("tally2", 1)),
        (TWO_PLAYERS, X, DRAW, ("tally2", 2)),
    ],
)
def test_tally_slot(mode, human, result, slot):
    g = Game()
    g.start(mode, human=human)
    g.result = result
    assert g.tally_slot() == slot


def test_first_player():
    assert all(first_player(START_YOU, n) for n in range(4))
    assert not any(first_player(START_CPU, n) for n in range(4))
    assert [first_player(START_ALTERNATE, n) for n in range(4)] == [True, False, True, False]


def game_with_free(mask):
    """A game whose free cells are the set bits of mask (the marks need not be legal here)."""
    g = Game()
    g.start(TWO_PLAYERS)
    g.board = sum(X << (2 * i) for i in range(9) if not mask >> i & 1)
    return g


def test_next_free_exhaustive():
    for mask in range(512):
        g = game_with_free(mask)
        for cell in range(9):
            for step in (1, -1):
                c = next_free(g, cell, step)
                others = [i for i in range(9) if mask >> i & 1 and i != cell]
                if not others:
                    assert c == cell
                    continue
                assert c in others
                # No free cell is skipped on the way.
                k = (cell + step) % 9
                while k != c:
                    assert not mask >> k & 1
                    k = (k + step) % 9


DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def test_toward_exhaustive():
    for mask in range(512):
        g = game_with_free(mask)
        for cell in range(9):
            row, col = divmod(cell, 3)
            for drow, dcol in DIRS:
                c = toward(g, cell, drow, dcol)
                ahead = [
                    i
                    for i in range(9)
                    if mask >> i & 1
                    and i != cell
                    and ((i // 3 - row) * drow % 3 if drow else (i % 3 - col) * dcol % 3)
                ]
                if not ahead:
                    assert c == cell
                    continue
                assert c in ahead
                # The next cell straight ahead (wrapping) wins when it is free.
                nxt = ((row + drow) % 3) * 3 + (col + dcol) % 3
                if mask >> nxt & 1:
                    assert c == nxt
