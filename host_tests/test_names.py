"""The names the firmware looks up only at run time exist: every settings key it reads or
writes (settings.KEYS), every sound it plays (a table of sound.py, which sound.Sound finds with
globals()[name]) and every screen of app.App's table (a module with that class, a
screen.Screen). Read with ast: a typo fails here, in `make test`, not when its line first runs
on a board. Names as constants instead would load sound.py on boards without a buzzer, and give
each screen a global per key and per sound."""

import ast
from pathlib import Path

from firmwaresource import assigned
from layout import source, sources

SOURCES = sources() + [Path(__file__).resolve().parents[1] / "web" / "oxoweb.py"]
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


def test_every_screen_the_app_makes_is_a_screen_class_of_its_module():
    # app._made: for each screen id, `import <module>` then `return <module>.<Class>(shared)`.
    made = next(
        n for n in tree(source("app")).body if isinstance(n, ast.FunctionDef) and n.name == "_made"
    )
    pairs = [
        (n.value.func.value.id, n.value.func.attr)
        for n in ast.walk(made)
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Call)
    ]
    imported = {a.name for n in ast.walk(made) if isinstance(n, ast.Import) for a in n.names}
    ids = [
        n.targets[0].id
        for n in tree(source("screen")).body
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Call)
        and n.targets[0].id.isupper()
        and n.targets[0].id in ("TITLE", "MENU", "PLAY", "SETUP", "DEMO", "REVIEW", "LINK")
    ]
    assert len(pairs) == len(ids) == 7 and {m for m, _ in pairs} == imported, (pairs, imported)
    for module, name in pairs:
        classes = [n for n in tree(source(module)).body if isinstance(n, ast.ClassDef)]
        bases = {c.name: [ast.unparse(b) for b in c.bases] for c in classes}
        base = bases.get(name)
        assert base in (["Screen"], ["screen.Screen"]), "%s.%s: not a screen.Screen" % (
            module,
            name,
        )
