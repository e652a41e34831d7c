# Reading main.py's own screens (error, safe mode), for the MicroPython checks of main.py
# (mp_main.py, mp_main_watchdog.py).
# SPDX-License-Identifier: MIT


def small(h, text):
    """The glass shows text in the small font (smallfont.py) of the error and safe-mode screens."""
    return h.small(text) is not None
