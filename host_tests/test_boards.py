"""Board files under the fake machine: README wiring, SPI mode and speed, pull-ups, wake-up."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_boards_under_fake_machine(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_boards.py", heapsize="256k", paths=(hostboard,))
    for name in (
        "test_pico_wiring",
        "test_esp32_wiring",
        "test_rp2_model_matches_the_measured_spi_clocks",
        "test_pico_doze_puts_the_lcd_clock_back_to_4_mhz",
        "test_esp32_lcd_clock_is_4_mhz_before_and_after_a_doze",
        "test_pico_doze_runs_to_its_end_whatever_is_pressed",
        "test_esp32_select_wakes_the_doze_others_wait_for_the_timer",
    ):
        assert "PASS " + name in out, out
