"""The firmware's folders are its layers (tools/layout.py): drivers, store, game, screens, then
the boot and the loop. A module imports only from its own layer or a lower one, and a board
holds the modules side by side, so no two folders hold the same name. What firmware may import
at all: its own modules, the board module and MicroPython's built-ins."""

import ast

import layout
import pytest

SOURCES = layout.sources()
DEVICE_MODULES = {
    "board", "framebuf", "gc", "json", "machine", "micropython", "os", "random", "sys", "time",
    "rp2", "esp32", "esp", "errno", "io", "select", "struct", "array",
}  # fmt: skip
# Modules kept apart by design: exactly what each imports.
EXACT_IMPORTS = {
    # The driver: neither machine nor host code; valid: the firmware's one check of a number
    # passed in (valid.int_in).
    "pcd8544": {"framebuf", "time", "micropython", "valid"},
    # The list widget the main menu and the settings screen move through knows no screen,
    # setting or display: labels, values and the contrast preview belong to the screens, which
    # way a button moves through it to buttons.direction. Its checks: mp/mp_mainmenu.py.
    "menu": set(),
}
# Modules that must not load another: settings (safe mode loads it) never loads the engine.
NEVER_IMPORTS = {"settings": {"engine"}}


def imported(path):
    """The top-level name of every module `path` imports, at its top or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    return {name.split(".")[0] for name in names}


def test_module_names_are_unique_across_the_layers():
    names = [p.name for p in SOURCES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_every_layer_holds_modules():
    for folder in layout.FOLDERS:
        assert list(folder.glob("*.py")), folder


def test_no_module_imports_from_a_higher_layer():
    ours = {p.stem: layout.layer(p) for p in SOURCES}
    upward = []
    for path in SOURCES:
        for name in imported(path):
            if ours.get(name, -1) > layout.layer(path):
                upward.append(
                    "%s (%s) imports %s (%s)"
                    % (
                        path.stem,
                        layout.LAYERS[layout.layer(path)],
                        name,
                        layout.LAYERS[ours[name]],
                    )
                )
    assert not upward, upward


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def test_firmware_imports_only_device_modules(source):
    strange = imported(source) - {src.stem for src in SOURCES} - DEVICE_MODULES
    assert not strange, "%s imports %s" % (source.name, strange)


def test_the_modules_kept_apart_import_what_they_may():
    by_name = {src.stem: src for src in SOURCES}
    for name, modules in EXACT_IMPORTS.items():
        assert imported(by_name[name]) == modules, name
    for name, never in NEVER_IMPORTS.items():
        assert not imported(by_name[name]) & never, name
