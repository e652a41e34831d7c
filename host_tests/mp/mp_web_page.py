# web/oxoweb.py's Page under MicroPython, as the page steps it (with the host board's fake
# machine and a fake clock): what its coach answers, and that an unchanged answer costs nothing;
# its link cable to another tab (tabend.TabEnd) plugged into the board's link UART.
# The browser checks (host_tests/web/web_coach.mjs) check what the grid shows.
# SPDX-License-Identifier: MIT
import binascii
import gc
import json
import os
import sys
import time

import machine
import mptest
import oxoweb
from mptest import check

# The page keeps settings.json in its current folder (the page's flash): here a folder of this
# run's, not the checkout the tests run from.
os.chdir(sys.argv[1])


def page():
    time.use(time.FakeClock())
    p = oxoweb.Page("pico")
    clock = time.clock()

    def run(ms):
        end = clock.now + ms
        while clock.now < end:
            wait = p.step()
            clock.sleep_ms(wait if wait > 0 else 1)

    def press(name, ms=80):
        p.press(name, True)
        run(ms)
        p.press(name, False)
        run(200)

    run(1500)  # the chime, the title
    return p, run, press


def test_the_coach_answers_once_per_change_and_nothing_in_between():
    p, run, press = page()
    press("SELECT")  # the title: the menu
    press("NEXT")  # 2 Players
    press("SELECT")
    game = p.runner.app.shared.game
    press("SELECT")  # X
    press("NEXT", 1000)  # a hold: the menu, the game waiting behind Continue
    check(json.loads(p.coach())["why"] == oxoweb.WAITING, "the waiting game not said")
    press("SELECT")  # Continue
    check(json.loads(p.coach())["why"] == oxoweb.COACH_OFF, "not back in the game")  # off: default
    for _ in range(9):  # each mark where the cursor is, X and O in turn, to the end
        if game.over():
            break
        press("SELECT")
    check(game.over(), "the game did not end")
    press("SELECT", 1000)  # a hold on the result: the review, its first move
    answer = p.coach()
    check(answer is not None and "Review" in json.loads(answer)["note"], repr(answer))
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(50):
            check(p.coach() is None, "answered again with nothing changed")
        spent = gc.mem_alloc() - before
    finally:
        gc.enable()
    check(spent == 0, "50 unchanged answers left %d bytes" % spent)
    press("NEXT")  # the review's next move: a new answer
    check(p.coach() is not None, "no answer for the next move")


class TabCable:
    # web/tabcable.js's TabCable as tabend.TabEnd sees it: take() what came, send() what goes,
    # both hex (the browser check web_link.mjs runs the real one between two tabs).
    def __init__(self):
        self.came = []
        self.sent = []

    def take(self):
        text = "".join(self.came)
        self.came = []
        return text

    def send(self, text):
        self.sent.append(text)


def test_the_tab_cable_is_plugged_into_the_link_uart_and_carries_every_byte():
    cable = TabCable()
    time.use(time.FakeClock())
    p = oxoweb.Page("pico")
    p.plug(cable)
    try:
        cable.came.append("00ff")  # before the UART is opened: lost, as on a board
        uart = machine.UART(p.board.LINK_UART)  # what link play's hardware.link call opens
        check(uart.any() == 0, "bytes from before the UART was opened were read")
        data = bytes(range(256))
        check(uart.write(data) == 256, "not all written")
        check(binascii.unhexlify("".join(cable.sent)) == data, "the bytes sent changed")
        cable.came.append(binascii.hexlify(data[:200]).decode())
        buf = bytearray(150)
        check(uart.readinto(buf) == 150 and buf == data[:150], "the first 150 not read")
        check(uart.any() == 50, "the other 50 not waiting")
        check(uart.readinto(buf) == 50 and buf[:50] == data[150:200], "the other 50 not read")
        check(uart.readinto(buf) is None, "read with nothing waiting")
    finally:
        machine.plug(p.board.LINK_UART, None)  # the next page has no cable


mptest.run(globals())
