# The fake machine's resets: reset(), the hardware watchdog, its rp2 registers, reset_cause().
# SPDX-License-Identifier: MIT
"""What resets the host board and what it reads after (testbed/hostboard/machine.py imports
the API from here; the port's own rules are in portmodel.py):

- `reset()` (mpremote's reset, and a test's) raises `Reset`, a BaseException a harness catches
  (firmware that catches Exception cannot swallow it); its `cause` is what `reset_cause()`
  reads after the harness boots again (machine.reset_state(cause=...), which calls `boot()`),
  as the port has it.
- `WDT(id, timeout)`: the port's hardware watchdog (portmodel: its limits). It bites on the fake
  clock (time.FakeClock.bite_at): when time passes `timeout` ms after the last `feed()`, a
  `Reset` with cause WDT_RESET is raised at that moment from whatever the firmware was doing
  (a sleep: time passes on the fake clock only there), or at the next sleep or `feed()` when
  busy time (time.spend_us) took the clock past it: a feed then comes too late. During a
  light sleep (`watched_lightsleep()`) it counts, pauses or, where the port locks up when it
  fires there, raises `LockUp`. On a real clock (the simulator) it never bites. `wdt()` is
  the one armed (None: never armed since power-on).
- `mem32`: only the rp2 watchdog's registers boards/pico.py touches (CTRL's ENABLE bit, cleared
  through the atomic clear alias, and scratch[4] read); any other address is a ValueError.
"""

import time

import portmodel

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3

_cause = [PWRON_RESET]
_dog = [None]  # the WDT armed since the last reset
_scratch4 = [0]  # rp2: the watchdog's scratch[4], kept over resets but not power cycles


class Reset(BaseException):
    """machine.reset() was called, or the watchdog bit; args[0] says which, `cause` is what
    reset_cause() reads at the next boot."""

    def __init__(self, what, cause):
        super().__init__(what)
        self.cause = cause


class LockUp(BaseException):
    """The board stopped for good: only a power cycle brings it back (see portmodel)."""


def boot(cause):
    """The board starts again after `cause`: reset_cause() reads it, no watchdog runs, and a
    power-on (PWRON_RESET) clears the rp2 watchdog's scratch registers."""
    _cause[0] = cause
    if cause == PWRON_RESET:
        _scratch4[0] = 0
    _disarm()


def reset():
    port = portmodel.in_use()
    if port.name == "rp2":
        _scratch4[0] = 0  # watchdog_reboot(0, ...): scratch[4] = 0
    raise Reset("reset", WDT_RESET if port.reset_is_watchdog else HARD_RESET)


def reset_cause():
    return _cause[0]


class WDT:
    """The port's hardware watchdog (see the module docstring and portmodel.py). `timeout` is
    the one it runs with; `bite_at` the fake clock's ms when it bites (None: never, on a real
    clock); `armed` is False once stopped through mem32 (rp2)."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = portmodel.in_use().wdt_timeout(id, timeout)
        self.armed = True
        self.locks = False  # in a light sleep where a bite locks the board up
        self.bite_at = None
        _dog[0] = self
        if portmodel.in_use().name == "rp2":
            _scratch4[0] = _WATCHDOG_NON_REBOOT_MAGIC  # watchdog_enable()
        self._arm()
        if timeout == 0:
            self._bite()  # rp2 watchdog_enable(0): WATCHDOG_CTRL_TRIGGER at once

    def feed(self):
        clock = _fake_clock()
        if self.armed and clock is not None and clock.bite_at is not None:
            # Busy time (spend_us) past bite_at: it bit then, and this feed is too late. As on the
            # chips: the counter reaching 0 resets at once (RP2040 datasheet 4.7, Watchdog;
            # ESP32 TRM, Timer Group watchdog stages), whatever the program does after.
            clock.step_to(clock.now)
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


def watched_lightsleep(ms, pins):
    """The port's light sleep (portmodel: `lightsleep(ms, pins)`) with the watchdog doing what
    it does there on that port: it counts, pauses or locks the board up if it fires
    (Port.wdt_in_lightsleep)."""
    port = portmodel.in_use()
    dog = _dog[0]
    clock = time.clock()
    mode = port.wdt_in_lightsleep
    if dog is None or dog.bite_at is None or mode == "counts":
        port.lightsleep(ms, pins)
        return
    before = clock.now
    if mode == "pauses":
        clock.bite_at = None
    else:
        dog.locks = True
    try:
        port.lightsleep(ms, pins)
    finally:
        dog.locks = False
        if mode == "pauses":
            dog.bite_at += clock.now - before
            clock.bite_at = dog.bite_at


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
_WATCHDOG_CTRL_CLR = 0x4005B000  # the atomic clear alias (+0x3000) of CTRL (0x40058000)
_WATCHDOG_ENABLE = 1 << 30
_WATCHDOG_SCRATCH4 = 0x4005801C
_WATCHDOG_NON_REBOOT_MAGIC = 0x6AB73121  # pico-sdk watchdog.c


class _Mem32:
    """machine.mem32, for the few rp2 watchdog registers that are modelled."""

    def __getitem__(self, addr):
        if portmodel.in_use().name == "rp2" and addr == _WATCHDOG_SCRATCH4:
            return _scratch4[0]
        raise ValueError("mem32[0x%08x] is not modelled" % addr)

    def __setitem__(self, addr, value):
        if portmodel.in_use().name == "rp2" and addr == _WATCHDOG_CTRL_CLR:
            dog = _dog[0]
            if value & _WATCHDOG_ENABLE and dog is not None:
                _disarm()  # watchdog_disable(): it stops counting ...
                _dog[0] = dog  # ... and is still the one armed since the reset (wdt())
            return
        raise ValueError("mem32[0x%08x] is not modelled" % addr)


mem32 = _Mem32()
