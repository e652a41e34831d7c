# MicroPython's `micropython` module, and its tick functions, for firmware run by CPython.
# SPDX-License-Identifier: MIT
"""The firmware imports `from micropython import const` plainly, as on a board. Under CPython
(the host tests, the tools that import the engine or the settings) this folder is on the path:
pytest's `pythonpath` (pyproject.toml) and the tools' own sys.path.

CPython's `time` lacks MicroPython's tick functions, and being built into the interpreter it
cannot be replaced by a file on the path, so importing this module adds them to it: ticks_ms,
ticks_us, ticks_add, ticks_diff (wrapping at 2**30, as on the boards), sleep_ms and sleep_us.
host_tests/conftest.py imports it before any test, so a firmware module may take them from
`time` at import (buttons.py does) whatever it imports first.
"""

import time as _time

_PERIOD = 1 << 30
_MASK = _PERIOD - 1
_HALF = _PERIOD >> 1


def const(expr):
    """On a board the compiler folds `const(x)` into x; here it is x."""
    return expr


def _ticks_ms():
    return (_time.monotonic_ns() // 1000000) & _MASK


def _ticks_us():
    return (_time.monotonic_ns() // 1000) & _MASK


def _ticks_add(ticks, delta):
    return (ticks + delta) & _MASK


def _ticks_diff(end, start):
    return ((end - start + _HALF) & _MASK) - _HALF


def _sleep_ms(ms):
    _time.sleep(ms / 1000)


def _sleep_us(us):
    _time.sleep(us / 1000000)


for _function in (_ticks_ms, _ticks_us, _ticks_add, _ticks_diff, _sleep_ms, _sleep_us):
    _name = _function.__name__[1:]  # time's name for it
    if not hasattr(_time, _name):
        setattr(_time, _name, _function)
