"""menu.py: the list widget the main menu and the settings screen move through (MicroPython)."""

import ast
from pathlib import Path

MP = Path(__file__).parent / "mp"
FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


def test_menu_widget_on_micropython(micropython):
    out = micropython.run_tests(MP / "mp_menu.py")
    for name in ("moves_wrap_at_both_ends", "set_items_keeps_the_highlighted_item"):
        assert "PASS test_" + name in out


def test_the_widget_knows_no_screen_setting_or_display():
    # Labels, values and the contrast preview belong to the screens (mainmenu, setupmenu).
    tree = ast.parse((FIRMWARE / "menu.py").read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert imports == []
