"""The names the firmware looks up only at run time exist: every settings key it reads or
writes (settings.KEYS), every sound it plays (a table of sound.py, which sound.Sound finds with
globals()[name]) and every screen of app.App's table (a module with that class, a
screen.Screen). Read with ast: a typo fails here, in `make test`, not when its line first runs
on a board. Names as constants instead would load sound.py on boards without a buzzer, and give
each screen a global per key and per sound."""

import ast
from pathlib import Path

from firmwaresource import assigned

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
SOURCES = sorted(FIRMWARE.glob("*.py")) + [FIRMWARE.parent / "web" / "oxoweb.py"]
# Where a settings key is named: the first argument of these Settings methods (on the names the
# firmware gives a Settings), the key argument of menu.py's helpers (cycle, choice), and what
# game.Game.tally_slot returns.
SETTINGS = ("s", "settings", "self.settings", "Settings.load()")
SETTINGS_METHODS = ("get", "set", "count")
KEY_HELPERS = ("cycle", "choice")


def tree(path):
    return ast.parse(path.read_text(), str(path))


def strings(node):
    """Every str constant in an expression (both sides of `"a" if c else "b"`)."""
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def settings_keys():
    return set(assigned("settings", "KEYS"))


def keys_named():
    """{key: [where]} of every settings key the firmware names."""
    named = {}
    for path in SOURCES:
        for node in ast.walk(tree(path)):
            found = []
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and func.attr in SETTINGS_METHODS
                    and ast.unparse(func.value) in SETTINGS
                ):
                    found = strings(node.args[0])
                elif isinstance(func, ast.Name) and func.id in KEY_HELPERS:
                    found = strings(node.args[1])
            elif isinstance(node, ast.FunctionDef) and node.name == "tally_slot":
                found = [
                    s for r in ast.walk(node) if isinstance(r, ast.Return) for s in strings(r)
                ]
            for key in found:
                named.setdefault(key, []).append("%s:%d" % (path.name, node.lineno))
    return named


def test_every_settings_key_the_firmware_names_is_a_setting():
    named = keys_named()
    unknown = {key: where for key, where in named.items() if key not in settings_keys()}
    assert not unknown, "not in settings.KEYS: %r" % unknown
    # Each key is found somewhere: the scan sees every way the firmware names one.
    assert set(named) == settings_keys()


def test_every_screen_in_the_apps_table_is_a_screen_class_of_its_module():
    table = None
    for node in tree(FIRMWARE / "app.py").body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["_SCREENS"]:
            value = node.value  # const((...)): the table is its argument
            table = ast.literal_eval(value.args[0] if isinstance(value, ast.Call) else value)
    ids = {}
    for node in tree(FIRMWARE / "screen.py").body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            if node.targets[0].id in ("TITLE", "MENU", "PLAY", "SETUP", "DEMO", "REVIEW"):
                ids[node.targets[0].id] = node.value.args[0].value
    assert table is not None and sorted(ids.values()) == list(range(len(table)))
    for module, name, _kept in table:
        classes = [
            n for n in tree(FIRMWARE / (module + ".py")).body if isinstance(n, ast.ClassDef)
        ]
        bases = {c.name: [ast.unparse(b) for b in c.bases] for c in classes}
        assert bases.get(name) in (["Screen"], ["screen.Screen"]), "%s.%s: not a screen.Screen" % (
            module,
            name,
        )
