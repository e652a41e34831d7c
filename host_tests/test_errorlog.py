"""errorlog.py under MicroPython on a RAM flash: one bounded line per error, the file bounded."""

from pathlib import Path

MP = Path(__file__).parent / "mp"


def test_error_log_on_flash(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_errorlog.py", heapsize="256k", paths=(hostboard,))
    assert "PASS test_error_log_stays_bounded_and_keeps_newest" in out
    assert "PASS test_oversized_old_log_is_cut_to_its_newest_lines" in out
