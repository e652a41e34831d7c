"""main.py and the boot it starts (oxo.py, rescue.py) under the firmware harness: boot, safe
mode, the error path.

The app is test scaffolding (host_tests/mp/fakeapp/app.py, first on the path) so that the boot
is tested on its own; test_harness.py boots the real app. The error and safe-mode screens are
compared with golden images (host_tests/goldens.py)."""

from pathlib import Path

import goldens
import pytest

MP = Path(__file__).parent / "mp"
FAKEAPP = MP / "fakeapp"


@pytest.fixture(scope="module")
def main_run(micropython, hostboard):
    return micropython.run_tests(MP / "mp_main.py", heapsize="256k", paths=(hostboard, FAKEAPP))


def test_main_under_harness(main_run):
    # What the REPL shows: safe mode says so on stdout too; errors print their traceback.
    assert "oxo5110: safe mode - a button was held at power-on" in main_run
    assert "ValueError: boom on request" in main_run
    assert "oxo5110: the game stopped with an error; press a button to restart it." in main_run
    assert "PASS test_the_error_screen_shows_the_whole_name_and_the_message_start" in main_run
    assert "PASS test_a_broken_font_module_still_shows_the_error_in_the_big_font" in main_run


@pytest.mark.parametrize("name", ["error", "safe"])
def test_golden_screens(main_run, name, tmp_path):
    shots = goldens.snaps(main_run)
    goldens.check("screen_" + ("safe_mode" if name == "safe" else name), shots[name], tmp_path)
