"""The difficulty levels: each plays as a full-width search of its depth, and they are ordered
(seeded games against a random player and each other)."""

import random

import bench_levels as levels
import engine
from test_engine import board_of, live_positions, optimal_cells

# The plies each level looks ahead, as engine.py's table of levels promises: easy takes a win
# and blocks nothing, medium blocks threats, hard sees forks both ways, perfect sees the end.
PROMISED_DEPTH = {"EASY": 1, "MED": 2, "HARD": 4, "PERF": 9}


def test_each_level_plays_as_a_full_width_search_of_its_depth_at_every_position():
    # Without an rng a level makes no random move and takes the first of its equal-best moves:
    # at every position that move must be one the reference minimax of test_engine, searching
    # the promised depth, ranks best. One ply less or more plays outside that set somewhere
    # (hard at 3 plies at 54 positions, at 5 at 32), but for perfect at 7 or 8 plies: the next
    # two tests hold those.
    for level, name in enumerate(engine.LEVELS):
        depth = PROMISED_DEPTH[name]
        for cells, player in live_positions():
            move = engine.level_move(board_of(cells), player, level)
            assert move in optimal_cells(cells, player, depth), (name, cells, move)


def test_perfect_plays_every_first_move_since_each_draws():
    # Every first move draws, so perfect picks each of the nine with an rng; a search of 7
    # plies or fewer ranks the centre above the rest and would play only the centre.
    assert optimal_cells((0,) * 9, engine.X) == set(range(9))
    rng = random.Random(5)
    perfect = engine.LEVELS.index("PERF")
    seen = {engine.level_move(0, engine.X, perfect, rng) for _ in range(300)}
    assert seen == set(range(9))


def test_perfect_searches_to_the_end_of_the_game():
    # A search of 8 plies picks the same moves as one of 9 everywhere (the empty board is the
    # only position that 8 plies do not search to the end, and there it too scores every move
    # a draw): what tells them apart is the search itself, the positions it visits.
    perfect = engine.LEVELS.index("PERF")
    for cells, player in [((0,) * 9, engine.X), *live_positions()[:50]]:
        board = board_of(cells)
        engine.best_move(board, player, 9)
        full = engine.last_nodes()
        engine.level_move(board, player, perfect, random.Random(1))
        assert engine.last_nodes() == full, cells


def test_each_stronger_level_scores_at_least_as_well_against_a_random_player():
    records = levels.vs_random(300)
    scores = [levels.score(r) for r in records]
    assert scores == sorted(scores), records
    assert scores[0] > 0.5  # even "easy" beats a random player more often than not
    wins, draws, losses = records[-1]
    assert losses == 0 and wins > draws  # "perfect" never loses


def test_each_stronger_level_beats_the_next_weaker_one():
    for record in levels.head_to_head(200):
        assert levels.score(record) <= 0.5, record


def test_perfect_never_loses_to_any_level():
    perfect = len(engine.LEVELS) - 1
    for level in range(perfect + 1):
        wins, draws, losses = levels.match(perfect, level, 100, seed=level)
        assert losses == 0, (engine.LEVELS[level], wins, draws)
        if level == perfect:
            assert wins == 0  # perfect against perfect: always a draw


def test_levels_table_reads_well():
    table = levels.markdown(60)
    for name in engine.LEVELS:
        assert "| " + name + " |" in table
