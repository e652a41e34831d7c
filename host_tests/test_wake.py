"""Light sleep and waking, through main.py, the board files and the app on the fake machine
modelling each board's port: the LCD's SPI clock after every wake (rp2 changes clk_peri in
light sleep), wake latency per port and button, and a waking press that only wakes."""

import re

import mpcheck


class mp_wake(mpcheck.Script):
    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    def test_wake_latency_per_port_and_button(self, mp_output):
        # Press -> first frame on the fake clock, 50 ms slices: what docs/design.md describes
        # (a Pico sees a press when its slice ends; an ESP32's SELECT, the ext0 pin, at once).
        figures = dict(
            ((board, button), (int(lo), int(hi)))
            for board, button, lo, hi in re.findall(
                r"^WAKE (\w+) (\w+) min (\d+) max (\d+) ms$", mp_output, re.M
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
