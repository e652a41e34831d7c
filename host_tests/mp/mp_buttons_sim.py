# Button simulation and seeded bouncing presses shared by the CPython tests (test_buttons.py)
# and the MicroPython unix-port run (mp_buttons.py, which holds the checks on named cases).
# SPDX-License-Identifier: MIT
# Portable: runs unchanged under CPython and MicroPython (no f-strings, no CPython-only modules).
# Every check_* function raises AssertionError on failure. Randomness comes from a small
# xorshift generator so both runtimes replay exactly the same seeded presses.
import buttons as B
import fakebus
from mptest import check  # mp_buttons imports it from here too


def period():
    """The tick period of the ticks_add/ticks_diff the buttons module uses (2**30 on boards)."""
    return B.ticks_add(0, -1) + 1


class Rng:
    """xorshift32: the same sequence under CPython and MicroPython."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def between(self, low, high):
        return low + self.next() % (high - low + 1)


def Pin(level=1):  # named as the machine.Pin it stands for
    """A button's pin: the host's Pin stand-in (testbed/fakebus.py), released (1) unless told;
    a check moves the button by setting `pin.level` (0 pressed: the boards' pull-ups)."""
    return fakebus.Pin(value=level)


def pad1(debounce_ms=30, long_press=True, repeat=False, **kw):
    """A pad of one active-low SELECT button on a fake pin (released)."""
    pin = Pin(1)
    pad = B.Pad((B.Button(pin, B.SELECT, 0, long_press, repeat),), debounce_ms=debounce_ms, **kw)
    return pad, pin


def drain(pad, t, out, base=0):
    """Append (t - base, event) for every queued event to out."""
    ev = pad.get()
    while ev is not None:
        out.append((B.ticks_diff(t, base), ev))
        ev = pad.get()


def spec_press(name, p, r, long_ms, rd, rp, long_on, rep_on, out):
    """The clean event stream of one hold seen at p (down) and r (up), polled every ms."""
    out.append((p, B.event(name, B.PRESS)))
    claimed = False
    t_long = p + long_ms if long_on and p + long_ms < r else None
    t_rep = p + rd
    while rep_on and t_rep < r:
        if t_long is not None and t_long <= t_rep:
            out.append((t_long, B.event(name, B.LONG)))
            t_long = None
        out.append((t_rep, B.event(name, B.REPEAT)))
        claimed = True
        t_rep += rp
    if t_long is not None:
        out.append((t_long, B.event(name, B.LONG)))
        claimed = True
    out.append((r, B.event(name, B.RELEASE)))
    if not claimed:
        out.append((r, B.event(name, B.CLICK)))


def bouncy_level(rng, t, p, cp, r, cr):
    """Raw level at t of a hold from p to r with chatter lasting cp and cr ms after each edge."""
    if p <= t < r:
        return 1 if t >= p + cp or t == p else rng.next() & 1
    if r <= t < r + cr and t != r:
        return rng.next() & 1
    return 0


def check_bounce_random_polls(seed, presses, step_max=8):
    """Polls 1..step_max ms apart: every press is one PRESS then one RELEASE, never more."""
    rng = Rng(seed)
    pad, pin = pad1(30, False, False)
    t = 0
    n_press = n_release = 0
    for i in range(presses):
        gap = rng.between(30 + 10 + step_max, 200)
        hold = rng.between(30 + 10 + step_max, 200)
        p = t + gap
        r = p + hold
        cp = rng.between(1, 10)
        cr = rng.between(1, 10)
        while t < r + 10 + step_max:
            pin.level = 1 - bouncy_level(rng, t, p, cp, r, cr)
            ev = pad.poll(t)
            while ev is not None:
                kind = B.kind_of(ev)
                if kind == B.PRESS:
                    n_press += 1
                    check(n_press == n_release + 1, "PRESS twice (press %d)" % i)
                    check(p <= t <= p + cp + step_max, "PRESS at %d for edge %d" % (t, p))
                elif kind == B.RELEASE:
                    n_release += 1
                    check(n_release == n_press, "RELEASE without PRESS (press %d)" % i)
                    check(r <= t <= r + cr + step_max, "RELEASE at %d for edge %d" % (t, r))
                ev = pad.get()
            t += rng.between(1, step_max)
        check(n_press == n_release == i + 1, "press %d: %d presses" % (i, n_press))
    return n_press
