# A vertical list of items with a highlighted row, for the main menu and the settings screen.
# SPDX-License-Identifier: MIT
from micropython import const
from settings import CONTRAST_MAX

# Rows of the main menu and the settings screen, each an index into LABELS.
CONTINUE = const(0)
PLAY_1P = const(1)
PLAY_2P = const(2)
LEVEL = const(3)
STARTS = const(4)
GO_SETTINGS = const(5)
CONTRAST = const(6)
LIGHT = const(7)
RESET = const(8)
BACK = const(9)
LABELS = (
    "Continue",
    "1P vs CPU",
    "2 Players",
    "Level",
    "Start",
    "Settings",
    "Contr",
    "Light",
    "Scores",
    "Back",
)
MAIN = (PLAY_1P, PLAY_2P, LEVEL, STARTS, GO_SETTINGS)
MAIN_PAUSED = (CONTINUE, PLAY_1P, PLAY_2P, LEVEL, STARTS, GO_SETTINGS)
SETUP = (CONTRAST, LIGHT, LEVEL, STARTS, RESET, BACK)
_STARTS_TEXT = ("YOU", "CPU", "ALT")
_ONOFF = ("OFF", "ON")


class Menu:
    """Items are small ints chosen by the caller; `index` is the highlighted row."""

    def __init__(self, items):
        if not items:
            raise ValueError("a menu needs at least one item")
        self.items = items
        self.index = 0
        self.editing = False  # the highlighted value is being adjusted with prev/next

    def current(self):
        return self.items[self.index]

    def move(self, step):
        """Move the highlight by step rows, wrapping around at both ends."""
        self.index = (self.index + step) % len(self.items)

    def select(self, item):
        """Highlight `item` if the menu has it; return whether it did."""
        for i in range(len(self.items)):
            if self.items[i] == item:
                self.index = i
                return True
        return False

    def set_items(self, items):
        """Replace the rows, keeping the same item highlighted where it still exists."""
        keep = self.items[self.index]
        self.items = items
        self.index = 0
        self.select(keep)
        self.editing = False


def value(settings, item, levels, confirm):
    """What a row shows on its right: a str, an int, or None (levels: the level labels)."""
    if item == LEVEL:
        return levels[settings.get("level")]
    if item == STARTS:
        return _STARTS_TEXT[settings.get("starts")]
    if item == CONTRAST:
        return settings.get("contrast")
    if item == LIGHT:
        return _ONOFF[1 if settings.get("backlight") else 0]
    if item == RESET:
        return "CLR?" if confirm else "CLR"
    return None


def adjust(settings, lcd, item, step, levels):
    """Change the setting behind `item` by step (+1/-1); contrast and light apply at once."""
    if item == CONTRAST:
        vop = settings.get("contrast") + step
        if 0 <= vop <= CONTRAST_MAX:
            settings.set("contrast", vop)
            lcd.contrast(vop)  # live preview
    elif item == LIGHT:
        on = not settings.get("backlight")
        settings.set("backlight", on)
        lcd.backlight(on)
    elif item == LEVEL:
        settings.set("level", (settings.get("level") + step) % levels)
    elif item == STARTS:
        settings.set("starts", (settings.get("starts") + step) % 3)
