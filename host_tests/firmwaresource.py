"""The literal values firmware modules assign, read from their source with ast: for host tests
of modules that need MicroPython to import (framebuf, machine) or whose private tables they
check."""

import ast
import functools
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


@functools.cache
def _tree(module):
    return ast.parse((FIRMWARE / (module + ".py")).read_text())


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
