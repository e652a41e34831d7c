# main.py's watchdog on a HostApp: a step that never returns, a hang at every start, quick
# crashes in a row, and where the dog must not run (safe mode, the REPL after Ctrl-C). Then
# errorlog.py, where resets and errors leave their line, on a RAM flash (littlefs, a HostApp's):
# one bounded line per error, the file kept under LOG_MAX with its newest lines; each line's
# boot number and seconds since reset, and note_once per boot number.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard},host_tests/mp/fakeapp
# Runs with host_tests/mp/fakeapp first on the path, as mp_main.py (boot, safe mode, the error
# path) does: its app.App is test scaffolding that raises on request.
import os

import errorlog
import hostapp
import machine
import mptest
from buttons import PREV, SELECT
from hostapp import read
from mptest import check


def test_a_step_that_never_returns_resets_the_board_and_logs_it_once():
    for board in ("pico", "esp32"):

        def script(h):
            yield h.wait(300)
            check(machine.wdt() is not None and machine.wdt().timeout == 5000, "no 5 s watchdog")
            yield h.press(PREV, 1000)  # the fake app hangs in a step that never returns
            hung_at = h.now
            yield h.until(lambda: h.boots == 2, 8000)
            after = h.now - hung_at
            check(after < 5000 + 1000, "reset after %d ms" % after)  # the first REPEAT, then 5 s
            check(machine.reset_cause() == machine.WDT_RESET, repr(machine.reset_cause()))
            yield h.wait(300)
            check(h.shows("APP 1"), h.screen())

        h = hostapp.HostApp(board)
        h.play(script)
        log = read("error.log")
        check(h.resets == 1 and log.count("\n") == 1 and "watchdog reset" in log, board + log)
    check(log.startswith("boot 1 +"), log)


def test_a_hang_at_every_start_leaves_one_log_line():
    h = hostapp.HostApp("pico", files={"hang": ""})
    h.play(lambda h: iter((30000,)))  # 30 s of a board left alone
    log = read("error.log")
    check(h.resets >= 5, "the watchdog did not reset the board: %d" % h.resets)
    # Each start hangs before its count is saved: they all are boot 1, one line for them all.
    check(log.count("\n") == 1 and log.startswith("boot 1 +") and "watchdog reset" in log, log)


def test_a_hang_after_a_start_whose_count_was_saved_is_logged_again():
    # Days of play after an earlier watchdog reset, the board hangs again: a second line, with
    # the next boot's number (the fake app saves the settings, the count with them, on PREV);
    # a third hang, with nothing saved since the last reset, adds none.
    def script(h):
        for resets in (1, 2, 3):
            yield h.wait(300)
            if resets < 3:
                yield h.press(PREV)  # a save: this boot's count is on the flash
                yield h.wait(300)
            yield h.press(PREV, 1000)  # a hang: the watchdog resets the board
            yield h.until(lambda n=resets: h.resets == n, 8000)
            yield h.wait(300)

    hostapp.HostApp("pico").play(script)
    lines = read("error.log").split("\n")
    check(len(lines) == 3 and lines[2] == "", repr(lines))
    for line, boot in zip(lines, (2, 3)):  # noqa: B905 - no strict= in MicroPython
        check(line.startswith("boot %d +" % boot), line)
        check(line.endswith(" watchdog reset: a step ran over 5 s"), line)


def test_a_long_step_that_fails_is_followed_by_a_fed_error_screen():
    # The step runs 1 ms short of the watchdog's time and raises: the runner feeds the dog
    # before the error screen, whose frame and error.log line take longer than that 1 ms.
    busy_ms = 5000 - 1

    def script(h):
        yield h.wait(300)
        check(machine.wdt().timeout == 5000)
        before = h.now
        yield h.press(SELECT)
        yield h.wait(1000)
        took = h.now - before  # the press, the busy step, the error screen, the wait
        check(took > busy_ms + 1000 and h.shows("ERROR", inverted=True), "%d ms" % took)

    h = hostapp.HostApp("pico", files={"slow": str(busy_ms)})
    h.play(script)
    check(h.resets == 0 and h.boots == 1, "reset %d times" % h.resets)
    log = read("error.log")
    check(log.count("\n") == 1 and "boom on request" in log, log)


def test_machine_reset_is_not_taken_for_a_watchdog_reset():
    # On the RP2040 machine.reset() (mpremote's reset after a deploy) reboots through the
    # watchdog too and reset_cause() reads WDT_RESET; no line in error.log for it.
    for board, cause in (("pico", machine.WDT_RESET), ("esp32", machine.HARD_RESET)):
        h = hostapp.HostApp(board, files={"reset": ""})
        h.play(lambda h: iter((300,)))
        check(h.resets == 1 and h.boots == 2, repr((board, h.resets, h.boots)))
        check(machine.reset_cause() == cause, repr((board, machine.reset_cause())))
        check(read("error.log") == "", board + ": " + read("error.log"))


def test_safe_mode_never_starts_the_watchdog():
    def script(h):
        h.down(SELECT)
        yield h.wait(1000)
        check(machine.wdt() is None, "a watchdog in safe mode")
        h.up(SELECT)
        yield h.wait(30000)

    h = hostapp.HostApp("pico")
    h.play(script)
    check(h.returned and machine.wdt() is None and h.resets == 0)


def test_ctrl_c_stops_the_watchdog_for_the_repl():
    for board in ("pico", "esp32"):

        def script(h):
            yield h.wait(300)
            yield h.press(SELECT, 1000)  # the fake app raises KeyboardInterrupt on a long press

        h = hostapp.HostApp(board)
        try:
            h.play(script)
            check(False, "KeyboardInterrupt was swallowed")
        except KeyboardInterrupt:
            pass
        check(read("error.log") == "" and not h.shows("ERROR", inverted=True), board + ": logged")
        dog = machine.wdt()
        if board == "pico":
            check(dog is not None and not dog.armed, "the rp2 watchdog still runs")
        else:
            check(dog is not None and dog.timeout >= 3600000, "esp32: %r" % dog.timeout)


def crashes(h, n, ms):
    """Script steps: n errors, each restarted by a press, each restart followed by ms of play."""
    yield h.wait(300)
    for _ in range(n):
        yield h.press(SELECT)  # an error
        yield h.wait(500)
        yield h.press(PREV)  # the press that restarts
        yield h.wait(ms)


def test_after_three_quick_crashes_the_error_screen_stays_and_the_dog_is_fed():
    def script(h):
        yield from crashes(h, 3, 300)
        check(h.shows("ERROR", inverted=True) and h.small("press reset to retry"), h.screen())
        check(read("error.log").count("\n") == 3, read("error.log"))
        yield h.press(PREV)
        yield h.wait(60000)  # far past the watchdog's timeout
        check(h.shows("ERROR", inverted=True) and not h.shows("APP 4"), h.screen())

    h = hostapp.HostApp("pico")
    h.play(script)
    check(h.resets == 0 and h.boots == 1, "reset %d times" % h.resets)


def test_crashes_far_apart_keep_restarting():
    def script(h):
        yield from crashes(h, 4, 61000)  # each game runs over a minute before it fails
        check(h.shows("APP 5"), "a fifth start did not come")

    hostapp.HostApp("pico").play(script)


# -- errorlog.py ------------------------------------------------------------------------------


def fresh(**options):
    """A fresh RAM flash (a HostApp's, with these options) as the current directory."""
    hostapp.HostApp("pico", **options)


def test_error_log_stays_bounded_and_keeps_newest():
    fresh()
    sizes = []
    for n in range(400):
        try:
            raise ValueError("error number %d %s" % (n, "x" * (n % 50)))
        except ValueError as exc:
            errorlog.log(exc)
        sizes.append(os.stat(errorlog.LOG)[6])
    text = read(errorlog.LOG)
    check(max(sizes) <= errorlog.LOG_MAX, "log grew to %d" % max(sizes))
    check(text.endswith("\n") and "error number 399 " in text.split("\n")[-2])
    numbers = [int(line.split("error number ")[1].split()[0]) for line in text.split("\n")[:-1]]
    check(numbers == list(range(numbers[0], 400)), "lines lost or garbled: %r" % numbers)
    check(len(numbers) > 5, "trimming keeps too little")


def test_oversized_old_log_is_cut_to_its_newest_lines():
    fresh()
    with open(errorlog.LOG, "w") as f:
        for n in range(300):
            f.write("old line %d \u00e9\u00e9\n" % n)  # 5 KB, with two-byte characters
    try:
        raise ValueError("newest")
    except ValueError as exc:
        errorlog.log(exc)
    text = read(errorlog.LOG)
    lines = text.split("\n")
    check(
        len(text.encode()) <= errorlog.LOG_MAX and "ValueError: newest" in lines[-2], text[-200:]
    )
    check(lines[-3] == "old line 299 \u00e9\u00e9" and lines[0].startswith("old line "), lines[0])


def test_error_log_line_is_one_bounded_line():
    fresh()
    try:
        raise ValueError("line one\nline two " + "y" * 300)
    except ValueError as exc:
        errorlog.log(exc)
    text = read(errorlog.LOG)
    check(text.count("\n") == 1 and len(text) <= 120, repr(text))


def lines():
    return read(errorlog.LOG).split("\n")[:-1]


def test_every_line_says_its_boot_and_the_seconds_since_reset():
    fresh(start_ms=340000)  # ticks_ms: 340 s since the board's reset
    errorlog.note("settings.json not saved: [Errno 28] ENOSPC", 12)
    try:
        raise ValueError("boom")
    except ValueError as exc:
        errorlog.log(exc, 12)
        errorlog.log(exc)  # before the settings were read (the board could not be built)
    errorlog.watchdog_reset(5000, 13)
    check(
        lines()
        == [
            "boot 12 +340s settings.json not saved: [Errno 28] ENOSPC",
            "boot 12 +340s ValueError: boom @mp_main_watchdog.py:"
            + "test_every_line_says_its_boot_and_the_seconds_since_reset",
            "boot ? +340s ValueError: boom @mp_main_watchdog.py:"
            + "test_every_line_says_its_boot_and_the_seconds_since_reset",
            "boot 13 +340s watchdog reset: a step ran over 5 s",
        ],
        repr(lines()),
    )


def test_a_watchdog_reset_is_noted_once_per_boot_number():
    # Boots that each hang before their count is saved keep one number: one line for the run.
    # A hang after a boot whose count was saved (days of play later) has a new number: logged.
    fresh()
    for boot in (7, 7, 7, 8, 8, 9):
        errorlog.watchdog_reset(5000, boot)
    check([line.split()[1] for line in lines()] == ["7", "8", "9"], repr(lines()))
    errorlog.note("something else", 9)
    errorlog.watchdog_reset(5000, 9)  # the same boot, but not the last line
    errorlog.watchdog_reset(5000, 99)  # "boot 9 +" is not "boot 99 +"
    check([line.split()[1] for line in lines()] == ["7", "8", "9", "9", "9", "99"], repr(lines()))


def test_note_once_reads_the_whole_last_line_and_only_it():
    fresh()
    with open("error.log", "w") as f:
        f.write("t=1609459200 watchdog reset: a step ran over 5 s\n")  # an older firmware's
    errorlog.watchdog_reset(5000, 1)
    check(len(lines()) == 2, "a line from before boot numbers stopped a new one")
    # A last line of the longest length a line can have, its start the boot's number.
    prefix = "boot 3 +0s "
    text = "z" * (119 - len(prefix))
    errorlog.note_once(text, 3)
    errorlog.note_once(text, 3)
    check(len(lines()) == 3 and len(lines()[-1]) == 119, repr(lines()[-1]))
    errorlog.note_once(text, 4)
    check(len(lines()) == 4, "a new boot's line was taken for the last one")


mptest.run(globals())
