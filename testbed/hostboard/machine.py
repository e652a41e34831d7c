# A host stand-in for MicroPython's machine module: recorded pins and SPI, scripted inputs.
# SPDX-License-Identifier: MIT
"""On MICROPYPATH this file overrides the unix port's built-in `machine`, so a board file runs
unchanged on the host. It models what boards/ and firmware/ use (and mpremote's reset), no
more. Its Pin and SPI are fakebus.Pin and fakebus.SPI (the host side's one set of stand-ins)
with the port's API and clocks:

- Output pins and SPI writes are recorded, in order, on one `fakebus.Bus` (`BUS`); a pin is
  named there by its id as text ("20"), so a PCD8544 model can be pointed at the board's pins.
- `use_port(name)` (the harness passes the board file's PORT) picks portmodel.py's model of
  that port (None, the default: a generic board), which SPI(), freq(), lightsleep(), WDT and
  PWM all ask; `lightsleep(ms)` passes time on the `time` module's clock (see time.py).
- Imported from its parts, each documented there: `reset()`, `reset_cause()`, `WDT`, `mem32`
  (machine_reset.py); `PWM` and `PWMS` (machine_pwm.py); `UART`, `UARTS` and `plug(id, end)`,
  the link cable's end (machine_uart.py). None imports this module.

`PINS` (id -> the latest Pin made with that id) and `SPIS` (every SPI made) let tests check the
wiring; `reset_state()` starts a fresh board (new BUS, no pins, input levels kept if asked).
Pins and buses record on the BUS of the board they were made on.
"""

import time

import fakebus
import machine_reset
import portmodel
from machine_pwm import PWM, PWMS  # noqa: F401 - machine's API
from machine_reset import (  # noqa: F401 - machine's API
    HARD_RESET,
    PWRON_RESET,
    WDT,
    WDT_RESET,
    LockUp,
    Reset,
    mem32,
    reset,
    reset_cause,
    wdt,
)
from machine_uart import UART, UARTS, plug  # noqa: F401 - machine's API

SLEEP = 2  # Pin.irq(wake=SLEEP): esp32's ext0 wake

BUS = None
PINS = {}
SPIS = []
_levels = {}  # id -> level set by the script
_woken = [False]
# The host's time stand-in (testbed/hostboard/time.py) has a clock to charge work to; the web
# page runs this module on the real time module, whose clock the work itself takes.
_clock = getattr(time, "clock", None)


def reset_state(keep_levels=False, capacity=1024, cause=PWRON_RESET):
    """A fresh board: a new BUS, no pins or SPI, the clocks as at power-on, no watchdog;
    reset_cause() reads `cause` (PWRON_RESET: the power was off, which also clears the rp2
    watchdog's scratch registers); input levels kept if keep_levels. The port stays the one
    last chosen."""
    global BUS
    BUS = fakebus.Bus(capacity)
    PINS.clear()
    del SPIS[:]
    del PWMS[:]
    UARTS.clear()
    if not keep_levels:
        _levels.clear()
    _woken[0] = False
    portmodel.use(portmodel.in_use().name)
    machine_reset.boot(cause)


def use_port(name):
    """Model the MicroPython port `name` ("rp2", "esp32"; None: generic) from power-on."""
    portmodel.use(name)


def port():
    """The port model in use (portmodel.Rp2, ...): its clocks, for tests."""
    return portmodel.in_use()


def set_level(pin_id, level):
    """Drive input `pin_id` to `level` (0/1) from outside, firing its irq if armed."""
    level = 1 if level else 0
    pin = PINS.get(pin_id)
    old = pin.value() if pin is not None else _levels.get(pin_id)
    _levels[pin_id] = level
    if pin is not None and pin._trigger and old != level:
        pin._edge(level)


def take_wake():
    """True (once) if a pin that can wake the board fired since the last call: the running
    lightsleep should end."""
    woken = _woken[0]
    _woken[0] = False
    return woken


class Pin(fakebus.Pin):
    """fakebus.Pin with the port's API: an id, mode, pull and irq. An output is recorded on `BUS`
    under its id as text from the moment it becomes one; an input reads the level a script set
    with set_level(), else its pull."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    # esp32's ext0 level wake, the firmware's only level trigger. Neither port's Pin has an
    # IRQ_LOW_LEVEL (ports/esp32/machine_pin.c and ports/rp2/machine_pin.c, the locals tables).
    WAKE_LOW = 16

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs):
        if not isinstance(id, (int, str)):
            raise ValueError("Pin id must be an int or a str, not %r" % (id,))
        fakebus.Pin.__init__(self)  # the output latch at 0, on no bus until an output
        self.id = id
        self._mode = None
        self._pull = None
        self._handler = None
        self._trigger = 0
        self.wake = None
        self.inits = 0
        PINS[id] = self
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
        self.inits += 1  # the constructor's own call counts too
        if mode != -1:
            self._mode = mode
        if pull != -1:
            self._pull = pull
        if value is not None:
            fakebus.Pin.value(self, value)  # the output latch (recorded if already an output)
        if self._mode == Pin.OUT and self._bus is None:
            self.attach(BUS, str(self.id))  # declared in the recording, then its level

    def mode(self):
        return self._mode

    def pull(self):
        return self._pull

    def value(self, v=None):
        if v is None and self._mode != Pin.OUT:
            level = _levels.get(self.id)
            if level is None:
                level = 1 if self._pull == Pin.PULL_UP else 0
            return level
        return fakebus.Pin.value(self, v)

    __call__ = value

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, wake=None, **kwargs):
        """Arm the pin: a falling edge calls the handler, and ends `lightsleep()` early if the
        port can wake on it (generic: any armed pin; esp32: the ext0 pin, WAKE_LOW with
        wake=SLEEP; rp2: none, its GPIO block has no clock in light sleep). The boards arm
        falling edges and WAKE_LOW only, so only those are modelled: a rising one is refused."""
        if trigger & Pin.IRQ_RISING:
            raise ValueError("IRQ_RISING is not modelled: no board uses it")
        self._handler = handler
        self._trigger = trigger
        self.wake = wake

    def _edge(self, level):
        if level != 0 or not self._trigger & (Pin.IRQ_FALLING | Pin.WAKE_LOW):
            return
        if portmodel.in_use().wakes(self):
            _woken[0] = True
        if self._handler is not None:
            self._handler(self)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class SPI(fakebus.SPI):
    """fakebus.SPI on `BUS` with the port's settings (baudrate, polarity, phase, pins) kept
    for tests; every write records, before its bytes, the rate SCK runs at now (`hz`).

    `baudrate` is what the port stores and prints: the rate the divider gave when SPI() chose
    it. `wire_hz` is the rate SCK runs at now (the port's clock may have changed since).
    The boards never call init(): it is not modelled."""

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None):
        self.bus = BUS
        self.id = id
        self._divider, self.baudrate = portmodel.in_use().spi_divider(baudrate)
        self.polarity = polarity
        self.phase = phase
        self.sck = sck
        self.mosi = mosi
        SPIS.append(self)

    @property
    def wire_hz(self):
        """The rate SCK runs at now: the port's clock now, through the divider chosen then."""
        return portmodel.in_use().spi_hz(self._divider, self.baudrate)

    @property
    def hz(self):  # what fakebus.SPI.write() records before the bytes
        return self.wire_hz

    def write(self, buf):
        """Record the bytes, and spend the time they take on the wire: write() returns only
        when the last bit is out (rp2: machine_spi.c machine_spi_transfer() waits on
        spi_write_read_blocking() or its DMA; esp32: machine_hw_spi.c machine_hw_spi_transfer()
        waits on spi_device_transmit()), 8 SCK periods a byte at the rate SCK runs at now."""
        hz = self.wire_hz
        fakebus.SPI.write(self, buf)
        if _clock is not None:
            _clock().spend_us(len(buf) * 8000000 // hz)


def lightsleep(ms=None):
    """Pass up to ms (forever if None) on the clock, as the port does (see portmodel.py): a
    pin the port can wake on ends it early; the port's clocks may differ afterwards; the
    watchdog counts, pauses or locks the board up if it fires (Port.wdt_in_lightsleep)."""
    take_wake()  # a pin that fired before this sleep does not end it
    machine_reset.watched_lightsleep(ms, list(PINS.values()))


def freq(hz=None):
    """The CPU clock in Hz, or set it (rp2: clk_peri too, see portmodel.Rp2)."""
    return portmodel.in_use().freq(hz)


reset_state()
