"""Light sleep and waking, through main.py, the board files and the app on the fake machine
modelling each board's port: the LCD's SPI clock after every wake (rp2 changes clk_peri in
light sleep), wake latency per port and button, and a waking press that only wakes."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_sleep_and_wake_on_each_port(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_wake.py", heapsize="512k", paths=(hostboard,))
    for name in ("test_pico_lcd_clock_is_4_mhz_after_every_wake",):
        assert "PASS " + name in out, out
