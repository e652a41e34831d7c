"""setupmenu.py: the settings screen under the MicroPython unix port, read off the glass: the
contrast's live preview and its limits, light, level, who starts, clearing the scores."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_setupmenu_on_micropython(micropython, tmp_path):
    out = micropython.run_tests(MP / "mp_setupmenu.py", tmp_path, heapsize="512k")
    for name in (
        "test_settings_screen",
        "test_reset_scores_needs_confirmation",
        "test_moving_off_reset_cancels_the_question",
        "test_the_settings_screen_is_loaded_when_first_opened",
        "test_contrast_stops_at_0_and_at_the_generators_limit",
        "test_light_level_and_start_rows",
    ):
        assert "PASS " + name in out
