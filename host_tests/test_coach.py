"""coach.py and the Coach setting: a mark for every value, golden screens. The marks on the glass
against gameboard.root_scores in every position a game goes on from, the coach's code loaded only
while used, no garbage: under MicroPython (mp/mp_coach_glass.py, mp_coach.py)."""

import binascii
import re

import coach
import goldens
import mpcheck
import pytest


def test_every_value_has_its_mark():
    # A win n plies away is the mover's ((n + 1) // 2)-th move, a loss the other's (n // 2)-th.
    for plies in range(1, 10, 2):
        assert coach.mark(128 + 100 - plies) == b"W%d" % ((plies + 1) // 2)
    for plies in range(2, 9, 2):
        assert coach.mark(128 - 100 + plies) == b"L%d" % (plies // 2)
    assert coach.mark(128) == b"D"


COACH_SCREENS = ("coach_told", "coach_empty", "coach_mid", "coach_cursor_best")


class mp_coach_screens(mpcheck.Script):
    """The coach's screens as the glass shows them, against host_tests/golden/screens/
    (regenerate after an intended change with UPDATE_GOLDEN=1, as test_app_screens.py says)."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    @pytest.mark.parametrize("name", COACH_SCREENS)
    def test_screen_matches_golden(self, mp_output, name, tmp_path):
        printed = mp_output.check("test_the_buttons_reach_the_coachs_screens")
        found = dict(re.findall(r"^GLASS (\w+) ([0-9a-f]+)$", printed, re.M))
        assert tuple(found) == COACH_SCREENS
        goldens.check("screens/" + name, (binascii.unhexlify(found[name]), None, None), tmp_path)
