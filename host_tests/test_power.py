"""power.py: the idle timers on their own, and through the app (dim, sleep, the press that only
wakes), under the MicroPython unix port."""

import mpcheck


class mp_power(mpcheck.Script):
    """Its checks, each a pytest item: mp_power.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
