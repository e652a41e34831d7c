# demo.py (and title.py, which starts it): the CPU-against-CPU demo, read off the glass.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import random

import mptest
from appplay import marks, rig_with
from buttons import NEXT, PREV
from hostapp import HostApp
from mptest import check


def test_sleep_during_the_demo_wakes_on_the_title():
    random.seed(13)
    r = rig_with(sleep_s=20)  # asleep 5 s into the demo
    r.run(r.app.demo_after_ms + 1000)
    check(r.status(0, "DEMO"), "demo started:\n" + r.show())
    r.run(20000 - r.app.demo_after_ms)
    check(r.model.powered_down and r.blank(), "asleep")
    r.click(NEXT)  # only wakes the display
    check(not r.model.powered_down, "awake")
    check(r.text_at("OXO 5110", 10, 21), "the title, not the demo:\n" + r.show())
    check(not r.status(0, "DEMO"), r.show())
    r.run(1000)
    check(r.text_at("OXO 5110", 10, 21), "and it stays there:\n" + r.show())


def test_the_demo_starts_when_idle_plays_and_a_press_ends_it_and_lets_it_go():
    import sys

    sys.modules.pop("demo", None)
    random.seed(12)
    r = HostApp(alone=True)
    r.run(r.app.demo_after_ms - 500)
    check(r.text_at("OXO 5110", 10, 21), "the title while not idle long enough:\n" + r.show())
    check(not r.status(0, "DEMO") and "demo" not in sys.modules, "loaded before it started")
    r.run(1000)
    check(r.status(0, "DEMO"), "demo started:\n" + r.show())
    r.run(3000)
    check(marks(r) >= 3, "the demo plays:\n" + r.show())
    r.click(PREV)
    check(r.text_at("OXO 5110", 10, 21), "a press stops the demo:\n" + r.show())
    check(type(r.app.screen).__name__ == "Title", "the title shows")
    r.run(100)
    check(r.text_at("OXO 5110", 10, 21), "and does nothing else")
    r.run(r.app.demo_after_ms + 1000)  # a second demo: the module is loaded again
    check(r.status(0, "DEMO") and marks(r) >= 1, "the demo again:\n" + r.show())


mptest.run(globals())
