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


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def test_firmware_imports_only_device_modules(source):
    own = {src.stem for src in SOURCES}
    tree = ast.parse(source.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in own or top in DEVICE_MODULES, "%s imports %s" % (source.name, name)
