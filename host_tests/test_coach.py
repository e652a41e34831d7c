"""coach.py and the Coach setting: a mark for every value. The marks on the glass against
gameboard.root_scores in every position a game goes on from, the coach's code loaded only while
used, no garbage: under MicroPython (mp/mp_coach.py); its golden screens:
test_app_screens.py."""

import coach


def test_every_value_has_its_mark():
    # A win n plies away is the mover's ((n + 1) // 2)-th move, a loss the other's (n // 2)-th.
    for plies in range(1, 10, 2):
        assert coach.mark(128 + 100 - plies) == b"W%d" % ((plies + 1) // 2)
    for plies in range(2, 9, 2):
        assert coach.mark(128 - 100 + plies) == b"L%d" % (plies // 2)
    assert coach.mark(128) == b"D"
