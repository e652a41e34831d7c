"""The literal values firmware modules assign, read from their source (tools/layout.py finds
it) as board files' constants are read (boardlist.constants): for host tests of modules that need
MicroPython to import (framebuf, machine) or whose private tables they check."""

import functools

import boardlist
from layout import source


@functools.cache
def _constants(module):
    return boardlist.constants(source(module).read_text())


def assigned(module, name):
    """The literal value firmware module `module` assigns to `name` at its top level, const()
    unwrapped. AssertionError if it assigns none."""
    if name not in _constants(module):
        raise AssertionError("%s.py assigns no %s" % (module, name))
    return _constants(module)[name][0]
