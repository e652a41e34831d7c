"""widgets.py, read on CPython: what it takes from the engine, the game and the display instead
of re-typing it. What the screens look like is held by the golden images (test_app_screens.py).
Read with ast, not imported: widgets.py takes the display's size from pcd8544, which needs
MicroPython's framebuf."""

import ast

import engine
from layout import source

TREE = ast.parse(source("widgets").read_text())


def _imported_from(module):
    return [
        alias.name
        for node in TREE.body
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    ]


def test_the_levels_names_fit_the_status_column_and_the_demo():
    # engine.LEVELS is what the glass shows: 4 characters fit the status column; beside the
    # mover's mark in the demo there is room for 3, which must still tell the levels apart.
    for name in engine.LEVELS:
        assert 3 <= len(name) <= 4 and name == name.upper(), name
    assert len(set(name[:3] for name in engine.LEVELS)) == len(engine.LEVELS)


def test_the_game_constants_are_the_games():
    # No re-typed copies (`game.mode == 1  # game.TWO_PLAYERS`): the names come from game.py.
    assert _imported_from("game") == ["DEMO", "DRAW", "TWO_PLAYERS"]
    for node in ast.walk(TREE):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
            if node.left.attr in ("mode", "result"):
                for right in node.comparators:
                    assert not isinstance(right, ast.Constant), ast.unparse(node)


def test_the_display_size_is_pcd8544s():
    # pcd8544.WIDTH, not 84 (nor 83 for its last column), so the drawing follows the driver.
    assert _imported_from("pcd8544") == ["WIDTH"]
    numbers = [n.value for n in ast.walk(TREE) if isinstance(n, ast.Constant)]
    assert 84 not in numbers and 83 not in numbers
