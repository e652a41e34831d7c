"""The difficulty levels are ordered: seeded games against a random player and each other."""

import bench_levels as levels
import engine


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
