"""testbed/cpython: what CPython lacks of MicroPython, given once on the host (const, the ticks),
so that no firmware module carries a fallback of its own."""

import re
import time
from pathlib import Path

import micropython as shim
from hypothesis import given
from hypothesis import strategies as st
from layout import sources

PERIOD = 1 << 30


def test_no_firmware_module_carries_a_host_fallback():
    for path in sources():
        source = path.read_text()
        assert "except ImportError" not in source, path.name
        assert not re.search(r"^\s*def (const|ticks_\w+)\(", source, re.M), path.name


def test_the_shim_is_the_one_on_the_test_path():
    assert Path(shim.__file__).parent.name == "cpython"
    assert shim.const(0x2A) == 42


def test_ticks_wrap_at_2_to_the_30_as_on_the_boards():
    period = PERIOD
    assert time.ticks_add(period - 1, 1) == 0
    assert time.ticks_add(5, -10) == period - 5
    assert time.ticks_diff(3, period - 2) == 5
    assert time.ticks_diff(period - 2, 3) == -5
    assert time.ticks_diff(period // 2 - 1, 0) == period // 2 - 1
    assert time.ticks_diff(period // 2, 0) == -(period // 2), "half a period counts as behind"
    start = time.ticks_ms()
    time.sleep_ms(2)
    assert 2 <= time.ticks_diff(time.ticks_ms(), start) < 1000
    assert 0 <= time.ticks_us() < period


@given(st.integers(0, PERIOD - 1), st.integers(-(1 << 29), (1 << 29) - 1))
def test_ticks_diff_undoes_ticks_add(start, delta):
    end = time.ticks_add(start, delta)
    assert 0 <= end < PERIOD
    assert time.ticks_diff(end, start) == delta
