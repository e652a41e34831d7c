"""Golden images of every app screen, as the glass shows them (controller model -> PNG).

host_tests/mp/mp_app_screens.py drives the real app with the buttons to each screen and prints
the glass; each is rendered with testbed/lcd_render.py and compared with
host_tests/golden/screens/<name>.png. After an intended change to what a screen shows,
regenerate them with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest host_tests/test_app_screens.py

and review the new PNGs (and their .txt twins) in the diff. The error and safe-mode screens are
drawn by main.py; their goldens belong to the platform's tests."""

import binascii
import re

import goldens
import mpcheck
import pcd8544_model as pm
import pytest

SCREENS = (
    "title",
    "menu",
    "board_1p",
    "thinking",
    "menu_paused",
    "settings",
    "settings_contrast",
    "board_2p",
    "win_2p",
    "draw_2p",
    "win_1p",
    "demo",
)


class mp_app_screens(mpcheck.Script):
    """The real app driven to each screen; each glass printed, then compared here."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    @staticmethod
    def glasses(mp_output):
        found = {}
        printed = mp_output.check("test_the_buttons_reach_every_screen")
        for name, hexed in re.findall(r"^GLASS (\w+) ([0-9a-f]+)$", printed, re.M):
            found[name] = binascii.unhexlify(hexed)
        return found

    def test_every_screen_is_captured(self, mp_output):
        glasses = self.glasses(mp_output)
        assert tuple(glasses) == SCREENS
        for name, glass in glasses.items():
            assert len(glass) == pm.RAM_SIZE and any(glass), name + " is blank"

    @pytest.mark.parametrize("name", SCREENS)
    def test_screen_matches_golden(self, mp_output, name, tmp_path):
        goldens.check("screens/" + name, (self.glasses(mp_output)[name], None, None), tmp_path)
