"""flash.py under MicroPython: a lent filesystem held only while the game's files are used."""

import mpcheck


class mp_flash(mpcheck.Script):
    """Its checks, each a pytest item: mp_flash.py under MicroPython."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)
