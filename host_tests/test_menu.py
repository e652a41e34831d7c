"""menu.py: the list widget the main menu and the settings screen move through (MicroPython)."""

import ast
from pathlib import Path

import mpcheck

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


class mp_menu(mpcheck.Script):
    """Its checks, each a pytest item: mp_menu.py under MicroPython."""

    heapsize = "64k"  # menu.py's direction() imports buttons; the checks use settings too


def test_the_widget_knows_no_screen_setting_or_display():
    # Labels, values and the contrast preview belong to the screens (mainmenu, setupmenu): the
    # list knows only the buttons' names (which way each moves through it).
    tree = ast.parse((FIRMWARE / "menu.py").read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [alias.name for n in imports for alias in n.names] == ["buttons"]
