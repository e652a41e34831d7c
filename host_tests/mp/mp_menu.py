# menu.Menu, the list widget the menu screens move through, under MicroPython.
# SPDX-License-Identifier: MIT
import mptest
from menu import Menu
from mptest import check


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


mptest.run(globals())
