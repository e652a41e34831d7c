"""screens.py, on CPython: what it takes from the engine and the game instead of re-typing it.
What the screens look like is held by the golden images (test_app_screens.py)."""

import ast
from pathlib import Path

import engine
import game
import screens

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


def test_level_labels_are_the_engines_levels_in_4_characters():
    assert len(screens.LEVEL_LABELS) == len(engine.LEVELS)
    for label, name in zip(screens.LEVEL_LABELS, engine.LEVELS, strict=True):
        assert 3 <= len(label) <= 4 and name.upper().startswith(label), (label, name)
    assert len(set(label[:3] for label in screens.LEVEL_LABELS)) == len(engine.LEVELS), (
        "the demo shows 3 characters: they must still tell the levels apart"
    )


def test_the_game_constants_are_the_games():
    # No re-typed copies (`game.mode == 1  # game.TWO_PLAYERS`): the names come from game.py.
    source = (FIRMWARE / "screens.py").read_text()
    assert screens.DRAW is game.DRAW and screens.TWO_PLAYERS is game.TWO_PLAYERS
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
            if node.left.attr in ("mode", "result"):
                for right in node.comparators:
                    assert not isinstance(right, ast.Constant), ast.unparse(node)
