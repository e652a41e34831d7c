# A host stand-in for MicroPython's time module whose clock can be swapped: fake or real.
# SPDX-License-Identifier: MIT
"""On MICROPYPATH this file overrides the unix port's built-in `time`, so the firmware's
`time.ticks_ms()`, `time.sleep_ms()` ... run on a clock chosen by the host:

- `FakeClock` (the default): time stands still until the firmware sleeps; a sleep advances it
  at once. A listener (the harness) is called at every step so it can change button levels at
  exact times. Deterministic: the same script gives the same run.
- `RealClock`: the built-in clock (utime), for the simulator (simulator_mp.Clock reads its keys
  while it sleeps), the virtual board and the benchmarks' own steps.

`use(clock)` installs a clock. Tick arithmetic wraps at 2**30 as on the boards. Only what the
firmware and the test bed call is here (no time(), gmtime(), sleep_us() ...).

Work takes time too: a stand-in that models what a port spends on it (the SPI bytes of a frame
at SCK's rate, drawing it, a flash write) calls `spend_us(us)`, which moves the fake clock on at
once, to the microsecond (no listener runs: the firmware is busy, not asleep). The real clock
ignores it: there the work took its own time.
"""

import utime

TICKS_PERIOD = 1 << 30
_MASK = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD >> 1


class Spinning(BaseException):
    """The firmware read the fake clock too often without ever sleeping (it would hang)."""


class FakeClock:
    """Milliseconds that pass only when the firmware sleeps.

    `now` is the unbounded time in ms since `start`; ticks_ms() is (start + now) wrapped.
    `listener(target_ms, light)`, if set, is called by every sleep instead of jumping straight
    to target: it must advance the clock itself with `step_to()` (this is how a harness applies
    scripted events in order); `light` is True for machine.lightsleep, whose listener may stop
    early (a wake-up) by returning.
    """

    spin_limit = 200000  # ticks reads without a sleep before Spinning is raised

    def __init__(self, start_ms=0):
        self.start = start_ms
        self.now = 0
        self.listener = None
        self.dozed_ms = 0  # total time in machine.lightsleep
        self.busy_us = 0  # total time charged by spend_us()
        self._us = 0  # the part of a ms spent so far (0..999)
        self._reads = 0
        # A hardware watchdog (machine.WDT): bite() is called, with the clock at bite_at, when
        # time passes bite_at before a feed moves it on. None: no watchdog armed.
        self.bite_at = None
        self.bite = None

    def ticks_ms(self):
        self._reads += 1
        if self._reads > self.spin_limit:
            self._reads = 0
            raise Spinning("%d ticks reads without a sleep: a busy wait?" % self.spin_limit)
        return (self.start + self.now) & _MASK

    def ticks_us(self):
        return ((self.start + self.now) * 1000 + self._us) & _MASK

    def spend_us(self, us):
        """The firmware was busy for `us` microseconds (a stand-in's model of the work: flash,
        frames, searches). The watchdog's bite_at is not checked here but in step_to, at the
        next sleep or feed (machine.WDT.feed): busy time past it bites then, late by the rest
        of the step."""
        us = max(0, int(us))
        self.busy_us += us
        us += self._us
        self.now += us // 1000
        self._us = us % 1000

    def step_to(self, now):
        if self.bite_at is not None and now >= self.bite_at:
            self.now = max(self.now, self.bite_at)
            self.bite()  # raises: the board resets (or locks up) at that moment
        if now > self.now:
            self.now = now

    def sleep_ms(self, ms, light=False):
        ms = max(0, int(ms))
        self._reads = 0
        before = self.now
        target = self.now + ms
        if self.listener is None:
            self.step_to(target)
        else:
            self.listener(target, light)
        if light:
            self.dozed_ms += self.now - before


class RealClock:
    """The host's clock (utime): the firmware's sleeps take real time."""

    def __init__(self):
        self.dozed_ms = 0
        self.busy_us = 0

    def ticks_ms(self):
        return utime.ticks_ms()

    def ticks_us(self):
        return utime.ticks_us()

    def sleep_ms(self, ms, light=False):
        utime.sleep_ms(ms)
        if light:
            self.dozed_ms += ms

    def spend_us(self, us):
        pass  # the host did the work in its own time


_clock = FakeClock()


def use(clock):
    """Make `clock` the time source of every module; returns it."""
    global _clock
    _clock = clock
    return clock


def clock():
    return _clock


def ticks_ms():
    return _clock.ticks_ms()


def ticks_us():
    return _clock.ticks_us()


def ticks_add(ticks, delta):
    return (ticks + delta) & _MASK


def ticks_diff(end, start):
    return ((end - start + _HALF) & _MASK) - _HALF


def sleep_ms(ms):
    _clock.sleep_ms(ms)
