# error.log on the board's flash: one line per error, the file kept under 2 KB; and the copy of
# a settings file that did not parse. Loaded only when there is something to keep.
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


def log(exc, path=LOG):
    """Append one line about exc to the log (see note): "<type>: <message> @<file>:<function>"."""
    note("%s: %s @%s" % (type(exc).__name__, message(exc), where(exc)), path)


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


def watchdog_reset(timeout_ms, path=LOG):
    """Say on the REPL that the watchdog reset the board (a step ran over timeout_ms), and note
    it once for a run of such boots (note_once: a hang that comes back at every start)."""
    print("oxo5110: the watchdog reset the board: the game hung.")
    note_once("watchdog reset: a step ran over %d s" % (timeout_ms // 1000), path)


def note_once(text, path=LOG):
    """note(text), unless the log's last line already says text (a loop that repeats it, such
    as resets by the watchdog, leaves one line)."""
    try:
        size = os.stat(path)[6]
        with open(path, "rb") as f:
            f.seek(max(0, size - _LINE_MAX))
            if f.read(_LINE_MAX).endswith((" " + text + "\n").encode()):
                return
    except OSError:
        pass  # no log yet
    note(text, path)


def note(text, path=LOG):
    """Append "t=<time.time()> <text>" as one line to the log, keeping the file under LOG_MAX
    bytes (t is the board's clock in seconds: since its fixed start date at power-on unless
    the RTC was set). A log that cannot be written is reported on the REPL only."""
    text = "t=%d %s" % (time.time(), text)
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
