# A host stand-in for MicroPython's machine module: recorded pins and SPI, scripted inputs.
# SPDX-License-Identifier: MIT
"""On MICROPYPATH this file overrides the unix port's built-in `machine`, so a board file runs
unchanged on the host. Its Pin and SPI are fakebus.Pin and fakebus.SPI (the host side's one set
of stand-ins) with the port's API and clocks:

- Output pins and SPI writes are recorded, in order, on one `fakebus.Bus` (`BUS`); a pin is
  named there by its id as text ("20"), so a PCD8544 model can be pointed at the board's pins.
- Input pins read the level a script set with `set_level(id, level)` (also before the pin
  exists: a button held at power-on), else their pull: up 1, down 0, none 0.
- The port: `use_port(name)` (the harness passes the board file's PORT) picks a model of that
  port's clocks and sleep (portmodel.py): which SPI divider SPI()/init() choose, what
  `freq()` does, what `lightsleep()` leaves behind, which pins can end a light sleep. None
  (the default) is a generic board: SCK at exactly the baudrate, no clock changes.
- SPI writes record, before their bytes, the rate SCK runs at (`SPI.wire_hz`, computed from
  the port's clock of the moment and the divider chosen when the bus was set up), and spend
  the time the bytes take at that rate on the fake clock (time.py's spend_us).
- `Pin.irq()` arms a pin: a matching edge calls the handler, and ends `lightsleep()` early if
  the port can wake on it (generic: any armed pin; esp32: the ext0 pin, WAKE_LOW/HIGH with
  wake=SLEEP; rp2: none, its GPIO block has no clock in light sleep).
- `lightsleep(ms)` and `idle()` pass time on the `time` module's clock (see time.py).
- `reset()`, `soft_reset()` and `deepsleep()` raise `Reset`, a BaseException a harness catches
  (firmware that catches Exception cannot swallow it); its `cause` is what `reset_cause()`
  reads after the harness boots again (`reset_state(cause=...)`), as the port has it.
- `WDT(id, timeout)`: the port's hardware watchdog (portmodel: its limits). It bites on the fake
  clock (time.FakeClock.bite_at): when time passes `timeout` ms after the last `feed()`, a
  `Reset` with cause WDT_RESET is raised at that moment from whatever the firmware was doing
  (a sleep: time passes on the fake clock only there). During `lightsleep()` it counts, pauses
  or, where the port locks up when it fires there, raises `LockUp`. On a real clock (the
  simulator) it never bites. `wdt()` is the one armed (None: never armed since power-on).
- `mem32`: only the rp2 watchdog's registers the firmware touches (CTRL's ENABLE bit, cleared
  through the atomic clear alias, and scratch[4]); any other address is a ValueError.

`PINS` (id -> the latest Pin made with that id) and `SPIS` (every SPI made) let tests check the
wiring; `reset_state()` starts a fresh board (new BUS, no pins, input levels kept if asked).
Pins and buses record on the BUS of the board they were made on. `PWMS` (every PWM made) let
tests hear the buzzer: see PWM, modelled on each port.
"""

import time

import fakebus
import portmodel

SLEEP = 2
DEEPSLEEP = 4
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5

BUS = None
PINS = {}
SPIS = []
PWMS = []  # every PWM made, in order
_levels = {}  # id -> level set by the script
_woken = [False]
_cause = [PWRON_RESET]
_port = [portmodel.model(None)]
# The host's time stand-in (testbed/hostboard/time.py) has a clock to charge work to; the web
# page runs this module on the real time module, whose clock the work itself takes.
_clock = getattr(time, "clock", None)
_dog = [None]  # the WDT armed since the last reset
_scratch4 = [0]  # rp2: the watchdog's scratch[4], kept over resets but not power cycles


class Reset(BaseException):
    """machine.reset()/soft_reset()/deepsleep() was called, or the watchdog bit; args[0] says
    which, `cause` is what reset_cause() reads at the next boot."""

    def __init__(self, what, cause):
        super().__init__(what)
        self.cause = cause


class LockUp(BaseException):
    """The board stopped for good: only a power cycle brings it back (see portmodel)."""


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
    if not keep_levels:
        _levels.clear()
    _woken[0] = False
    _port[0] = portmodel.model(_port[0].name)
    _cause[0] = cause
    if cause == PWRON_RESET:
        _scratch4[0] = 0
    _disarm()


def use_port(name):
    """Model the MicroPython port `name` ("rp2", "esp32"; None: generic) from power-on."""
    _port[0] = portmodel.model(name)


def port():
    """The port model in use (portmodel.Rp2, ...): its clocks, for tests."""
    return _port[0]


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
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    IRQ_LOW_LEVEL = 16
    IRQ_HIGH_LEVEL = 32
    WAKE_LOW = IRQ_LOW_LEVEL
    WAKE_HIGH = IRQ_HIGH_LEVEL

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
        if self._mode in _OUTPUTS and self._bus is None:
            self.attach(BUS, str(self.id))  # declared in the recording, then its level

    def mode(self):
        return self._mode

    def pull(self):
        return self._pull

    def value(self, v=None):
        if v is None and self._mode not in _OUTPUTS:
            level = _levels.get(self.id)
            if level is None:
                level = 1 if self._pull == Pin.PULL_UP else 0
            return level
        return fakebus.Pin.value(self, v)

    __call__ = value

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, wake=None, **kwargs):
        self._handler = handler
        self._trigger = trigger
        self.wake = wake
        return None

    def _edge(self, level):
        t = self._trigger
        if level == 0:
            fired = t & (Pin.IRQ_FALLING | Pin.IRQ_LOW_LEVEL)
        else:
            fired = t & (Pin.IRQ_RISING | Pin.IRQ_HIGH_LEVEL)
        if not fired:
            return
        if _port[0].wakes(self):
            _woken[0] = True
        if self._handler is not None:
            self._handler(self)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


_OUTPUTS = (Pin.OUT, Pin.OPEN_DRAIN)


class SPI(fakebus.SPI):
    """fakebus.SPI on `BUS` with the port's settings (baudrate, polarity, phase, pins) kept
    for tests; every write records, before its bytes, the rate SCK runs at now (`hz`).

    `baudrate` is what the port stores and prints: the rate the divider gave when it was
    chosen (SPI() or init(baudrate=...)). `wire_hz` is the rate SCK runs at now."""

    MSB = 0
    LSB = 1

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, **kw):
        self.bus = BUS
        self.id = id
        self._divider = None
        self.baudrate = 0
        self._set_baudrate(baudrate)
        self.polarity = polarity
        self.phase = phase
        self.bits = bits
        self.firstbit = firstbit
        self.sck = kw.get("sck")
        self.mosi = kw.get("mosi")
        self.miso = kw.get("miso")
        SPIS.append(self)

    def _set_baudrate(self, baudrate):
        self._divider, self.baudrate = _port[0].spi_divider(baudrate)

    @property
    def wire_hz(self):
        """The rate SCK runs at now: the port's clock now, through the divider chosen then."""
        return _port[0].spi_hz(self._divider, self.baudrate)

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

    def init(self, baudrate=None, polarity=None, phase=None, **kw):
        if baudrate is not None:
            self._set_baudrate(baudrate)
        if polarity is not None:
            self.polarity = polarity
        if phase is not None:
            self.phase = phase

    def deinit(self):
        pass


class SoftSPI(SPI):
    """Bit-banged: the rate does not come from a peripheral clock divider."""

    def _set_baudrate(self, baudrate):
        self._divider, self.baudrate = None, baudrate

    @property
    def wire_hz(self):
        return self.baudrate


def lightsleep(ms=None):
    """Pass up to ms (forever if None) on the clock, as the port does (see portmodel.py): a
    pin the port can wake on ends it early; the port's clocks may differ afterwards; the
    watchdog counts, pauses or locks the board up if it fires (Port.wdt_in_lightsleep)."""
    take_wake()  # a pin that fired before this sleep does not end it
    dog = _dog[0]
    clock = time.clock()
    mode = _port[0].wdt_in_lightsleep
    if dog is None or dog.bite_at is None or mode == "counts":
        _port[0].lightsleep(ms, list(PINS.values()))
        return
    before = clock.now
    if mode == "pauses":
        clock.bite_at = None
    else:
        dog.locks = True
    try:
        _port[0].lightsleep(ms, list(PINS.values()))
    finally:
        dog.locks = False
        if mode == "pauses":
            dog.bite_at += clock.now - before
            clock.bite_at = dog.bite_at


def idle():
    time.clock().sleep_ms(1)


def deepsleep(ms=None):
    raise Reset("deepsleep", DEEPSLEEP_RESET)


def reset():
    if _port[0].name == "rp2":
        _scratch4[0] = 0  # watchdog_reboot(0, ...): scratch[4] = 0
    raise Reset("reset", _port[0].cause_after_reset())


def soft_reset():
    raise Reset("soft_reset", SOFT_RESET)


def reset_cause():
    return _cause[0]


def unique_id():
    return b"\x0a\x05\x01\x10\xe6\x60\x00\x01"


def freq(hz=None, peri=None):
    """The CPU clock in Hz, or set it (rp2: and clk_peri, see portmodel.Rp2)."""
    return _port[0].freq(hz, peri)


class WDT:
    """The port's hardware watchdog (see the module docstring and portmodel.py). `timeout` is
    the one it runs with; `bite_at` the fake clock's ms when it bites (None: never, on a real
    clock); `feeds` counts feed() calls; `armed` is False once stopped through mem32 (rp2)."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = _port[0].wdt_timeout(id, timeout)
        self.armed = True
        self.locks = False  # in a light sleep where a bite locks the board up
        self.feeds = 0
        self.bite_at = None
        old = _dog[0]
        if old is not None:
            self.feeds = old.feeds  # the same hardware watchdog, set up again
        _dog[0] = self
        if _port[0].name == "rp2":
            _scratch4[0] = _WATCHDOG_NON_REBOOT_MAGIC  # watchdog_enable()
        self._arm()
        if timeout == 0:
            self._bite()  # rp2 watchdog_enable(0): WATCHDOG_CTRL_TRIGGER at once

    def feed(self):
        self.feeds += 1
        self._arm()

    def _arm(self):
        clock = _fake_clock()
        if not self.armed or clock is None:
            return  # a real clock: the simulator's watchdog never bites
        self.bite_at = clock.now + self.timeout
        clock.bite_at = self.bite_at
        clock.bite = self._bite

    def _bite(self):
        _disarm()
        if self.locks:
            raise LockUp("the watchdog fired in lightsleep: the board locked up")
        raise Reset("watchdog", WDT_RESET)


def wdt():
    """The WDT armed since the last reset, or None."""
    return _dog[0]


def _fake_clock():
    # The host's time.FakeClock in use, else None (a real clock; the web page's own time).
    clock = time.clock() if hasattr(time, "clock") else None
    return clock if hasattr(clock, "bite_at") else None


def _disarm():
    clock = _fake_clock()
    if clock is not None:
        clock.bite_at = None
        clock.bite = None
    dog = _dog[0]
    if dog is not None:
        dog.bite_at = None
        dog.armed = False
    _dog[0] = None


# rp2 (RP2040 datasheet, 4.7 Watchdog; pico-sdk hardware/regs/watchdog.h, addressmap.h)
_WATCHDOG_CTRL = 0x40058000
_WATCHDOG_CTRL_CLR = 0x4005B000  # the atomic clear alias (+0x3000) of CTRL
_WATCHDOG_ENABLE = 1 << 30
_WATCHDOG_SCRATCH4 = 0x4005801C
_WATCHDOG_NON_REBOOT_MAGIC = 0x6AB73121  # pico-sdk watchdog.c


class _Mem32:
    """machine.mem32, for the few rp2 watchdog registers that are modelled."""

    def __getitem__(self, addr):
        if _port[0].name == "rp2":
            if addr == _WATCHDOG_CTRL:
                dog = _dog[0]
                return _WATCHDOG_ENABLE if dog is not None and dog.armed else 0
            if addr == _WATCHDOG_SCRATCH4:
                return _scratch4[0]
        raise ValueError("mem32[0x%08x] is not modelled" % addr)

    def __setitem__(self, addr, value):
        if _port[0].name == "rp2" and addr == _WATCHDOG_CTRL_CLR:
            dog = _dog[0]
            if value & _WATCHDOG_ENABLE and dog is not None:
                dog.armed = False  # watchdog_disable(): it stops counting, kept as stopped
                dog.bite_at = None
                clock = _fake_clock()
                if clock is not None:
                    clock.bite_at = None
            return
        raise ValueError("mem32[0x%08x] is not modelled" % addr)


mem32 = _Mem32()


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


reset_state()


# -- PWM ---------------------------------------------------------------------------------------

_MHZ = 1000000


class PWM:
    """A PWM output as the port chosen with use_port() has it, recording what its pin plays.

    `tones()`: (ms, hz, duty_u16) each time the output changed: hz the rate the pin toggles
    at (what freq() reads), duty the duty_u16 last set while the output runs, 0 while it is
    stopped or has no duty yet. A tone sounds while 0 < duty < 65535 (65535 is high all the
    time). ms comes from `clock()`, time.ticks_ms() unless a test that keeps its own clock
    (testbed/rig.py's Rig) points it elsewhere. The latest `capacity` changes are kept, in
    a list made once (older ones are dropped: recording never allocates, so firmware can be
    checked under heap_lock()); `take()` returns them and forgets them, `last()` is the
    latest, `changes` and `started` count every change and every tone begun since the PWM was
    made.
    Only the arguments the firmware uses are taken (freq, duty_u16): no **kwargs, whose dict
    a call would allocate.

    rp2 (ports/rp2/machine_pwm.c):
    - The slice starts only once both a frequency and a duty are set (machine_pwm_start());
      PWM(pin) alone or with only freq= is silent.
    - freq(hz): TOP (at most 65534) and an 8.4 divider of clk_sys (mp_machine_pwm_freq_set);
      ValueError "freq too small" below about 7.5 Hz at 125 MHz (divider >= 256), "freq too
      large" above clk_sys. freq() reads back 16 x clk_sys / (div16 x (TOP + 1)), rounded,
      with clk_sys as it is now; 0 before a frequency is set. (freq(0) divides by zero in
      the port; here it is a ValueError.)
    - duty_u16(d): level = (d x (TOP + 1) + 32767) // 65535, d capped at 65535; 0 keeps the
      pin low. The compare register is double-buffered (pico-sdk hardware/pwm.h,
      pwm_set_chan_level): a new level takes effect at the next wrap, within one period.
    - deinit() only disables the slice (pwm_set_enabled(slice, false)): the counter halts and
      the pin keeps the level it had, high or low; frequency and duty are kept, and the next
      freq(), duty_u16() or init() starts the slice again (machine_pwm_start()).
    esp32 (ports/esp32/machine_pwm.c, the LEDC driver, MicroPython 1.25 on):
    - PWM(pin) starts at once: at 5 kHz (PWM_FREQ) and 50 % (PWM_DUTY) unless freq= and
      duty_u16= say otherwise, so a board passes duty_u16=0 for silence.
    - freq 1 Hz .. 40 MHz, else ValueError "frequency must be from 1Hz to 40MHz"; freq() reads
      ledc_get_freq(), computed back from the divider: the rate asked for at audio rates
      (modelled as exactly that). duty_u16 0..65535, else ValueError.
    - deinit(): ledc_stop() with idle level 0 (the pin low at once), the timer freed, the
      object reset (self_reset): freq(), duty_u16() then raise RuntimeError "PWM is
      inactive" until init(), which starts it again at 5 kHz / 50 % unless told otherwise.
    Generic (no port): starts once frequency and duty are set, any frequency > 0, deinit()
    stops it and any later call starts it again.
    Not modelled: two PWMs sharing an rp2 slice's frequency, the output frozen in light sleep.
    """

    def __init__(self, dest, freq=-1, duty_u16=-1, capacity=64):
        self.pin = dest
        self.port = _port[0].name
        self.clock = time.ticks_ms
        self._log = [0] * (3 * capacity)
        self._n = 0  # ints of _log in use
        self._head = 0  # where the next change goes
        self.changes = 0
        self.started = 0
        self._hz = 0  # what freq() reads (rp2/generic: 0 until set)
        self._duty = -1  # the duty_u16 set, -1 none
        self._div16 = 0  # rp2: clk_sys divider x 16 and TOP, chosen by freq()
        self._top = 0
        self.running = False  # the pin toggles (or sits at the duty's level)
        self.active = True  # esp32: False after deinit() until init()
        self._shown_hz = self._shown_duty = 0  # what was last recorded
        PWMS.append(self)
        if self.port == "esp32":
            freq = 5000 if freq == -1 else freq  # PWM_FREQ
            duty_u16 = 32768 if duty_u16 == -1 else duty_u16  # PWM_DUTY: it beeps at once
        self.init(freq=freq, duty_u16=duty_u16)

    # -- the API ------------------------------------------------------------------------------

    def init(self, freq=-1, duty_u16=-1):
        if self.port == "esp32" and not self.active:
            self.active = True  # self_reset() forgot both: the defaults again
            freq = 5000 if freq == -1 else freq
            duty_u16 = 32768 if duty_u16 == -1 else duty_u16
        if freq != -1:
            self._set_freq(freq)
        if duty_u16 != -1:
            self._set_duty(duty_u16)
        self._start()

    def freq(self, value=None):
        self._check_active()
        if value is None:
            if self.port == "rp2" and self._div16:
                f = _port[0].clk_sys
                d = self._div16 * (self._top + 1)
                return (16 * f + d // 2) // d
            return self._hz
        self._set_freq(value)
        self._start()
        return None

    def duty_u16(self, value=None):
        self._check_active()
        if value is None:
            return max(self._duty, 0)
        self._set_duty(value)
        self._start()
        return None

    def deinit(self):
        if self.port == "esp32":
            self.active = False  # self_reset()
            self._duty = -1
            self._hz = 0
        self.running = False
        self._record()

    # -- the recording ------------------------------------------------------------------------

    def tones(self):
        """[(ms, hz, duty_u16)] the changes of the output kept (see the class), oldest first."""
        log = self._log
        first = (self._head - self._n) % len(log)
        out = []
        for k in range(0, self._n, 3):
            i = (first + k) % len(log)
            out.append((log[i], log[i + 1], log[i + 2]))
        return out

    def take(self):
        """tones(), then forgotten."""
        out = self.tones()
        self._n = 0
        return out

    def last(self):
        """The latest change (ms, hz, duty_u16), None before the first."""
        if not self.changes:
            return None
        log = self._log
        i = (self._head - 3) % len(log)
        return log[i], log[i + 1], log[i + 2]

    def sounding(self):
        """A tone is on the pin now."""
        return self.running and 0 < self._duty < 65535

    # -- the port -----------------------------------------------------------------------------

    def _check_active(self):
        if not self.active:
            raise RuntimeError("PWM is inactive")

    def _set_freq(self, hz):
        if self.port == "esp32":
            if not 1 <= hz <= 40 * _MHZ:
                raise ValueError("frequency must be from 1Hz to 40MHz")
        elif self.port == "rp2":
            self._rp2_freq(hz)
        elif hz <= 0:
            raise ValueError("freq must be > 0")
        self._hz = hz
        if self.port == "rp2":
            self._hz = self.freq()

    def _rp2_freq(self, hz):
        # mp_machine_pwm_freq_set(), TOP_MAX 65534; the source is clk_sys.
        if hz <= 0:
            raise ValueError("freq must be > 0 (the port would divide by zero)")
        f = _port[0].clk_sys
        if (f + hz // 2) // hz < 65534:
            div16 = 16
            top = (f + hz // 2) // hz - 1
        else:
            d = 65534 * hz  # get_slice_hz_ceil(TOP_MAX * freq)
            div16 = (16 * f + d - 1) // d
            d = div16 * hz  # get_slice_hz_round(div16 * freq)
            top = (16 * f + d // 2) // d - 1
        if div16 < 16 or top < 0:
            raise ValueError("freq too large")
        if div16 >= 256 * 16:
            raise ValueError("freq too small")
        self._div16, self._top = div16, top

    def _set_duty(self, d):
        if self.port == "esp32":
            if not 0 <= d <= 65535:
                raise ValueError("duty_u16 must be from 0 to 65536")  # sic, the port's text
        elif d < 0:
            raise ValueError("duty_u16 must be >= 0 (the port would set a garbage level)")
        self._duty = min(d, 65535)

    def _start(self):
        # rp2 machine_pwm_start(): once a frequency and a duty are set; esp32: at once.
        if self._duty >= 0 and self._hz > 0:
            self.running = True
        self._record()

    def _record(self):
        hz = self._hz
        duty = self._duty if self.running and self._duty > 0 else 0
        if hz == self._shown_hz and duty == self._shown_duty:
            return
        if duty and not self._shown_duty:
            self.started += 1
        self._shown_hz = hz
        self._shown_duty = duty
        log = self._log
        i = self._head
        log[i] = self.clock()
        log[i + 1] = hz
        log[i + 2] = duty
        self._head = (i + 3) % len(log)
        self._n = min(self._n + 3, len(log))
        self.changes += 1
