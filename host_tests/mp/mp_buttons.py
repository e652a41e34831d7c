# The buttons core checks and allocation-freedom under the MicroPython unix port.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=1m without=test_ticks_are_30_bit
# mpcheck ticks30: heapsize=1m paths={hostboard}
# Two runs, with buttons compiled by mpy-cross: with the port's own time module (its ticks are
# 62-bit: test_ticks_are_30_bit removes itself), and with the host board's time first on the
# path (testbed/hostboard/time.py: ticks wrapping at 2**30, as on the boards).
import buttons as B
import micropython
import mp_buttons_cases as cases
import mp_buttons_sim as sim
import mptest
import pads
from mp_buttons_sim import Pin, check


def test_shared_checks():
    for f in cases.CHECKS:
        f()


def test_thousands_of_bouncing_presses():
    base = sim.period() - 150000  # the tick wrap comes in the middle
    check(sim.check_bounce(11, 1200, base, True, False) == 1200)
    check(sim.check_bounce(12, 800, base, False, True) == 800)


def test_bouncing_presses_with_irregular_polls():
    check(sim.check_bounce_random_polls(13, 1000) == 1000)


def test_tick_wraps_during_a_press():
    for wrap_at in (-1, 0, 1, 15, 29, 30, 399, 400, 599, 600, 601, 1099, 1100):
        cases.check_wrap(wrap_at)


def test_ticks_are_30_bit():
    # Passes only with the host board's time on the path; the ticks30 run collects it.
    check(sim.period() == 1 << 30, "period %d" % sim.period())


if sim.period() != 1 << 30:
    del test_ticks_are_30_bit


def test_heap_lock_catches_allocation():
    # The proof below means something only if an allocation under heap_lock() fails.
    micropython.heap_lock()
    try:
        junk = [1, 2, 3]
        failed = junk is None
    except MemoryError:
        failed = True
    micropython.heap_unlock()
    check(failed, "heap_lock did not stop an allocation")


def _scenario(pad, pins, base, log):
    # Presses, bounce, a chord, a long press, repeats, a late poll, queued events and a reset:
    # every path of poll(). Events go into the preallocated log; nothing here may allocate.
    n = 0
    t = 0
    while t < 7500:
        phase = t % 2500
        # PREV: held 100..900, a bounce at 103; NEXT: 150..300 (chord with PREV), then
        # 400..1000 alone (repeats); SELECT: 1100..1900 (LONG at 1700). 2000..2400: six clicks
        # while nobody drains, more than the queue holds, then poll() drains a full queue.
        pins[0].level = 0 if 100 <= phase < 900 and phase != 103 else 1
        pins[1].level = 0 if 150 <= phase < 300 or 400 <= phase < 1000 else 1
        pins[2].level = 0 if 1100 <= phase < 1900 else 1
        if 2000 <= phase < 2300 and phase % 50 < 40:
            pins[(phase - 2000) // 50 % 3].level = 0
        if phase == 1300:
            t += 200  # a late poll: the CPU thought for 200 ms
        now = B.ticks_add(base, t)
        if 2000 <= phase < 2400:
            pad.feed(pad.read(), now)  # events queue up and fill the queue
            ev = None
        elif phase >= 2400:
            ev = pad.poll(now)  # polls on a full queue: one event each, nothing else taken
            if ev is not None:
                log[n] = ev
                n += 1
                ev = None
        else:
            ev = pad.poll(now)
        while ev is not None:
            log[n] = ev
            n += 1
            ev = pad.get()
        if t == 5000:
            pad.reset(now)
        t += 1
    return n


def test_poll_allocates_nothing():
    pins = (Pin(), Pin(), Pin())
    pad = pads.three_buttons(*pins)
    log = [0] * 200
    base = sim.period() - 3000  # wrap during the run
    micropython.heap_lock()
    try:
        n = _scenario(pad, pins, base, log)
    finally:
        micropython.heap_unlock()
    # The same scenario with the heap unlocked gives the same events: the locked run was real.
    pins2 = (Pin(), Pin(), Pin())
    log2 = [0] * 200
    n2 = _scenario(pads.three_buttons(*pins2), pins2, base, log2)
    check(n == n2 and log == log2, "locked and unlocked runs differ")
    kinds = [B.kind_of(ev) for ev in log[:n]]
    check(kinds.count(B.PRESS) == kinds.count(B.RELEASE), "paired: %r" % kinds)
    check(kinds.count(B.CLICK) >= 15, "the full-queue clicks came through: %r" % kinds)
    for kind in (B.PRESS, B.RELEASE, B.LONG, B.REPEAT, B.CHORD, B.CLICK):
        check(kind in kinds, "the scenario lacks kind %d: %r" % (kind, kinds))


def test_poll_with_nothing_to_do_allocates_nothing():
    pad = pads.five_way(Pin(), Pin(), Pin(), Pin(), Pin())
    micropython.heap_lock()
    try:
        for t in range(1000):
            ev = pad.poll(t)
    finally:
        micropython.heap_unlock()
    check(ev is None)


def test_prev_up_and_left_step_back_the_others_on():
    back = [b for b in range(B.RIGHT + 1) if B.direction(b) == -1]
    check(back == [B.PREV, B.UP, B.LEFT], "back: %r" % (back,))
    on = [B.direction(b) for b in (B.SELECT, B.NEXT, B.DOWN, B.RIGHT)]
    check(on == [1, 1, 1, 1], "on: %r" % (on,))


mptest.run(globals())
