# The fake machine's UART: the link cable's end, as the rp2 and esp32 ports read and write it.
# SPDX-License-Identifier: MIT
"""`machine.UART` of the host board (testbed/hostboard/machine.py imports it from here).

`UART(id, baudrate)` is the port's UART `id` with its default pins (what the board files ask
for). Its wire is whatever was plugged into that id with `plug(id, end)` (an end of
testbed/cable.py's Cable, or of the simulator's testbed/tcpcable.py: write(bytes),
readinto(buf) -> count or None, any(); clear() if it has one, called as the UART is set up:
what came before the board had a UART there is lost) when the UART was made; with nothing
plugged it is a cable left unplugged: what is written goes nowhere, nothing comes in.

Modelled on the ports:
- the ids a port has: rp2 0 and 1, esp32 0 to 2 (ValueError "UART(n) doesn't exist", as
  both ports say), any on a generic board;
- the pins a UART takes when given none, its `tx` and `rx` (GPIO numbers; None on a generic
  board): _PINS below;
- a read never waits (timeout=0, the ports' default): readinto(buf) answers the count read,
  or None when nothing is waiting (ports/rp2/machine_uart.c returns MP_EAGAIN, which
  py/stream.c turns into None);
- the receive buffer holds `rxbuf` bytes (256 by default on both ports: rp2's
  DEFAULT_BUFFER_SIZE, esp32's "IDF minimum"); what comes in while it is full is lost, as the
  ports' RX interrupt drops what does not fit. Bytes count as come in when the firmware next
  looks (any() or readinto()), so a loop that polls late loses what a board would."""

import portmodel

UARTS = {}  # id -> the UART of that id, once made (machine.reset_state empties it)
_plugs = {}  # id -> the cable end the next UART(id) is joined to
# (tx, rx) of each id when UART() is given no pins (so also the ids a port has). rp2:
# ports/rp2/machine_uart.c, MICROPY_HW_UART0_TX/RX 0 and 1, UART1's 4 and 5 (the Pico's board
# config sets none). esp32: ports/esp32/machine_uart.c mp_machine_uart_make_new: UART0 left
# where the boot ROM put it (TX 1, RX 3), UART1 on 10 and 9 (ESP32_GENERIC; a SPIRAM build: 5
# and 4), UART2 on 17 and 16.
_PINS = {"rp2": ((0, 1), (4, 5)), "esp32": ((1, 3), (10, 9), (17, 16))}


def plug(uart_id, end):
    """Join the cable end `end` to UART `uart_id` of the board made next (None: unplug)."""
    _plugs[uart_id] = end


class _Unplugged:
    def write(self, buf):
        return len(buf)

    def readinto(self, buf):
        return None

    def any(self):
        return 0


def UART(uart_id, baudrate=115200, rxbuf=256):  # noqa: N802 - machine's API
    """The port's UART `uart_id` at `baudrate`, on the cable end plugged into that id. As on
    both ports, each id is one object, set up again by each call (ports/rp2/machine_uart.c
    and ports/esp32/machine_uart.c take it from a static array), its buffer emptied."""
    pins = _PINS.get(portmodel.in_use().name)  # None: a generic board, any id
    if pins is not None and not 0 <= uart_id < len(pins):
        raise ValueError("UART(%d) doesn't exist" % uart_id)
    uart = UARTS.get(uart_id)
    if uart is None:
        uart = UARTS[uart_id] = _Uart(uart_id, *(pins[uart_id] if pins else (None, None)))
    uart.init(baudrate, rxbuf)
    return uart


class _Uart:
    def __init__(self, uart_id, tx, rx):
        self.id = uart_id
        self.tx = tx  # GPIO numbers
        self.rx = rx

    def init(self, baudrate, rxbuf):
        self.baudrate = baudrate
        self.rxbuf = rxbuf
        self._end = _plugs.get(self.id) or _Unplugged()
        self._held = bytearray()  # the receive buffer
        clear = getattr(self._end, "clear", None)
        if clear is not None:
            clear()

    def deinit(self):
        """The UART stops and lets its buffers go (ports/rp2/machine_uart.c
        mp_machine_uart_deinit: its ring buffers' root pointers set to NULL, their RAM the
        collector's again): nothing more comes in until UART(id) sets it up again."""
        self.baudrate = 0
        self._end = _Unplugged()
        self._held = bytearray()

    def write(self, buf):
        return self._end.write(buf)

    def any(self):
        self._take()
        return len(self._held)

    def readinto(self, buf):
        self._take()
        held = self._held
        n = min(len(buf), len(held))
        if not n:
            return None
        buf[:n] = held[:n]
        held[:n] = b""
        return n

    def _take(self):
        # What came in since the last look, into the buffer as far as it has room.
        end = self._end
        waiting = end.any()
        if waiting:
            data = bytearray(waiting)
            end.readinto(data)
            room = self.rxbuf - len(self._held)
            self._held.extend(data[:room] if room > 0 else b"")  # the rest is lost
