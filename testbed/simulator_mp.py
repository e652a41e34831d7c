# The MicroPython half of tools/simulator.py: real time, the LCD bus out, button presses in.
# SPDX-License-Identifier: MIT
"""Imported under the unix port (testbed/hostboard's machine and time) by tools/simulator.py,
which then calls boot(), and by the virtual board given `--setup simulator_mp`. boot() brings the
board up as every host run does (hostapp.HostApp: the board file as `board`, its port modelled)
on this module's real clock, in the cwd (the simulated board's flash), then runs main.py.

- Time: the real clock (`Clock`, a time.RealClock), whether or not anything reads the LCD. Each
  sleep first sends what the fake SPI/pins and PWMs recorded since the last (so a frame leaves as
  soon as it is drawn; dropped without $SIMLINK_OUT), then waits in one poll() that ends early
  only to apply a key: the unix port's own sleep_ms naps in 0.5 ms slices (unix_mphal.c,
  mp_hal_delay_ms: "does usleep(500)"), 2000 wake-ups a second of an idle game.
- Out ($SIMLINK_OUT, a file or pipe): frames of a kind byte, a 4-byte big-endian length and the
  payload: b"P" the board's LCD pin names "dc cs rst light light_on" (once the board module is
  loaded), b"B" a piece of the fakebus recording, b"T" (once) table(), b"K" a key action
  finished (empty, or why it was refused), b"S" the buzzer's PWM changes since the last, lines
  b"<ms> <hz> <duty_u16>\n" (machine.PWM).
- In ($SIMLINK_IN, a pipe, optional): actions b"<button> <down_ms> <up_ms>\n", button one of
  the board's BTN_<name> (PREV, NEXT, SELECT...): the pin goes to 0 (pressed; buttons pull up)
  for down_ms, then to 1 for up_ms, then K; b"WAIT <ms> 0\n" presses nothing for ms, then K.
  Each phase is timed on the firmware's clock from its first poll of the new level (the first
  sleep begun after the change: its loop polls the buttons, then sleeps), so a firmware that got
  no CPU for a while still sees every press and release. One action at a time, in order: the
  pipe is the queue. EOF (the simulator is gone) ends the firmware with SystemExit.
- $SIMLINK_HOLD=<button>: that button is held from power-on and never let go (safe mode).
- $SIMLINK_CABLE="<tcp port> <uart id>": a tcpcable.End on that port (tools/cableport.py)
  plugged into that UART (the board file's LINK_UART) before boot; another simulator or virtual
  board on the same port is its other end.
"""

import gc
import os
import select
import time

import boardpins
import hostapp
import machine
import utime

_out = None
_in = None
_poll = None  # on the key pipe
_idle = select.poll()  # nothing registered: poll(ms) is one plain sleep
_sent_pins = [False]
# The key action under way: pin (None: none), level now (0 down, 1 up), that phase's length in
# ms, when it ends (ticks; None until a sleep begins after the change: the firmware polled it),
# up_ms.
_act = [None, 0, 0, None, 0]
_WAIT = "WAIT"  # the action's pin when it presses nothing: its down phase is the wait


def _frame(kind, payload):
    _out.write(kind + len(payload).to_bytes(4, "big"))
    _out.write(payload)


def flush():
    """Send the pin names (once the board module exists) and the bus recording so far. With
    nobody to send them to (the virtual board started without $SIMLINK_OUT) they are dropped:
    kept, the recording grew by every frame until the heap ran out (MemoryError)."""
    if _out is None:
        machine.BUS.clear()
        for pwm in machine.PWMS:
            pwm.take()
        return
    board = None if _sent_pins[0] else boardpins.used()
    if board is not None:
        _sent_pins[0] = True
        names = ["-" if pin is None else str(pin) for pin in boardpins.lcd_pins(board)]
        _frame(b"P", " ".join(names).encode())  # dc cs rst light ("-": none) light_on
    if _sent_pins[0] and len(machine.BUS):
        _frame(b"B", bytes(machine.BUS.take()))
    _send_tones()


def _send_tones():
    """The changes of every PWM (the buzzer) since the last call, as one b"S" frame."""
    lines = ["%d %d %d\n" % change for pwm in machine.PWMS for change in pwm.take()]
    if lines:
        _frame(b"S", "".join(lines).encode())


def _pin(name):
    board = boardpins.used()
    return boardpins.button_pin(board, name) if board else None


def _level(level, ms):
    if _act[0] is not _WAIT:
        machine.set_level(_act[0], level)
    _act[1:4] = [level, ms, None]


def _start_action(line):
    parts = line.split()
    pin = None
    if len(parts) == 3:
        pin = _WAIT if parts[0] == b"WAIT" else _pin(parts[0].decode())
    if pin is None or not (parts[1].isdigit() and parts[2].isdigit()):
        _frame(b"K", b"no such button or action: " + bytes(line))
        return
    _act[0] = pin
    _act[4] = int(parts[2])
    _level(0, int(parts[1]))


def _seen(now):
    """A sleep begins at `now`: the firmware has polled the level since it changed (keys() only
    runs within a sleep, after this), so that phase's time starts."""
    if _act[0] is not None and _act[3] is None:
        _act[3] = utime.ticks_add(now, _act[2])


def _read_line():
    """The next action line from the pipe, or None. The simulator writes each line whole in one
    write (atomic on a pipe), so one that has begun to come in has all come: readline reads to
    its end and no further."""
    if not _poll.poll(0):
        return None
    line = _in.readline()
    if not line:
        raise SystemExit("simulator_mp: the simulator closed the key pipe")
    return line.rstrip(b"\n")


def keys(now):
    """Advance the key actions to `now` (ticks_ms); True if a press reached a pin the port can
    wake on (it ends a light sleep: an ESP32's ext0 pin; on rp2 none, so a doze runs to its
    end - see hostboard/portmodel.py)."""
    woke = False
    while _poll is not None:
        if _act[0] is not None:
            if _act[3] is None or utime.ticks_diff(_act[3], now) > 0:
                return woke
            if _act[1] == 0:
                _level(1, _act[4])
                continue
            _act[0] = None
            _frame(b"K", b"")
        line = _read_line()
        if line is None:
            return woke
        _start_action(line)
        woke = machine.take_wake() or woke
    return woke


class Clock(time.RealClock):
    """The real clock; a sleep sends the recording first and applies keys while it waits."""

    def sleep_ms(self, ms, light=False):
        flush()
        start = utime.ticks_ms()
        end = utime.ticks_add(start, ms)
        _seen(start)
        woke = keys(start)
        while not (woke and light):  # a press on a wake pin ends a light sleep early
            now = utime.ticks_ms()
            wait = utime.ticks_diff(end, now)
            if wait <= 0:
                break
            waiter = _idle
            if _act[0] is None:  # the next action to arrive wakes it
                waiter = _idle if _poll is None else _poll
            elif _act[3] is not None:  # an action under way: wake when its phase ends
                wait = min(wait, max(0, utime.ticks_diff(_act[3], now)))
            waiter.poll(wait)
            woke = keys(utime.ticks_ms())
        if light:
            self.dozed_ms += utime.ticks_diff(utime.ticks_ms(), start)


FONTS = ((32, 127, 8), (33, 127, 5))  # the 8x8 font's characters and columns, the small font's
BOARD_COLUMNS = 16  # of each of the board's X and O


def table():
    """Bytes for reading the glass as text (tools/simread.py): for the 8x8 font (framebuf's
    text()) and then the small font (smallfont.py), its first character, count and columns C,
    and each character's width and C columns (bit r = row r); BOARD_COLUMNS and the board's X
    and O as glyphs.draw draws them at 0, 0, each column 2 bytes (little-endian); the status
    column as widgets.py draws it: x, the number of rows and their tops, the rule under the
    level, and the 8x8 cell of each player's small mark. Bytes rather than JSON: the simulator's
    192k heap, cut up by what the firmware's start compiled, may hold no larger piece. The small
    font is let go of after: the firmware loads it only where it draws with it."""
    import sys

    import framebuf
    import game
    import glyphs
    import widgets

    loaded = "smallfont" in sys.modules
    import smallfont

    rows = widgets.ROW_Y
    size = sum(3 + (end - first) * (1 + c) for first, end, c in FONTS)
    out = bytearray(size + 1 + 4 * BOARD_COLUMNS + 3 + len(rows) + 16)
    at = 0
    buf = bytearray(2 * BOARD_COLUMNS)
    cell = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
    for first, end, columns in FONTS:
        out[at : at + 3] = bytes((first, end - first, columns))
        at += 3
        for code in range(first, end):
            cell.fill(0)
            if columns == 8:
                cell.text(chr(code), 0, 0, 1)
                out[at] = 8
            else:
                out[at] = smallfont.text(cell, bytes((code,)), 0, 0) - 1
            out[at + 1 : at + 1 + columns] = buf[:columns]
            at += 1 + columns
    if not loaded:
        del sys.modules["smallfont"]
    big = framebuf.FrameBuffer(buf, BOARD_COLUMNS, 16, framebuf.MONO_VLSB)
    out[at] = BOARD_COLUMNS
    at += 1
    for player in (1, 2):  # X, O (engine)
        big.fill(0)
        glyphs.draw(big, player, 0, 0)
        for x in range(BOARD_COLUMNS):
            out[at : at + 2] = bytes((buf[x], buf[BOARD_COLUMNS + x]))
            at += 2
    # The rule under the level row is a const() the compiler folds away: find it on the glass,
    # as the row the tally's rule is drawn on.
    glass = framebuf.FrameBuffer(bytearray(504), 84, 48, framebuf.MONO_VLSB)
    widgets.tally(glass, (0, 0, 0), game.ONE_PLAYER)
    rule = [y for y in range(48) if glass.pixel(widgets.STATUS_X - 2, y)][0]
    out[at : at + 3 + len(rows)] = bytes([widgets.STATUS_X, len(rows)] + list(rows) + [rule])
    at += 3 + len(rows)
    for player in (1, 2):
        glass.fill(0)
        widgets.status_turn(glass, player, "", 0)
        cell.fill(0)  # the 8x8 cell the mark is drawn in, as the font's cells
        cell.blit(glass, -widgets.STATUS_X, -rows[0])
        out[at : at + 8] = buf[:8]
        at += 8
    return out


def boot(main_py):
    """Power on: the board file (deployed as board) brought up with its port modelled, the
    button named by $SIMLINK_HOLD held, then main.py as the board runs it; the last picture
    (safe mode, an error) is sent before the process ends."""
    hostapp.HostApp("board", flash=None, clock=time.clock())
    hold = os.getenv("SIMLINK_HOLD")
    if hold:
        machine.set_level(boardpins.button_pin(boardpins.used(), hold), 0)
    try:
        with open(main_py) as f:
            code = compile(f.read(), "main.py", "exec")
        exec(code, {"__name__": "__main__"})
    finally:
        flush()


def start():
    global _out, _in, _poll
    # The test bed and this module were compiled from source: their compiler's garbage goes
    # now. Left for later, an allocation deep in the nested imports of table() failed in the
    # simulator's 192k heap (MemoryError) with most of the heap free but not collected.
    gc.collect()
    out = os.getenv("SIMLINK_OUT")
    if out:
        _out = open(out, "wb")
    name = os.getenv("SIMLINK_IN")
    if name:
        _in = open(name, "rb")
        _poll = select.poll()
        _poll.register(_in, select.POLLIN)
    if _out is not None and _in is not None:
        _frame(b"T", table())
        gc.collect()  # the table's garbage is not the firmware's to carry
    cable = os.getenv("SIMLINK_CABLE")
    if cable:  # after the table: it needs the larger pieces of the heap
        import tcpcable

        port, uart = cable.split()
        machine.plug(int(uart), tcpcable.End(int(port)))
        gc.collect()  # tcpcable's compiler's garbage
    # Real time with or without a reader: on the hostboard's default fake clock a sleep takes
    # no time, so the firmware ran flat out and mpremote's `reset` (sleep_ms(100), then
    # machine.reset()) took the port away before mpremote had let go of it.
    time.use(Clock())


start()
