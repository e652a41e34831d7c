"""main.py on a HostApp: boot, safe mode, the error path, error.log bounds.

The app is test scaffolding (host_tests/mp/fakeapp/app.py, first on the path) so that main.py
is tested on its own; mp/mp_app_main.py boots the real app. The error and safe-mode screens are
compared with golden images (host_tests/goldens.py). The watchdog, with the same fake app:
mp/mp_main_watchdog.py."""

from pathlib import Path

import goldens
import mpcheck
import pytest

MP = Path(__file__).parent / "mp"
FAKEAPP = MP / "fakeapp"


class mp_main(mpcheck.Script):
    heapsize = "512k"  # a FAT RAM flash (32 KB in one piece) after the watchdog's reboots
    paths = (mpcheck.fixture("hostboard"), FAKEAPP)

    def test_the_repl_shows_safe_mode_and_the_error(self, mp_output):
        # What the REPL shows: safe mode says so on stdout too; errors print their traceback.
        assert "oxo5110: safe mode - a button was held at power-on" in mp_output
        assert "ValueError: boom on request" in mp_output
        assert (
            "oxo5110: the game stopped with an error; press a button to restart it." in mp_output
        )

    @pytest.mark.parametrize("name", ["error", "safe"])
    def test_golden_screens(self, mp_output, name, tmp_path):
        shots = goldens.snaps(mp_output)
        goldens.check("screen_" + ("safe_mode" if name == "safe" else name), shots[name], tmp_path)
