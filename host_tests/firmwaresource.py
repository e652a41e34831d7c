"""The firmware's source files, where the host tests find them (mpy_build.firmware_sources is
the one place that knows), and the literal values firmware modules assign, read with ast: for
host tests of modules that need MicroPython to import (framebuf, machine) or whose private
tables they check."""

import ast
import functools

import mpy_build


def sources():
    """Every firmware module's source file (board files aside), sorted."""
    return mpy_build.firmware_sources(include_boards=False)


def source(module):
    """The source file of firmware module `module` ("app" for app.py)."""
    return {path.stem: path for path in sources()}[module]


@functools.cache
def _tree(module):
    return ast.parse(source(module).read_text())


def assigned(module, name):
    """The literal value firmware/`module`.py assigns to `name` at its top level, const()
    unwrapped. AssertionError if it assigns none."""
    for node in _tree(module).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
                value = value.args[0]
            return ast.literal_eval(value)
    raise AssertionError("firmware/%s.py assigns no %s" % (module, name))
