"""The firmware on the host (testbed/hostapp.py on testbed/hostboard) and the real firmware
under it: main.py, both board files and the real app boot, sleep and wake, recover from an
error, keep settings."""

import goldens
import mpcheck


class mp_harness(mpcheck.Script):
    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    def test_both_boards_boot_to_the_same_screen(self, mp_output):
        shots = goldens.snaps(mp_output)
        assert set(shots) >= {"boot_pico", "boot_esp32"}
        # The board file changes only the wiring.
        assert shots["boot_pico"] == shots["boot_esp32"]
