# The pads a board file builds: three buttons, or a 5-way switch and SELECT (buttons.Pad).
# SPDX-License-Identifier: MIT
# Used only while the board is built: startup.main lets this module go with the board file, so a
# game does not keep these functions in RAM (the pad itself is buttons.py's).
from buttons import DOWN, LEFT, NEXT, PREV, PREV_NEXT, RIGHT, SELECT, UP, Button, Pad


def three_buttons(prev_pin, next_pin, select_pin, pressed_level=0, **options):
    """PREV/NEXT (auto-repeat, no long press), SELECT (long press) and the PREV+NEXT chord;
    options go to buttons.Pad (debounce_ms, long_ms, chords, ...)."""
    options.setdefault("chords", (PREV_NEXT,))
    return _pad(((PREV, prev_pin), (NEXT, next_pin)), select_pin, pressed_level, options)


def five_way(up, down, left, right, select, pressed_level=0, **options):
    """Four directions (auto-repeat, no long press) and SELECT (long press). No chords, as a
    5-way switch cannot press two directions at once; options go to buttons.Pad (chords=...
    adds one)."""
    movers = ((UP, up), (DOWN, down), (LEFT, left), (RIGHT, right))
    return _pad(movers, select, pressed_level, options)


def _pad(movers, select, level, options):
    buttons = [Button(pin, name, level, long_press=False, repeat=True) for name, pin in movers]
    buttons.append(Button(select, SELECT, level))
    return Pad(buttons, **options)
