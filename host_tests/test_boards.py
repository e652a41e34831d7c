"""Board files under the fake machine: README wiring, SPI mode and speed, pull-ups, wake-up."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_boards_under_fake_machine(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_boards.py", heapsize="256k", paths=(hostboard,))
    assert "PASS test_pico_wiring" in out and "PASS test_esp32_wiring" in out
