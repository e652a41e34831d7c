"""demo.py: the CPU-against-CPU demo under the MicroPython unix port, read off the glass."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_demo_on_micropython(micropython, tmp_path):
    out = micropython.run_tests(MP / "mp_demo.py", tmp_path, heapsize="512k")
    for name in (
        "test_demo_starts_when_idle_and_stops_at_a_press",
        "test_sleep_during_the_demo_wakes_on_the_title",
        "test_the_demo_is_loaded_when_it_first_starts",
    ):
        assert "PASS " + name in out
