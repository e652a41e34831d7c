"""Light sleep and waking, through main.py, the board files and the app on the fake machine
modelling each board's port: the LCD's SPI clock after every wake (rp2 changes clk_peri in
light sleep), wake latency per port and button, and a waking press that only wakes."""

import re
from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_sleep_and_wake_on_each_port(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_wake.py", heapsize="512k", paths=(hostboard,))
    for name in (
        "test_pico_lcd_clock_is_4_mhz_after_every_wake",
        "test_pico_wakes_at_the_end_of_the_slice_and_the_press_only_wakes",
        "test_esp32_select_wakes_at_once_prev_next_at_the_end_of_the_slice",
        "test_pico_a_press_as_long_as_a_slice_wakes_it_a_shorter_tap_may_not",
    ):
        assert "PASS " + name in out, out
    # The figures the README quotes (press -> first frame, fake clock, 50 ms slices).
    figures = dict(
        ((board, button), (int(lo), int(hi)))
        for board, button, lo, hi in re.findall(
            r"^WAKE (\w+) (\w+) min (\d+) max (\d+) ms$", out, re.M
        )
    )
    assert figures[("esp32", "select")] == (0, 0), figures
    for board, button in (
        ("pico", "prev"),
        ("pico", "next"),
        ("pico", "select"),
        ("esp32", "prev"),
        ("esp32", "next"),
    ):
        assert figures[(board, button)] == (0, 49), figures
