"""Board files under the fake machine: README wiring, SPI mode and speed, pull-ups, wake-up."""

import mpcheck


class mp_boards(mpcheck.Script):
    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)
