# MicroPython side of the simulator link: real time, the LCD bus out, button levels in.
# SPDX-License-Identifier: MIT
"""Imported (under the unix port, with tools/hostboard's machine and time) before main.py by
tools/simulator.py, and by the virtual board when it is given `--setup simlink`.

- The firmware runs on the real clock (`time.RealClock`); every ~10 ms of its sleeps `pump()`
  runs: it sends what the fake SPI/pins recorded since the last pump and applies key events.
- Out (file or pipe named by $SIMLINK_OUT): frames of 1 type byte + 4-byte big-endian length +
  payload: b"P" the board's LCD pin names "dc cs rst light light_on" (once, when the board
  module is loaded), b"B" a piece of the fakebus recording.
- In (pipe named by $SIMLINK_IN, optional): lines b"<button> <level>\\n", button one of the
  board's BTN_<name> constants (PREV, NEXT, SELECT...), level 0 = pressed (buttons pull up).
"""

import os
import select
import sys
import time

import machine

_out = None
_in = None
_poll = None
_line = bytearray()
_sent_pins = [False]


def _frame(kind, payload):
    n = len(payload)
    _out.write(kind + bytes(((n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255)))
    _out.write(payload)


def _send_pins():
    board = sys.modules.get("board")
    if board is None:
        return
    _sent_pins[0] = True
    names = []
    for attr in ("LCD_DC", "LCD_CS", "LCD_RST", "LCD_LIGHT"):
        pin = getattr(board, attr, None)
        names.append("-" if pin is None else str(pin))
    names.append(str(getattr(board, "LIGHT_ON", 1)))
    _frame(b"P", " ".join(names).encode())


def _apply(line):
    parts = line.split()
    if len(parts) != 2:
        return False
    board = sys.modules.get("board")
    pin = getattr(board, "BTN_" + parts[0].decode(), None) if board else None
    if pin is None:
        return False
    machine.set_level(pin, int(parts[1]))
    return True


def pump():
    """Send the bus recording, apply key events; True if one fired a pin the port can wake on
    (it ends a light sleep: an ESP32's ext0 pin; on rp2 none, so a doze runs to its end)."""
    if not _sent_pins[0]:
        _send_pins()
    if _sent_pins[0] and len(machine.BUS):
        _frame(b"B", bytes(machine.BUS.take()))
    while _poll is not None and _poll.poll(0):
        byte = _in.read(1)
        if not byte:
            break
        if byte == b"\n":
            _apply(bytes(_line))
            _line[:] = b""
        else:
            _line.extend(byte)
    return machine.take_wake()


def start():
    global _out, _in, _poll
    out = os.getenv("SIMLINK_OUT")
    if out:
        _out = open(out, "wb")
    name = os.getenv("SIMLINK_IN")
    if name:
        _in = open(name, "rb")
        _poll = select.poll()
        _poll.register(_in, select.POLLIN)
    if _out is not None:
        time.use(time.RealClock(pump))


start()
