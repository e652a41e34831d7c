"""The board's serial port, for deploy.py: waiting for it to open (a Pico's is away for about
1.5 s after a reset), resetting the board over it, and watching what the board does then."""

import errno
import fcntl
import os
import re
import time
from pathlib import Path
from urllib.parse import quote

import serial

PORT_WAIT = 10.0  # s for a missing port: a Pico's is back ~1.5 s after a reset, hubs add more
GONE_WAIT = 1.0  # s for the port to go after the reset line (the board resets as it reads it)
SETTLE = 1.0  # s a port that exists may refuse to open: udev sets its owner and mode just after
PROBE_WAIT = 0.3  # s for the REPL to answer a bare Enter (it does in milliseconds)
POLL = 0.02
# Typed at the REPL mpremote leaves: Ctrl-C twice ends a half-typed line, Ctrl-B leaves a raw
# REPL, and the reset starts the board afresh (main.py runs).
RESET_LINE = b"\r\x03\x03\x02import machine; machine.reset()\r"


class UsageError(Exception):
    """A wrong BOARD or PORT: the message says what to use instead."""


class PortProblem(Exception):
    """The port opened, but no MicroPython could be asked on it: the message says why."""


def present(port):
    """Whether the port's device exists."""
    return os.path.exists(port)


NO_PERMISSION = (errno.EACCES, errno.EPERM)
NOT_SERIAL = (errno.ENOTTY, errno.EISDIR)
IN_USE = (errno.EAGAIN, errno.EWOULDBLOCK)


def open_error(port):
    """None if the port opens now, else why not (FileNotFoundError while it is away; ENOTTY for
    a file that is no terminal; EWOULDBLOCK while another program holds the exclusive lock
    mpremote, Thonny and pyserial take, as pyserial's exclusive open would meet it)."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as err:
        return err
    try:
        if not os.isatty(fd):
            return OSError(errno.ENOTTY, os.strerror(errno.ENOTTY), port)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        return err
    finally:
        os.close(fd)  # and with it the lock
    return None


def wait_ready(port, seconds):
    """Wait up to `seconds` for the port to open; None, or why it did not. A port that exists
    but refuses gets SETTLE seconds, not the whole wait (no permission is no typo)."""
    start = time.monotonic()
    settle_end = None
    while True:
        err = open_error(port)
        now = time.monotonic()
        if err is None:
            return None
        if present(port) and settle_end is None:
            # Only a permission can change by itself that soon (udev); no file becomes a tty.
            settle_end = now + (SETTLE if err.errno in NO_PERMISSION else 0)
        if now - start >= seconds or (settle_end is not None and now >= settle_end):
            return err
        time.sleep(POLL)


WHERE = (
    "(Linux: /dev/ttyACM0 for a Pico, /dev/ttyUSB0 for most ESP32 boards; "
    "`.venv/bin/mpremote connect list` shows them)"
)


def port_problem(port, err, waited):
    if not present(port):
        waited = "" if waited is None else " (waited %g s for it)" % waited
        return f"port {port} does not exist{waited}: is the board plugged in? {WHERE}"
    if err.errno in IN_USE:
        return (
            f"{port} is in use by another program (make repl, Thonny, a serial monitor?): "
            "close it and try again"
        )
    if err.errno in NOT_SERIAL:
        return f"{port} is not a serial port {WHERE}"
    said = "cannot open %s: %s" % (port, err.strerror or err)
    if err.errno in NO_PERMISSION:
        said += " (Linux: is your user in the dialout group?)"
    return said


# The ports these tools have seen, one empty file each (its name the port's, quoted): a missing
# port that was seen may be away for a reset and is waited for; one never seen (a typo, a board
# not plugged in) is refused at once. OXO5110_SEEN_PORTS: another folder (the tests' own).
SEEN = Path(__file__).resolve().parents[1] / "build" / "ports"


def seen_mark(port):
    return Path(os.environ.get("OXO5110_SEEN_PORTS") or SEEN) / quote(port, safe="")


def check_port(port, target="deploy", wait=PORT_WAIT, needs_board=False):
    """The port, once it opens; a missing one that was seen before is waited for (it may be
    coming back after a reset), up to `wait` seconds; one never seen is refused at once.
    needs_board: the example given for a missing PORT names a BOARD too."""
    if not port:
        raise UsageError(
            "no PORT given: use e.g. `make %s%s PORT=/dev/ttyACM0` "
            "(`.venv/bin/mpremote connect list` shows the connected boards)"
            % (target, " BOARD=pico" if needs_board else "")
        )
    mark = seen_mark(port)
    if present(port):
        try:
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()
        except OSError:
            pass  # a read-only checkout: missing ports are then refused at once, as never seen
    if open_error(port) is None:
        return port
    if not present(port):
        if not mark.exists():
            raise UsageError(port_problem(port, FileNotFoundError(), None))
        print(
            "%s: waiting for %s to come back (up to %g s; a Pico's port is away for about "
            "1.5 s after a reset)..." % (target, port, wait),
            flush=True,
        )
    err = wait_ready(port, wait)
    if err is not None:
        raise UsageError(port_problem(port, err, wait))
    return port


def wait_until(check, seconds):
    """True as soon as check() is, False after `seconds`."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() >= end:
            return False
        time.sleep(POLL)
    return True


def open_line(port):
    """The port opened as mpremote opens it (115200, exclusive)."""
    return serial.Serial(port, 115200, timeout=0.05, exclusive=True)


def read_until(line, pattern, wait):
    """The match of `pattern` in what the port sends within `wait` s, or None. What came in
    time is read even if this process gets the CPU back only after the deadline (a busy
    machine)."""
    seen = b""
    end = time.monotonic() + wait
    while True:
        late = time.monotonic() >= end
        seen += line.read(256)
        found = re.search(pattern, seen)
        if found or late:
            return found


def repl_answers(port):
    """Whether the REPL answers a bare Enter with a prompt by PROBE_WAIT s after it.
    While main.py runs it does not answer an Enter (the byte waits in the program's stdin);
    once main.py has returned (safe mode, a board that could not be built) it does."""
    with open_line(port) as line:
        line.reset_input_buffer()
        line.write(b"\r")
        return read_until(line, rb">>> ", PROBE_WAIT) is not None


NO_REPL_WAIT = 1.0  # s for a prompt after Ctrl-C: MicroPython answers in milliseconds
ASK_PLATFORM = b"import sys; print(sys.platform)"
# The virtual board (the unix port: "linux") stands in for the port its machine models
# (testbed/hostboard; None for a generic one, which stands in for any).
ASK_MODEL = b"import machine; print(machine.port().name)"


def ask(line, question):
    """The one word the REPL prints after its echo of `question`, or None."""
    line.write(question + b"\r")
    found = read_until(line, re.escape(question) + rb"\r\n(\w+)\r\n", NO_REPL_WAIT)
    return found and found.group(1).decode()


def board_platform(port):
    """The sys.platform of the MicroPython answering on the port ("rp2", "esp32"; for the
    virtual board the port it models, "linux" if none); PortProblem if none answers (a wrong
    port, a board without MicroPython: mpremote would end in a "could not enter raw repl"
    traceback). Sends what mpremote sends first anyway (Ctrl-C stops main.py), then Ctrl-B,
    which leaves a raw REPL a stopped mpremote left behind; either REPL then prints its banner
    and prompt."""
    try:
        with open_line(port) as line:
            line.reset_input_buffer()
            line.write(b"\r\x03\x03\x02")
            platform = read_until(line, rb">>> ", NO_REPL_WAIT) and ask(line, ASK_PLATFORM)
            if platform == "linux":
                model = ask(line, ASK_MODEL)
                platform = platform if model in (None, "None") else model
            if platform:
                return platform
    except (OSError, serial.SerialException) as err:  # taken since check_port saw it free
        raise PortProblem(port_problem(port, err, 0)) from None
    raise PortProblem(
        "no MicroPython REPL answers on %s: is it the board's port, and does the board run "
        "MicroPython? See Install in README.md (one file to flash, or MicroPython first)" % port
    )


def reset_board(port):
    """Hard-reset the board by typing machine.reset() at its REPL, after mpremote has let go of
    the port; None, or why the port did not open.

    Not mpremote's own `reset`: it resets after 100 ms, then closes the port with an ioctl that
    fails with EIO once a Pico's USB is gone, failing a deploy on a host slower than that. Here
    nothing is left to fail once the line is written."""
    try:
        line = open_line(port)
    except (OSError, serial.SerialException) as err:
        return err
    try:
        line.write(RESET_LINE)
    except (OSError, serial.SerialException):
        pass
    finally:
        line.close()
    return None


def after_reset(target, port, wait):
    """Watch the port after the chain's reset: (what happened, in words; exit code)."""
    gone = wait_until(lambda: not present(port), GONE_WAIT)
    for _ in range(2):  # a second round if the port goes late, while the REPL is asked
        if gone:
            print(
                "%s: waiting for %s to come back after the reset..." % (target, port), flush=True
            )
            start = time.monotonic()
            err = wait_ready(port, wait)
            if err is not None:
                return "it reset, but " + port_problem(port, err, wait), 1
            came = "it reset, %s came back after %.1f s" % (port, time.monotonic() - start)
        else:
            came = "it reset (%s stayed up, as behind a USB-serial bridge)" % port
        try:
            at_repl = repl_answers(port)
        except (OSError, serial.SerialException) as err:
            if present(port) or gone:
                return "%s, but the REPL could not be asked: %s" % (came, err), 1
            gone = True
            continue
        if at_repl:
            return (
                "%s, but main.py is not running: the REPL answers (safe mode, or main.py "
                "failed: `make repl PORT=%s` shows why)" % (came, port),
                1,
            )
        return "%s, and it is running the game (the REPL is busy with main.py)" % came, 0
    return "it reset, but %s kept going away" % port, 1
