# The one check of a number that comes in through a public call: an int within its range.
# SPDX-License-Identifier: MIT


def int_in(name, value, low, high):
    """`value` if it is an int from low to high; else ValueError saying what `name` must be. A
    bool is refused: True passed as a contrast or a button name is a mistake, not 1."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise ValueError("%s must be an int %d..%d, not %r" % (name, low, high, value))
