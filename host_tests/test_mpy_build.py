"""mpy-cross refuses what the device refuses. That every firmware and board module compiles
(as a v6 .mpy the unix port loads) is `make test`'s `tools/mpy_build.py`, and the
mpy_dir fixture that every MicroPython check runs on (host_tests/conftest.py)."""

import mpy_build
import pytest


def test_mpy_cross_rejects_what_the_device_rejects(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    with pytest.raises(RuntimeError, match="bad.py"):
        mpy_build.compile_module(bad, tmp_path / "out")
