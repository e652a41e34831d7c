# How a menu's row is drawn, and the labels of the setting both menus show ("Start"): the main
# menu's and the settings screen's own, loaded with them and let go with them
# (app._LET_GO_WITH), so a game does not hold them.
# SPDX-License-Identifier: MIT
from pcd8544 import WIDTH
from widgets import CHAR, number

STARTS_LABELS = ("YOU", "CPU", "ALT")  # the settings' "starts": 0, 1, 2 (who begins vs the CPU)


def menu_row(fb, row, label, value, highlight, editing):
    """One 8-pixel menu row: label left, value (str or int, None: none) right-aligned, inverted
    if highlighted. While a value is being adjusted (`editing`) it is framed by < and >."""
    y = row * CHAR
    ink = 1
    if highlight:
        fb.fill_rect(0, y, WIDTH, CHAR, 1)
        ink = 0
    fb.text(label, 1, y, ink)
    if value is None:
        return
    right = WIDTH - 1  # the last column
    if editing and highlight:
        fb.text("<", 43, y, ink)
        fb.text(">", 76, y, ink)
        right = 75
    if isinstance(value, int):
        number(fb, value, right, y, ink)
    else:
        fb.text(value, right + 1 - CHAR * len(value), y, ink)
