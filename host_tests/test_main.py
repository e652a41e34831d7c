"""main.py under the firmware harness: boot, safe mode, the error path, error.log bounds.

The app is test scaffolding (host_tests/mp/fakeapp/app.py, first on the path) so that main.py
is tested on its own; test_harness.py boots the real app."""

from pathlib import Path

MP = Path(__file__).parent / "mp"
FAKEAPP = MP / "fakeapp"


def test_main_under_harness(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_main.py", heapsize="256k", paths=(hostboard, FAKEAPP))
    # What the REPL shows: safe mode says so on stdout too; errors print their traceback.
    assert "oxo5110: safe mode - a button was held at power-on" in out
    assert "ValueError: boom on request" in out
    assert "oxo5110: the game stopped with an error; press a button to restart it." in out
