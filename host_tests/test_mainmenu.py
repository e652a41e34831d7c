"""mainmenu.py: the main menu under the MicroPython unix port, read off the glass."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_mainmenu_on_micropython(micropython, tmp_path):
    out = micropython.run_tests(MP / "mp_mainmenu.py", tmp_path, heapsize="512k")
    for name in (
        "test_title_and_menu",
        "test_no_demo_while_a_paused_game_waits",
        "test_level_and_start_rows_step_and_wrap",
        "test_left_and_right_step_a_value_both_ways_on_a_five_way_pad",
    ):
        assert "PASS " + name in out
