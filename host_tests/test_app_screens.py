"""Golden images of every app screen, the coach's too, as the glass shows them (controller
model -> PNG): host_tests/mp/mp_app_screens.py drives the real app with the buttons to each
screen and prints the glass, compared here with host_tests/golden/screens/<name>.png (after an
intended change, regenerate as goldens.py says). The error and safe-mode screens are drawn by
main.py; their goldens belong to the platform's tests."""

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
COACH_SCREENS = ("coach_told", "coach_empty", "coach_mid", "coach_cursor_best")
BY_CHECK = {
    "test_the_buttons_reach_every_screen": SCREENS,
    "test_the_buttons_reach_the_coachs_screens": COACH_SCREENS,
}


class mp_app_screens(mpcheck.Script):
    """The real app driven to each screen; each glass printed, then compared here."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    @staticmethod
    def glasses(mp_output, check):
        """{name: glass bytes} of the check's GLASS lines (Glass.snap's)."""
        return {name: snap[0] for name, snap in goldens.snaps(mp_output.check(check)).items()}

    @pytest.mark.parametrize("check", BY_CHECK)
    def test_every_screen_is_captured(self, mp_output, check):
        glasses = self.glasses(mp_output, check)
        assert tuple(glasses) == BY_CHECK[check]
        for name, glass in glasses.items():
            assert len(glass) == pm.RAM_SIZE and any(glass), name + " is blank"

    @pytest.mark.parametrize("name", SCREENS + COACH_SCREENS)
    def test_screen_matches_golden(self, mp_output, name, tmp_path):
        check = next(check for check, names in BY_CHECK.items() if name in names)
        goldens.check(
            "screens/" + name, (self.glasses(mp_output, check)[name], None, None), tmp_path
        )
