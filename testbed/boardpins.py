# A board file brought up on the fake machine, and its wiring as the fake machine names it.
# SPDX-License-Identifier: MIT
"""Shared by everything that runs a board file on the host's stand-ins under MicroPython: the
HostApp (hostapp.py, which the simulator's MicroPython half boots through) and the web page
(web/oxoweb.py). The board file is imported under its own name and installed as `board`, as
deploy copies it to board.py, and the fake machine models the port its `PORT` names
(machine.use_port)."""

import sys

import machine  # the host stand-in (testbed/hostboard/machine.py)

_used = []  # the board module use_board installed last


def use_board(name):
    """Import board file `name` as the module `board` (deploy copies it to board.py) and have the
    fake machine model the port its PORT names, before its build() makes the SPI."""
    board = __import__(name)
    sys.modules["board"] = board
    _used[:] = [board]
    machine.use_port(getattr(board, "PORT", None))
    return board


def used():
    """The board module use_board installed last, or else the one the firmware imported itself
    (a virtual board runs the deployed main.py, which imports board.mpy from its flash), kept
    from the first call that sees it: still there after the firmware has let go of
    sys.modules["board"] (startup.main() does once the board is built). None before either."""
    if not _used and "board" in sys.modules:
        _used[:] = [sys.modules["board"]]
    return _used[0] if _used else None


def lcd_pins(board):
    """(dc, cs, rst, light, light_on): the board's LCD pins as the fake machine names them on
    its bus (None where the board has none) and the level that lights the backlight."""
    pins = tuple(_name(board, "LCD_" + role) for role in ("DC", "CS", "RST", "LIGHT"))
    return pins + (getattr(board, "LIGHT_ON", 1),)


def display(board):
    """A pcd8544_model.Model wired as the board wires its LCD: what its glass shows."""
    import pcd8544_model

    dc, cs, rst, light, light_on = lcd_pins(board)
    return pcd8544_model.Model(dc=dc, cs=cs, rst=rst, light=light, light_on=light_on)


def button_pin(board, name):
    """The pin id of button `name` ("prev", "SELECT", ...) on the board (its BTN_<NAME>), or
    None if it has no such button."""
    return getattr(board, "BTN_" + name.upper(), None)


def _name(board, attr):
    pin = getattr(board, attr, None)
    return None if pin is None else str(pin)
