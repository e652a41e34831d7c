"""The fake machine (testbed/hostboard/machine.py) under MicroPython: its Pin and SPI are the
host's stand-ins (fakebus) with the port's API and clocks. The port models themselves are
checked with the board files (test_boards.py, test_wake.py)."""

import mpcheck


class mp_machine(mpcheck.Script):
    heapsize = "64k"
    paths = (mpcheck.fixture("hostboard"),)
