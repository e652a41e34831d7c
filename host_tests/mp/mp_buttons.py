# The buttons' checks under the MicroPython unix port, compiled by mpy-cross: named cases
# (timing, the tick wrap, chords, the queue, the layouts), seeded bouncing presses polled at
# irregular times (mp_buttons_sim.py, which host_tests/test_buttons.py shares) and
# allocation-freedom. Bounce against the clean event stream: test_buttons.py's hypothesis test.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=1m without=test_ticks_are_30_bit
# mpcheck ticks30: heapsize=1m paths={hostboard}
# Two runs: with the port's own time module (its ticks are 62-bit: test_ticks_are_30_bit removes
# itself), and with the host board's time first on the path (testbed/hostboard/time.py: ticks
# wrapping at 2**30, as on the boards).
import buttons as B
import micropython
import mp_buttons_sim as sim
import mptest
import pads
from mp_buttons_sim import Pin, check, drain, pad1, period, spec_press


def play(pad, pins, holds, start, end, base=0):
    """Poll every ms from start to end (ticks from base); pins[i] is pressed (level 0) from
    holds[i][0] to holds[i][1], released otherwise. Returns [(ms, event)] as drain() gives."""
    got = []
    for t in range(start, end):
        for pin, (down, up) in zip(pins, holds):  # noqa: B905 - no strict= in MicroPython
            pin.level = 0 if down <= t < up else 1
        now = B.ticks_add(base, t)
        pad.feed(pad.read(), now)
        drain(pad, now, got, base)
    return got


def events(spec):
    """[(ms, event)] from a timeline "ms BUTTON KIND, ...", names as buttons.py has them."""
    out = []
    for item in spec.split(","):
        t, name, kind = item.split()
        out.append((int(t), B.event(getattr(B, name), getattr(B, kind))))
    return out


def test_long_repeat_timing(base=0):
    """LONG exactly long_ms after the press, once per hold; REPEATs at delay + k * period."""
    pins = (Pin(), Pin())
    pad = B.Pad(
        (B.Button(pins[0], B.SELECT, long_press=True), B.Button(pins[1], B.NEXT, 0, False, True)),
        long_ms=600,
        repeat_delay_ms=400,
        repeat_ms=120,
    )
    got = play(pad, pins, ((100, 2100), (150, 1000)), 0, 3000, base)
    want = [(100, B.event(B.SELECT, B.PRESS)), (150, B.event(B.NEXT, B.PRESS))]
    for k in range(4):  # 550, 670, 790, 910 (the hold ends at 1000)
        want.append((550 + 120 * k, B.event(B.NEXT, B.REPEAT)))
        if k == 1:
            want.append((700, B.event(B.SELECT, B.LONG)))
    want.append((1000, B.event(B.NEXT, B.RELEASE)))
    want.append((2100, B.event(B.SELECT, B.RELEASE)))
    check(got == want, "got %r want %r" % (got, want))


def wrap_check(wrap_at):
    """A press held across the tick wrap: one PRESS, LONG and REPEATs on time, one RELEASE.

    wrap_at is the press's age (ms) at the moment the tick counter wraps to 0.
    """
    base = period() - 100 - wrap_at  # the press comes at base + 100
    test_long_repeat_timing(base)
    pad, pin = pad1(30, True, True)
    got = play(pad, (pin,), ((100, 1200),), 0, 1500, base)
    want = []
    spec_press(B.SELECT, 100, 1200, 600, 400, 120, True, True, want)
    check(got == want, "wrap at %d: got %r want %r" % (wrap_at, got, want))


def test_idle_longer_than_half_period():
    """No edge for more than 2**29 ms (6.2 days on a board): the next press is still seen."""
    pad, pin = pad1()
    half = period() // 2
    if half > 1 << 40:
        return  # 64-bit unix port: ticks never wrap in practice; nothing to check here
    pin.level = 0
    check(pad.poll(0) == B.event(B.SELECT, B.PRESS), "first press")
    pin.level = 1
    check(pad.poll(100) == B.event(B.SELECT, B.RELEASE), "first release")
    check(pad.get() == B.event(B.SELECT, B.CLICK), "first click")
    t = 100
    while t < half + 5000:
        check(pad.poll(B.ticks_add(0, t)) is None, "idle event at %d" % t)
        t += 60000
    pin.level = 0
    check(pad.poll(B.ticks_add(0, t)) == B.event(B.SELECT, B.PRESS), "press after idle")


def test_two_buttons():
    """Two buttons pressed at once (no chord configured): both are seen, each exactly once."""
    pins = (Pin(), Pin())
    pad = B.Pad((B.Button(pins[0], B.UP, 0, False, False), B.Button(pins[1], B.DOWN)))
    got = play(pad, pins, ((10, 200), (10, 250)), 0, 500)
    want = events(
        "10 UP PRESS, 10 DOWN PRESS, 200 UP RELEASE, 200 UP CLICK, 250 DOWN RELEASE, "
        "250 DOWN CLICK"
    )
    check(got == want, "got %r want %r" % (got, want))


def test_chord():
    """PREV then NEXT within chord_ms: PRESS, PRESS, CHORD(PREV_NEXT); no CLICK/LONG/REPEAT."""
    pins = (Pin(), Pin(), Pin())
    pad = pads.three_buttons(*pins)
    # PREV held long enough to repeat, if it were alone.
    got = play(pad, pins, ((100, 1500), (180, 1400)), 0, 2000)
    chord = B.event(B.PREV_NEXT, B.CHORD)
    want = events(
        "100 PREV PRESS, 180 NEXT PRESS, 180 PREV_NEXT CHORD, 1400 NEXT RELEASE, 1500 PREV RELEASE"
    )
    check(got == want, "chord: got %r want %r" % (got, want))
    check(B.button_of(chord) == B.chord_id(B.PREV, B.NEXT) == 6, "chord id")
    check(B.kind_of(chord) == B.CHORD, "chord kind")
    # Too far apart (second press 101 ms later): two separate presses, PREV repeats as usual.
    pad.reset(3000)
    got = play(pad, pins, ((3100, 3600), (3201, 3300)), 3000, 4000)
    want = events(
        "3100 PREV PRESS, 3201 NEXT PRESS, 3300 NEXT RELEASE, 3300 NEXT CLICK, 3500 PREV REPEAT, "
        "3600 PREV RELEASE"
    )
    check(got == want, "no chord: got %r want %r" % (got, want))


def test_held_at_startup():
    """A button held through start-up (or reset) gives no PRESS, and its release no RELEASE."""
    pin = Pin(0)  # held before the pad exists
    pad = B.Pad((B.Button(pin, B.SELECT),))
    check(pad.any_pressed(), "any_pressed sees the held button")
    for t in range(0, 1000):
        check(pad.poll(t) is None, "phantom event while held at %d" % t)
    pin.level = 1
    for t in range(1000, 1100):
        check(pad.poll(t) is None, "phantom event on its release at %d" % t)
    check(not pad.any_pressed(), "released")
    pin.level = 0
    check(pad.poll(1100) == B.event(B.SELECT, B.PRESS), "the next press counts")
    # reset() while held: the same again, and queued events are forgotten.
    check(pad.poll(1101) is None, "nothing queued")
    pad.reset(1200)
    for t in range(1200, 1300):
        check(pad.poll(t) is None, "phantom after reset at %d" % t)
    pin.level = 1
    for t in range(1300, 1400):
        check(pad.poll(t) is None, "phantom release after reset at %d" % t)


def test_late_repeats_drop():
    """Repeats missed during a long gap are dropped, not burst: one REPEAT, then on the grid."""
    pad = B.Pad((B.Button(Pin(), B.NEXT, 0, False, True),))
    got = []
    for t in (0, 1, 2000, 2001, 2079, 2080, 2160):  # repeats due at 400, 520, ... 1960, 2080
        pad.feed((1 << B.NEXT) if t < 2160 else 0, t)
        drain(pad, t, got)
    # Late at 2000: one repeat, not fourteen; then the next point on the grid (400 + 120 * 14).
    want = events("0 NEXT PRESS, 2000 NEXT REPEAT, 2080 NEXT REPEAT, 2160 NEXT RELEASE")
    check(got == want, "got %r want %r" % (got, want))


def test_queue_full_defers():
    """A queue nobody drains fills up; then samples wait (like a late poll), nothing is dropped.

    Five clicks queue 15 events (PRESS, RELEASE, CLICK each). With fewer than 2 free slots no
    button is sampled, so a press made now is not half-recorded: it is seen once the game has
    taken events, if it is still held (a poll only sees levels, as with a late poll).
    """
    pins = [Pin() for _ in range(5)]
    pad = pads.five_way(*pins)
    names = (B.UP, B.DOWN, B.LEFT, B.RIGHT, B.SELECT)
    t = 0
    for i in range(5):
        pins[i].level = 0
        pad.feed(pad.read(), t)
        pins[i].level = 1
        pad.feed(pad.read(), t + 40)
        t += 80
    pins[0].level = 0  # UP pressed and held while the queue is full
    for _ in range(200):
        t += 1
        pad.feed(pad.read(), t)
    got = []
    drain(pad, t, got)
    check([B.kind_of(ev) for _, ev in got] == [B.PRESS, B.RELEASE, B.CLICK] * 5, "paired")
    check([B.button_of(ev) for _, ev in got][::3] == list(names), "in order")
    check(pad.poll(t + 1) == B.event(B.UP, B.PRESS), "the held press is seen after the drain")
    pins[0].level = 1
    check(pad.poll(t + 100) == B.event(B.UP, B.RELEASE), "and released")
    check(pad.get() == B.event(B.UP, B.CLICK), "click")
    check(pad.get() is None, "nothing else")


def test_tap_shorter_than_debounce():
    """A 5 ms tap is a whole press: PRESS at once, RELEASE when the debounce window ends."""
    pad, pin = pad1()
    got = play(pad, (pin,), ((0, 5),), 0, 100)
    check(got == events("0 SELECT PRESS, 30 SELECT RELEASE, 30 SELECT CLICK"), "got %r" % got)


def test_chord_edges():
    """A button held since start-up takes no part in a chord; a third button acts alone."""
    pins = (Pin(), Pin(), Pin(0))  # SELECT held through start-up
    pad = pads.three_buttons(*pins)
    got = play(pad, pins[:2], ((100, 500), (120, 500)), 0, 1000)
    want = events(
        "100 PREV PRESS, 120 NEXT PRESS, 120 PREV_NEXT CHORD, 500 PREV RELEASE, 500 NEXT RELEASE"
    )
    check(got == want, "muted SELECT: got %r" % got)
    pins[2].level = 1
    pad.reset(2000)
    # SELECT pressed during the chord.
    got = play(pad, pins, ((2100, 2500), (2120, 2500), (2150, 2200)), 2000, 3000)
    want = events(
        "2100 PREV PRESS, 2120 NEXT PRESS, 2120 PREV_NEXT CHORD, 2150 SELECT PRESS, "
        "2200 SELECT RELEASE, 2200 SELECT CLICK, 2500 PREV RELEASE, 2500 NEXT RELEASE"
    )
    check(got == want, "third button: got %r" % got)


def test_chord_window_is_inclusive_and_needs_exactly_two():
    """The second press exactly chord_ms after the first still makes a chord; three do not."""
    pins = (Pin(), Pin(), Pin())
    pad = pads.three_buttons(*pins)
    got = play(pad, pins, ((0, 200), (100, 200)), 0, 300)  # NEXT chord_ms (100) after PREV
    check((100, B.event(B.PREV_NEXT, B.CHORD)) in got, "chord at chord_ms: %r" % got)
    # SELECT listed first, so that PREV is the last other held button NEXT's press looks at.
    pad = B.Pad(
        [B.Button(pins[2], B.SELECT), B.Button(pins[0], B.PREV), B.Button(pins[1], B.NEXT)],
        chords=(B.PREV_NEXT,),
    )
    # SELECT, then PREV, then NEXT: all mashed.
    got = play(pad, pins, ((1110, 1200), (1120, 1200), (1100, 1200)), 1000, 1300)
    kinds = [B.kind_of(ev) for _, ev in got]
    check(B.CHORD not in kinds, "no chord when a third button is involved: %r" % got)
    check(kinds.count(B.CLICK) == 3, "three clicks: %r" % got)


def test_reset_starts_a_debounce_window():
    """A button let go just before reset() may still bounce: that is no press."""
    pad, pin = pad1()
    pin.level = 0
    check(pad.poll(0) == B.event(B.SELECT, B.PRESS), "press")
    pin.level = 1
    pad.reset(500)  # e.g. the app goes to sleep: queued RELEASE is forgotten with the rest
    for t in range(500, 600):
        pin.level = 0 if t in (503, 504, 511) else 1  # the release's chatter
        check(pad.poll(t) is None, "bounce after reset taken as a press at %d" % t)


def test_bouncing_presses_with_irregular_polls():
    check(sim.check_bounce_random_polls(13, 1000) == 1000)


def test_tick_wraps_during_a_press():
    for wrap_at in (-1, 0, 1, 15, 29, 30, 399, 400, 599, 600, 601, 1099, 1100):
        wrap_check(wrap_at)


def test_ticks_are_30_bit():
    # Passes only with the host board's time on the path; the ticks30 run collects it.
    check(period() == 1 << 30, "period %d" % period())


if period() != 1 << 30:
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
    # Presses, bounce, a chord, a long press, repeats, a late poll, queued events, a reset and
    # idle polls with nothing to do (1930..2000): every path of poll(). Events go into the
    # preallocated log; nothing here may allocate.
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
    base = period() - 3000  # wrap during the run
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


def test_prev_up_and_left_step_back_the_others_on():
    back = [b for b in range(B.RIGHT + 1) if B.direction(b) == -1]
    check(back == [B.PREV, B.UP, B.LEFT], "back: %r" % (back,))
    on = [B.direction(b) for b in (B.SELECT, B.NEXT, B.DOWN, B.RIGHT)]
    check(on == [1, 1, 1, 1], "on: %r" % (on,))


mptest.run(globals())
