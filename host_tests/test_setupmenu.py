"""setupmenu.py: the settings screen under the MicroPython unix port, read off the glass: the
contrast's live preview and its limits, light, level, who starts, clearing the scores."""

import mpcheck


class mp_setupmenu(mpcheck.Script):
    """Its checks, each a pytest item: mp_setupmenu.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)


class mp_setupmenu_cut(mpcheck.Script):
    """Each change on the settings screen written once made: a power cut at any point of its
    write (littlefs on the Pico's flash) leaves the old or the new file, and a cut after it
    boots with the new value."""

    heapsize = "2048k"
    paths = (mpcheck.fixture("hostboard"),)
