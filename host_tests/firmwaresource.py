"""The literal values firmware modules assign, read from their source (tools/layout.py finds
it) with ast: for host tests of modules that need MicroPython to import (framebuf, machine) or
whose private tables they check."""

import ast
import functools

from layout import source


@functools.cache
def _tree(module):
    return ast.parse(source(module).read_text())


def assigned(module, name):
    """The literal value firmware module `module` assigns to `name` at its top level, const()
    unwrapped. AssertionError if it assigns none."""
    for node in _tree(module).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
                value = value.args[0]
            return ast.literal_eval(value)
    raise AssertionError("%s.py assigns no %s" % (module, name))
