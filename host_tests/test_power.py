"""power.py: the idle timers on their own, and through the app (dim, sleep, the press that only
wakes), under the MicroPython unix port."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_power_on_micropython(micropython, tmp_path):
    out = micropython.run_tests(MP / "mp_power.py", tmp_path, heapsize="512k")
    for name in (
        "test_power_saving_and_wake",
        "test_sleep_turns_the_backlight_off_even_without_dimming",
        "test_dim_then_sleep_then_a_press_wakes",
        "test_after_dimming_the_first_press_only_lights_the_backlight",
        "test_a_timer_of_0_never_fires",
        "test_the_timers_span_the_tick_wrap",
    ):
        assert "PASS " + name in out
