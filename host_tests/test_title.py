"""title.py: the first screen under the MicroPython unix port, read off the glass."""

import mpcheck


class mp_title(mpcheck.Script):
    """Its checks, each a pytest item: mp_title.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
