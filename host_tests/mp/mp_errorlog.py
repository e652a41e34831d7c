# errorlog.py on a RAM flash (littlefs, a HostApp's): one bounded line per error, the file
# kept under LOG_MAX with its newest lines; each line's boot number and seconds since reset, and
# note_once per boot number.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import os

import errorlog
import hostapp
import mptest
from hostapp import read
from mptest import check


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
            "boot 12 +340s ValueError: boom @mp_errorlog.py:"
            + "test_every_line_says_its_boot_and_the_seconds_since_reset",
            "boot ? +340s ValueError: boom @mp_errorlog.py:"
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
