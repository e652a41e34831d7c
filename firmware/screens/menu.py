# A list of items with one highlighted: what a menu screen moves through, and how a setting's
# choices step through a list (the way a button moves: buttons.direction).
# SPDX-License-Identifier: MIT


def choice(settings, key, labels):
    """The label of the setting `key`, an index into `labels` (its choices' labels)."""
    return labels[settings.get(key)]


def cycle(settings, key, labels, step):
    """Step the setting `key`, an index into `labels`, by `step`, wrapping around."""
    settings.set(key, (settings.get(key) + step) % len(labels))


class Menu:
    """Items are values chosen by the screen that owns the list (it gives them their labels and
    meaning); `index` is the highlighted row. Moves wrap around at both ends."""

    def __init__(self, items):
        if not items:
            raise ValueError("a menu needs at least one item")
        self.items = items
        self.index = 0

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
        """Replace the rows, keeping the same item highlighted where it still exists (else the
        first row)."""
        if not items:
            raise ValueError("a menu needs at least one item")
        keep = self.items[self.index]
        self.items = items
        self.index = 0
        self.select(keep)
