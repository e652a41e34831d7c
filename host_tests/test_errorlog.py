"""errorlog.py under MicroPython on a RAM flash: one bounded line per error, the file bounded."""

import mpcheck


class mp_errorlog(mpcheck.Script):
    """Its checks, each a pytest item: mp_errorlog.py under MicroPython."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)
