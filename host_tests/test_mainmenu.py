"""mainmenu.py: the main menu under the MicroPython unix port, read off the glass."""

import mpcheck


class mp_mainmenu(mpcheck.Script):
    """Its checks, each a pytest item: mp_mainmenu.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
