"""mainmenu.py: the main menu under the MicroPython unix port, read off the glass."""

from pathlib import Path

import mpcheck

MP = Path(__file__).parent / "mp"


class mp_mainmenu(mpcheck.Script):
    """Its checks, each a pytest item: mp_mainmenu.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
