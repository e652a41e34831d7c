# mainmenu.py: the main menu, driven by the buttons and read off the glass; and menu.Menu, the
# list widget the menu screens move through, with the helpers that step through a list.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import mptest
from appplay import LEVELS, board_of, menu_to, new_1p, play_cell, to_menu
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp
from menu import Menu, choice, cycle
from mptest import check
from settings import Settings


def test_no_demo_while_a_paused_game_waits():
    r = new_1p(LEVELS - 1, "YOU", seed=14)
    play_cell(r, 4)
    board = board_of(r)
    r.hold(NEXT, 700)  # pause: to the menu
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), r.show())
    r.run(r.app.demo_after_ms + 2000)
    check(not r.status(0, "DEMO"), "no demo over a paused game:\n" + r.show())
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), "menu stays:\n" + r.show())
    r.click(SELECT)  # Continue
    r.run(50)
    check(board_of(r) == board and r.cursor() >= 0, "the game is as it was:\n" + r.show())


def value_on_row(r, row, texts):
    """Which of texts the highlighted `row` shows right-aligned, or None."""
    for text in texts:
        if r.text_at(text, 84 - 8 * len(text), 8 * row, True):
            return text
    return None


def test_level_and_start_rows_step_and_wrap():
    r = HostApp(alone=True)
    to_menu(r)
    menu_to(r, 2)
    seen = [value_on_row(r, 2, ("EASY", "MED", "HARD", "PERF"))]
    for _ in range(LEVELS):
        r.click(SELECT)
        seen.append(value_on_row(r, 2, ("EASY", "MED", "HARD", "PERF")))
    check(seen == ["HARD", "PERF", "EASY", "MED", "HARD"], "levels wrap: %r" % (seen,))
    menu_to(r, 3)
    seen = [value_on_row(r, 3, ("YOU", "CPU", "ALT"))]
    for _ in range(3):
        r.click(SELECT)
        seen.append(value_on_row(r, 3, ("YOU", "CPU", "ALT")))
    check(seen == ["ALT", "YOU", "CPU", "ALT"], "who starts cycles: %r" % (seen,))
    check(r.settings.get("level") == 2 and r.settings.get("starts") == 2)


def test_left_and_right_step_a_value_both_ways_on_a_five_way_pad():
    import buttons

    r = HostApp("fiveway", alone=True)
    r.run(50)
    r.click(SELECT)
    for _ in range(2):
        r.click(buttons.DOWN)
    check(r.menu_row(2) and value_on_row(r, 2, ("HARD",)), r.show())
    r.click(buttons.LEFT)
    check(value_on_row(r, 2, ("MED",)) == "MED", r.show())
    r.click(buttons.RIGHT)
    r.click(buttons.RIGHT)
    check(value_on_row(r, 2, ("PERF",)) == "PERF" and r.menu_row(2), r.show())


def arrow(r, tip_y, toward, ink=1):
    # The menu's scroll arrow (mainmenu._arrow) at the right edge: black on a plain row, white
    # (ink 0) on the highlighted one.
    return all(
        r.pixel(81 - k + i, tip_y + k * toward) == ink for k in range(3) for i in range(2 * k + 1)
    )


def test_link_play_is_the_last_row_and_a_longer_list_scrolls_to_it():
    r = HostApp(alone=True)
    to_menu(r)
    r.click(PREV)  # from the first row round to the last
    check(r.menu_row(5) and r.text_at("Link play", 1, 40, True), r.show())
    check(not arrow(r, 0, 1) and not arrow(r, 47, -1, 0), "6 rows fit: no arrow\n" + r.show())
    r.click(NEXT)
    r.click(SELECT)  # a 1P game, left for the menu: Continue makes 7 rows
    r.run(50)
    r.hold(NEXT, 700)
    check(r.text_at("Continue", 1, 0, True) and r.text_at("Settings", 1, 40), r.show())
    check(arrow(r, 47, -1) and not arrow(r, 0, 1, 0), "a row below: the down arrow\n" + r.show())
    r.click(PREV)  # round to Link play: the list scrolls by one
    check(r.text_at("Link play", 1, 40, True) and r.text_at("1P vs CPU", 1, 0), r.show())
    check(arrow(r, 0, 1) and not arrow(r, 47, -1, 0), "a row above: the up arrow\n" + r.show())


def test_a_board_without_a_link_cable_says_so():
    r = HostApp(alone=True)
    r.hw.link = None  # a board file that names no cable
    to_menu(r)
    r.click(PREV)
    r.click(SELECT)
    check(r.shows("has no") and r.shows("cable."), r.show())
    r.click(SELECT)
    check(r.text_at("Link play", 1, 40, True), "a click goes back to the menu\n" + r.show())


# -- menu.Menu --------------------------------------------------------------------------------


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
