"""The firmware harness (testbed/harness.py on testbed/hostboard) and the real firmware under it:
main.py, both board files and the real app boot, sleep and wake, recover from an error, keep
settings."""

from pathlib import Path

import goldens

MP = Path(__file__).parent / "mp"


def test_harness_and_real_firmware(micropython, hostboard):
    out = micropython.run_tests(MP / "mp_harness.py", heapsize="256k", paths=(hostboard,))
    shots = goldens.snaps(out)
    assert set(shots) >= {"boot_pico", "boot_esp32"}
    # Both boards show the same first screen: the board file changes only the wiring.
    assert shots["boot_pico"] == shots["boot_esp32"]
