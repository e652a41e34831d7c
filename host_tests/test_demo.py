"""demo.py: the CPU-against-CPU demo under the MicroPython unix port, read off the glass."""

import mpcheck


class mp_demo(mpcheck.Script):
    """Its checks, each a pytest item: mp_demo.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
