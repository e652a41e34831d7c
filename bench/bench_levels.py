"""Seeded games between the engine's difficulty levels and a uniformly random player.

`python bench/bench_levels.py [games]` prints the Markdown tables docs/figures.md keeps; the host
tests use `vs_random` and `head_to_head` to assert that the levels are ordered.
"""

import random
import sys

import benchkit

benchkit.on_cpython()
import engine  # noqa: E402

RANDOM = -1  # a "level" that plays a uniformly random legal move


def play(x_level, o_level, rng):
    """One game; returns the winner (engine.X or engine.O) or engine.EMPTY for a draw."""
    board, player = 0, engine.X
    for _ in range(9):
        level = x_level if player == engine.X else o_level
        if level == RANDOM:
            move = rng.choice([i for i in range(9) if not board >> 2 * i & 3])
        else:
            move = engine.level_move(board, player, level, rng)
        board |= player << 2 * move
        if engine.winner(board):
            return player
        player = 3 - player
    return engine.EMPTY


def match(a, b, games, seed):
    """a against b, alternating who plays X: (wins, draws, losses) for a."""
    rng = random.Random(seed)
    wins = draws = losses = 0
    for game in range(games):
        a_side = engine.X if game % 2 == 0 else engine.O
        x, o = (a, b) if a_side == engine.X else (b, a)
        result = play(x, o, rng)
        if result == engine.EMPTY:
            draws += 1
        elif result == a_side:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def score(record):
    """Points per game: a win 1, a draw 1/2."""
    wins, draws, losses = record
    return (wins + draws / 2) / (wins + draws + losses)


def vs_random(games=300, seed=2026):
    return [match(level, RANDOM, games, seed + level) for level in range(len(engine.LEVELS))]


def head_to_head(games=200, seed=5110):
    """Each level against the next stronger one: records for the weaker side."""
    n = len(engine.LEVELS)
    return [match(level, level + 1, games, seed + level) for level in range(n - 1)]


def markdown(games=300):
    rows = ["| level | depth | random moves | vs random: won / drawn / lost | score |"]
    rows.append("|---|---|---|---|---|")
    for level, record in enumerate(vs_random(games)):
        chance = round(engine._LEVEL_CHANCE[level] * 100 / 256)
        head = (engine.LEVELS[level], engine._LEVEL_DEPTH[level], chance)
        rows.append(
            "| %s | %d | %d%% | %d / %d / %d | %.2f |" % (head + record + (score(record),))
        )
    rows += [
        "",
        "| weaker vs stronger | weaker won / drawn / lost | weaker's score |",
        "|---|---|---|",
    ]
    for level, record in enumerate(head_to_head(games)):
        names = engine.LEVELS[level] + " vs " + engine.LEVELS[level + 1]
        rows.append("| %s | %d / %d / %d | %.2f |" % ((names,) + record + (score(record),)))
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
