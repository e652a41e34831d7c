# error.log on the board's flash: one line per error, the file kept under 2 KB; and the copy of
# a settings file that did not parse. Loaded only when there is something to keep.
# A line: "boot <n> +<s>s <text>". No clock is set on these boards, so a line says which start
# of the game it belongs to (n: settings.Settings.count_boot; "?" when the settings were never
# read: the board could not be built, or the settings module failed) and how long after the
# board's reset it came (s: ticks_ms, which wraps after 2**30 ms, 12.4 days).
# SPDX-License-Identifier: MIT
import os
import sys
import time

from micropython import const

LOG = "error.log"
LOG_MAX = const(2048)  # bytes; when full, the oldest half of the lines goes
_LINE_MAX = const(120)


def message(exc):
    """The exception's message; "?" when even that fails (out of memory, a broken __str__)."""
    try:
        return str(exc)
    except Exception:
        return "?"


def where(exc):
    """'file:function' of the innermost frame of exc's traceback, or '?'. The function, not
    the line: a board's .mpy files carry no line numbers (tools/mpy_build.py, lines=False)."""
    try:
        import io

        out = io.StringIO()
        sys.print_exception(exc, out)
        found = "?"
        for line in out.getvalue().split("\n"):
            line = line.strip()
            if line.startswith('File "'):
                parts = line.split('"')
                found = "%s:%s" % (parts[1].split("/")[-1], parts[2].split(",")[-1].split()[-1])
        return found
    except Exception:
        return "?"


def _held(fn):
    # fn with the filesystem held while it runs: a frozen image lends it to the game through
    # settings.use(), and its main.py loads settings.py before the game; with that not loaded,
    # nothing is lent (and a broken settings.py cannot stop an error being logged).
    def held(*args):
        lender = sys.modules.get("settings")
        if lender is None:
            return fn(*args)
        lender.use()
        try:
            return fn(*args)
        finally:
            lender.done()

    return held


def log(exc, boot=None, path=LOG):
    """Append one line about exc to the log (see note): "<type>: <message> @<file>:<function>"."""
    note("%s: %s @%s" % (type(exc).__name__, message(exc), where(exc)), boot, path)


@_held
def keep_copy(path, copy, size, report=None):
    """Copy the first `size` bytes of `path`, a file that did not parse, to `copy` (one copy:
    the latest) for a human to read, and tell report(text) what was lost and where it is
    kept; a copy that cannot be made is reported all the same. Used for settings.json, whose
    defaults then stand in for it."""
    try:
        with open(path, "rb") as f:
            raw = f.read(size)
    except OSError:
        return  # gone since: nothing was lost
    try:
        with open(copy, "wb") as f:
            f.write(raw)
        kept = "kept as " + copy
    except OSError as err:
        kept = "not kept: %s" % err
    if report is not None:
        report("%s unreadable (%d bytes), defaults used; %s" % (path, len(raw), kept))


def watchdog_reset(timeout_ms, boot=None, path=LOG):
    """Say on the REPL that the watchdog reset the board (a step ran over timeout_ms), and note
    it for this boot (number `boot`) with note_once: boots that each hang before their count is
    saved keep one number, so such a run leaves one line; a hang after a start whose count was
    saved (days of play after an earlier one) leaves its own."""
    print("oxo5110: the watchdog reset the board: the game hung.")
    note_once("watchdog reset: a step ran over %d s" % (timeout_ms // 1000), boot, path)


@_held
def note_once(text, boot=None, path=LOG):
    """note(text, boot), unless the log's last line already says text for the same boot."""
    try:
        size = os.stat(path)[6]
        with open(path, "rb") as f:
            f.seek(max(0, size - _LINE_MAX))
            tail = f.read(_LINE_MAX)
        last = tail[tail.rfind(b"\n", 0, len(tail) - 1) + 1 :]
        if last.startswith(_boot(boot).encode()) and last.endswith((" %s\n" % text).encode()):
            return
    except OSError:
        pass  # no log yet
    note(text, boot, path)


@_held
def note(text, boot=None, path=LOG):
    """Append "boot <boot> +<seconds since reset>s <text>" as one line to the log, keeping the
    file under LOG_MAX bytes. A log that cannot be written is reported on the REPL only."""
    # ticks_ms() read as a count, not compared with another: ms since the reset, mod 2**30.
    up = time.ticks_ms() // 1000  # type: ignore[operator]
    text = "%s%ds %s" % (_boot(boot), up, text)
    line = (text.replace("\n", " ")[: _LINE_MAX - 1] + "\n").encode()
    try:
        try:
            size = os.stat(path)[6]
        except OSError:
            size = 0
        if size + len(line) <= LOG_MAX:
            with open(path, "ab") as f:
                f.write(line)
            return
        with open(path, "rb") as f:
            f.seek(max(0, size - LOG_MAX))
            tail = f.read(LOG_MAX)
        # Keep the newest whole lines that fit in half the budget, so trimming is rare; bytes,
        # so a cut through a multi-byte character cannot fail to decode.
        start = tail.find(b"\n", len(tail) - LOG_MAX // 2) + 1
        with open(path + ".tmp", "wb") as f:
            if start > 0:
                f.write(tail[start:])
            f.write(line)
        os.rename(path + ".tmp", path)
    except OSError as err:  # a full or read-only flash must not stop the game
        print("oxo5110: cannot write", path, err)


def _boot(boot):
    # A line's start up to its seconds: "boot 12 +" ("boot ? +" when the number is not known).
    return "boot %s +" % ("?" if boot is None else boot)
