"""setupmenu.py: the settings screen under the MicroPython unix port, read off the glass: the
contrast's live preview and its limits, light, level, who starts, clearing the scores."""

import mpcheck


class mp_setupmenu(mpcheck.Script):
    """Its checks, each a pytest item: mp_setupmenu.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)
