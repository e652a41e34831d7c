# errorlog.py on a RAM flash (littlefs, the harness's): one bounded line per error, the file
# kept under LOG_MAX with its newest lines.
# SPDX-License-Identifier: MIT
import os

import harness
import mptest
from harness import read
from mptest import check


def test_error_log_stays_bounded_and_keeps_newest():
    harness.Harness("pico")  # a fresh RAM flash as the cwd
    import errorlog

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
    harness.Harness("pico")
    import errorlog

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
    harness.Harness("pico")
    import errorlog

    try:
        raise ValueError("line one\nline two " + "y" * 300)
    except ValueError as exc:
        errorlog.log(exc)
    text = read(errorlog.LOG)
    check(text.count("\n") == 1 and len(text) <= 120, repr(text))


mptest.run(globals())
