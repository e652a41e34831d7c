# The MicroPython half of the virtual board: executes code blocks sent by testbed/interpreter.py.
# SPDX-License-Identifier: MIT
#
# Run by the unix port as `micropython virtualboard_mp.py FLASH CTL_IN CTL_OUT SETUP PORT` (SETUP
# a module to import first, PORT the port the stand-ins model; either may be ""). The flash
# directory is the board's filesystem (hostapp.HostApp mounts it at "/"), and stdin/stdout are
# the serial line. Control frames (not seen by the code) travel on two extra pipes, one a line:
# the repr() of (tag, data), both bytes (repr escapes the data's newlines; eval reads it back):
#   in:  X code: execute a raw-REPL block      S line: a friendly-REPL line
#        M: run /main.py if it exists          U: hand back the stdin the last block left
#                                                 unread (L, then U)
#   out: R ready, D done, E traceback, L unread stdin bytes, H machine.Reset was raised
#        (reset(), a watchdog ...), Q SystemExit (the board soft-resets; after H, hard-resets),
#        K char: micropython.kbd_intr(char) was called (-1: Ctrl-C is data).
# The host asks for the unread stdin (U) after D or E, not this side at the block's end: bytes
# the host wrote while the block was ending would land after that look and be lost.
import builtins
import io
import select
import sys
import time  # testbed/hostboard's, like machine (first on MICROPYPATH)

import hostapp
import machine
import micropython

_flash, _ctl_in, _ctl_out = sys.argv[1], open(sys.argv[2], "rb"), open(sys.argv[3], "wb")

# An optional setup module (e.g. simulator_mp: real time, the LCD bus to a host file) runs first.
if sys.argv[4]:
    __import__(sys.argv[4])
# The board comes up as every host run's does, on testbed/hostboard's machine and time
# (MICROPYPATH), before any board file exists (main.py imports the deployed board.mpy): the port
# PORT modelled until a board file names its own (_import), the flash as the filesystem, in real
# time (the setup's clock if any).
_clock = time.clock()
if not isinstance(_clock, time.RealClock):
    _clock = time.RealClock()
hostapp.HostApp(None, flash=_flash, clock=_clock, port=sys.argv[5] or None)


def _import(name, *args, _import=builtins.__import__):
    # A board file runs on the port model it names (its PORT), whatever the virtual board was
    # made as and however it is imported (main.py from the flash, `make run`'s mount): a Pico's
    # on a generic or an ESP32 board wrote rp2 watchdog registers the model there refuses.
    # Board files only define at import, so the model is in place before build() runs.
    module = _import(name, *args)
    port = getattr(module, "PORT", None) if name == "board" else None
    if port is not None and port != machine.port().name:
        machine.use_port(port)
    return module


builtins.__import__ = _import

_globals = {"__name__": "__main__"}
_stdin = sys.stdin.buffer
_poll = select.poll()
_poll.register(sys.stdin, select.POLLIN)


def _send(tag, data=b""):
    _ctl_out.write(repr((tag, data)).encode() + b"\n")
    # No flush(): the unix port's files write straight through (its flush() is an fsync, which
    # a pipe refuses).


class _MicroPython:
    """The micropython module, but kbd_intr() also tells the host whether Ctrl-C interrupts
    (mpremote's mount turns it off while binary data flows; the host sends SIGINT only when on).
    """

    def __getattr__(self, name):
        return getattr(micropython, name)

    def kbd_intr(self, char):
        micropython.kbd_intr(char)
        _send(b"K", str(char).encode())


sys.modules["micropython"] = _MicroPython()


def _unread_stdin():
    # Bytes typed while code ran but not read by it go back to the REPL (a board's ring buffer).
    left = b""
    while _poll.poll(0):
        byte = _stdin.read(1)
        if not byte:
            break
        left += byte
    if left:
        _send(b"L", left)


def _run(code, name, mode):
    try:
        exec(compile(code, name, mode), _globals)
    except (SystemExit, machine.Reset) as err:
        if isinstance(err, machine.Reset):  # reset(), a watchdog's bite ...: a hard reset
            _send(b"H")
        _unread_stdin()
        _send(b"Q")
        raise SystemExit  # noqa: B904 - this process ends; the host starts the next one
    except BaseException as err:  # noqa: B036 - the REPL reports everything, as a board does
        buf = io.StringIO()
        sys.print_exception(err, buf)
        _send(b"E", buf.getvalue().encode())
        return
    _send(b"D")


def _loop():
    _send(b"R")
    while True:
        try:
            line = _ctl_in.readline()
        except KeyboardInterrupt:
            continue  # a Ctrl-C that arrived just after the code finished
        if not line:
            raise SystemExit
        tag, data = eval(line)  # the host's repr() of (tag, data)
        if tag == b"X":
            _run(data, "<stdin>", "exec")
        elif tag == b"S":
            _run(data, "<stdin>", "single")
        elif tag == b"M":
            try:
                with open("main.py") as f:
                    code = f.read()
            except OSError:
                _send(b"D")  # what was typed during the boot stays for U: the REPL gets it
                continue
            _run(code, "main.py", "exec")
        elif tag == b"U":
            _unread_stdin()
            _send(b"U")


_loop()
