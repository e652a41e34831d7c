"""Every firmware and board module compiles with mpy-cross, as it is deployed."""

import ast

import mpy_build
import pytest

SOURCES = mpy_build.firmware_sources()

# What firmware may import: its own modules, the board module, and MicroPython's built-ins.
DEVICE_MODULES = {
    "board", "framebuf", "gc", "json", "machine", "micropython", "os", "random", "sys", "time",
    "rp2", "esp32", "esp", "errno", "io", "select", "struct", "array",
}  # fmt: skip


def test_there_is_firmware():
    names = {src.stem for src in SOURCES}
    assert "engine" in names


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def test_module_compiles_to_mpy(source, tmp_path):
    target = mpy_build.compile_module(source, tmp_path)
    header = target.read_bytes()[:2]
    assert header[0:1] == b"M" and header[1] == 6, "not an .mpy v6 file: %r" % header


def test_mpy_cross_rejects_what_the_device_rejects(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    with pytest.raises(RuntimeError, match="bad.py"):
        mpy_build.compile_module(bad, tmp_path / "out")


def imports_of(source):
    """The top-level name of every module `source` imports."""
    names = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def test_firmware_imports_only_device_modules(source):
    strange = imports_of(source) - {src.stem for src in SOURCES} - DEVICE_MODULES
    assert not strange, "%s imports %s" % (source.name, strange)


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


def test_the_modules_kept_apart_import_what_they_may():
    by_name = {src.stem: src for src in SOURCES}
    for name, imported in EXACT_IMPORTS.items():
        assert imports_of(by_name[name]) == imported, name
    for name, never in NEVER_IMPORTS.items():
        assert not imports_of(by_name[name]) & never, name
