"""menu.py: the list widget the main menu and the settings screen move through (MicroPython)."""

import ast
from pathlib import Path

import mpcheck

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


class mp_menu(mpcheck.Script):
    """Its checks, each a pytest item: mp_menu.py under MicroPython."""

    heapsize = "64k"  # the checks use buttons (direction) and settings too


def test_the_widget_knows_no_screen_setting_or_display():
    # Labels, values and the contrast preview belong to the screens (mainmenu, setupmenu): the
    # list imports nothing (which way a button moves through it is buttons.direction).
    tree = ast.parse((FIRMWARE / "menu.py").read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [alias.name for n in imports for alias in n.names] == []
