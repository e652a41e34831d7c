"""review.py and coach.cost: what a move cost, exhaustively against gameboard.root_scores before
and after the move; the review on the glass (mp_review.py: the words each kind of cost shows,
within the status column), its goldens and its session."""

import functools

import coach
import gameboard
import goldens
import mpcheck
import positions
import pytest

# The costs as the review names them: (result with the best move, result after the move
# played, the move was one of the best) -> the kind. Results: 1 win, 0 draw, -1 loss.
EXPECTED = {
    (1, 1, True): coach.BEST_WIN,
    (0, 0, True): coach.BEST_DRAW,
    (-1, -1, True): coach.BEST_LOSS,
    (1, 1, False): coach.SLOWER_WIN,
    (-1, -1, False): coach.SOONER_LOSS,
    (1, 0, False): coach.WIN_DRAW,
    (1, -1, False): coach.WIN_LOSS,
    (0, -1, False): coach.DRAW_LOSS,
}


# The best score by position, kept: the exhaustive test asks for most of them many times.
best_for_mover = functools.cache(positions.best_score)


def result_after(board, cell):
    return positions.result_after(board, cell, best_for_mover)


def test_the_cost_agrees_with_the_scores_before_and_after_every_move_of_every_position():
    boards = positions.going_on()
    assert len(boards) == positions.GOING_ON == 4520
    c = coach.Coach()  # the review's own path: Coach.read's scores into coach.cost
    seen = set()
    for board in boards:
        c.read(board, gameboard.to_move(board))
        best = best_for_mover(board)
        for cell in range(9):
            if board >> 2 * cell & 3:
                continue
            value = c.scores[cell] - 128
            key = (positions.sign(best), result_after(board, cell), value == best)
            kind = coach.cost(c.best, c.scores[cell])
            assert kind == EXPECTED[key], (gameboard.unpack(board), cell, key, kind)
            seen.add(kind)
    assert seen == set(range(coach.COSTS)), "every kind of cost occurs"


def test_cost_refuses_a_value_above_the_best_or_a_taken_cell():
    for best, value in ((128, 129), (200, 0), (0, 0)):
        with pytest.raises(ValueError):
            coach.cost(best, value)


GOLDENS = ("review_best", "review_mistake", "review_last")


class mp_review(mpcheck.Script):
    """mp_review.py under MicroPython: the review read off the glass, its session, its heap."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    @pytest.mark.parametrize("name", GOLDENS)
    def test_screen_matches_golden(self, mp_output, name, tmp_path):
        snaps = goldens.snaps(mp_output.check("test_golden_steps"))
        goldens.check("screens/" + name, (snaps[name][0], None, None), tmp_path)
