# startup.main(later) on a HostApp, as frozen/main.py calls it on a first boot (later: the
# making of the filesystem): called once, right after the first frame, or before error.log
# is written when that comes first (a first step that fails, a boot after the watchdog's
# reset, a board that cannot be built).
# SPDX-License-Identifier: MIT
# Runs with host_tests/mp/fakeapp first on the path, as mp_main.py does.
import sys

import hostapp
import mptest
from buttons import PREV
from hostapp import read
from mptest import check


class Later:
    """A `later` that notes, at each call, what the glass showed and what error.log held."""

    def __init__(self, h):
        self.h = h
        self.calls = []

    def __call__(self):
        self.calls.append((self.h.shows("APP 1"), read("error.log")))


def boot_with(later):
    def boot():
        sys.modules.pop("startup", None)
        import startup

        startup.main(later)

    return boot


def test_later_runs_once_right_after_the_first_frame():
    h = hostapp.HostApp("pico")
    later = Later(h)

    def script(h):
        yield h.wait(1000)
        yield h.press(PREV)  # a save
        yield h.wait(1000)

    h.play(script, boot=boot_with(later))
    check(later.calls == [(True, "")], repr(later.calls))


def test_a_boot_after_the_watchdogs_reset_runs_later_before_its_log_line():
    # The first step hangs at every start (the file "hang"): no first frame ends, so the first
    # boot never calls later; the next, after the watchdog's reset, does before its line.
    h = hostapp.HostApp("pico", files={"hang": ""})
    later = Later(h)

    def script(h):
        yield h.until(lambda: h.boots == 2, 8000)
        yield h.wait(300)

    h.play(script, boot=boot_with(later))
    check(len(later.calls) == 1 and later.calls[0][1] == "", repr(later.calls))
    check("watchdog reset" in read("error.log"), read("error.log"))


def test_a_board_that_cannot_be_built_runs_later_before_its_log_line():
    h = hostapp.HostApp("badboard")
    later = Later(h)

    def script(h):
        yield h.wait(100)

    h.play(script, boot=boot_with(later))
    check(later.calls == [(False, "")], repr(later.calls))
    check(h.returned and "OSError" in read("error.log"), read("error.log"))


mptest.run(globals())
