# menu.Menu, the list widget the menu screens move through, and the helpers that step through
# a list, under MicroPython.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=64k
import mptest
from menu import Menu, choice, cycle
from mptest import check
from settings import Settings


def test_moves_wrap_at_both_ends():
    m = Menu((1, 2, 3))
    check(m.current() == 1 and m.index == 0)
    m.move(-1)
    check(m.current() == 3, "PREV from the first row goes to the last")
    m.move(1)
    check(m.current() == 1, "NEXT from the last row goes to the first")
    m.move(4)
    check(m.current() == 2)


def test_select_highlights_an_item_it_has():
    m = Menu((7, 8, 9))
    check(m.select(9) and m.current() == 9)
    check(not m.select(5) and m.current() == 9, "an item it has not got changes nothing")


def test_set_items_keeps_the_highlighted_item():
    m = Menu((1, 2, 3))
    m.select(2)
    m.set_items((0, 1, 2, 3))
    check(m.current() == 2 and m.index == 2)
    m.set_items((1, 3))
    check(m.current() == 1 and m.index == 0, "gone: the first row")


def test_a_menu_has_rows():
    for make in (lambda: Menu(()), lambda: Menu((1,)).set_items(())):
        try:
            make()
            check(False, "an empty menu was accepted")
        except ValueError as err:
            check("at least one item" in str(err), str(err))


def test_cycle_steps_a_setting_through_its_choices_and_wraps():
    s = Settings("unused.json")
    labels = ("YOU", "CPU", "ALT")
    s.set("starts", 0)
    seen = [choice(s, "starts", labels)]
    for step in (1, 1, 1, -1):
        cycle(s, "starts", labels, step)
        seen.append(choice(s, "starts", labels))
    check(seen == ["YOU", "CPU", "ALT", "YOU", "ALT"], "wraps both ways: %r" % (seen,))


mptest.run(globals())
