"""title.py: the first screen under the MicroPython unix port, read off the glass."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_title_on_micropython(micropython, tmp_path):
    out = micropython.run_tests(MP / "mp_title.py", tmp_path, heapsize="512k")
    for name in (
        "test_the_prompt_blinks",
        "test_a_press_opens_the_menu_at_once_and_its_hold_does_nothing_more",
    ):
        assert "PASS " + name in out
