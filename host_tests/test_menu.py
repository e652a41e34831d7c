"""menu.py: the list widget the main menu and the settings screen move through: what it imports
(its checks under MicroPython: mp/mp_menu.py)."""

import ast

import layout


def test_the_widget_knows_no_screen_setting_or_display():
    # Labels, values and the contrast preview belong to the screens (mainmenu, setupmenu): the
    # list imports nothing (which way a button moves through it is buttons.direction).
    tree = ast.parse(layout.source("menu").read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [alias.name for n in imports for alias in n.names] == []
