"""Buttons under CPython: property tests with hypothesis, the API contract. The core checks
under MicroPython, compiled by mpy-cross, with the boards' 30-bit ticks (bouncing presses
polled at irregular times, the tick wrap at every edge of a press): mp/mp_buttons.py. The ticks
they wrap with on CPython (testbed/cpython's): test_cpython_shim.py."""

import sys
from pathlib import Path

import buttons as B
import pads
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "mp"))
import mp_buttons_sim as sim  # noqa: E402

PERIOD = 1 << 30
DEBOUNCE = 30


# --- property: bounce shorter than the debounce never changes the event stream ----------------


def run_signal(pad, signals, base, t_end):
    """Poll every ms; signals[name] is a list of (start, end, chatter_in, chatter_out)."""
    rngs = {name: sim.Rng(name + 1) for name in signals}
    got = []
    for t in range(t_end):
        mask = 0
        for name, holds in signals.items():
            for p, r, cp, cr in holds:
                if p - 1 <= t <= r + cr:
                    if sim.bouncy_level(rngs[name], t, p, cp, r, cr):
                        mask |= 1 << name
                    break
        now = B.ticks_add(base, t)
        pad.feed(mask, now)
        sim.drain(pad, now, got, base)
    return got


def schedule(draw, start):
    """Holds and gaps of at least debounce_ms, chatter of 1..debounce_ms-1 ms after each edge."""
    holds = []
    t = start
    for _ in range(draw(st.integers(0, 5))):
        t += draw(st.integers(DEBOUNCE, 700))
        hold = draw(st.integers(DEBOUNCE, 1100))
        cp = draw(st.integers(1, DEBOUNCE - 1))
        cr = draw(st.integers(1, DEBOUNCE - 1))
        holds.append((t, t + hold, cp, cr))
        t += hold
    return holds, t


@st.composite
def one_button_case(draw):
    holds, end = schedule(draw, draw(st.integers(0, 50)))
    base = draw(st.one_of(st.integers(0, PERIOD - 1), st.integers(PERIOD - 3000, PERIOD)))
    # spec_press's order: long_ms, repeat_delay_ms, repeat_ms, long_press, repeat
    timing = (draw(st.integers(1, 900)), draw(st.integers(1, 600)), draw(st.integers(1, 300)))
    return holds, end + DEBOUNCE, base, timing + (draw(st.booleans()), draw(st.booleans()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_button_case())
def test_bounce_shorter_than_debounce_gives_the_clean_stream(case):
    holds, end, base, options = case
    long_ms, repeat_delay_ms, repeat_ms, long_press, repeat = options
    pad, _ = sim.pad1(
        DEBOUNCE, long_press, repeat, long_ms=long_ms, repeat_delay_ms=repeat_delay_ms,
        repeat_ms=repeat_ms,
    )  # fmt: skip
    got = run_signal(pad, {B.SELECT: holds}, base, end)
    want = []
    for p, r, _, _ in holds:
        sim.spec_press(B.SELECT, p, r, *options, want)
    assert got == want


@st.composite
def two_button_case(draw):
    a, end_a = schedule(draw, draw(st.integers(0, 50)))
    b, end_b = schedule(draw, draw(st.integers(0, 200)))
    return {
        "a": a,
        "b": b,
        "end": max(end_a, end_b) + DEBOUNCE,
        "base": draw(st.integers(0, PERIOD)),
    }


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_button_case())
def test_two_buttons_with_a_chord_bouncing_equals_clean(case):
    def pad():
        return pads.three_buttons(sim.Pin(), sim.Pin(), sim.Pin())

    signals = {B.PREV: case["a"], B.NEXT: case["b"]}
    clean = {n: [(p, r, 1, 1) for p, r, _, _ in holds] for n, holds in signals.items()}
    got = run_signal(pad(), signals, case["base"], case["end"])
    want = run_signal(pad(), clean, case["base"], case["end"])
    assert got == want
    # And the clean stream itself is sane: per button PRESS/RELEASE alternate, one per hold.
    for name, holds in signals.items():
        edges = [
            B.kind_of(ev)
            for _, ev in got
            if B.kind_of(ev) != B.CHORD and B.button_of(ev) == name
            if B.kind_of(ev) in (B.PRESS, B.RELEASE)
        ]
        assert edges == [B.PRESS, B.RELEASE] * len(holds)
    chords = [t for t, ev in got if B.kind_of(ev) == B.CHORD]
    for t in chords:
        # A chord comes only with the second of two overlapping presses, within chord_ms.
        starts = sorted(p for holds in signals.values() for p, _, _, _ in holds if p <= t)
        assert starts[-1] == t and t - starts[-2] <= 100


@st.composite
def late_poll_case(draw):
    return (
        draw(st.integers(1, 1000)),  # the gap between two polls
        draw(st.integers(0, 1000)),  # the press starts this long after the first poll
        draw(st.integers(1, 2000)),  # and lasts this long
    )


@given(late_poll_case())
def test_a_late_poll_sees_a_held_press_and_nothing_of_a_finished_one(case):
    """A poll sees only levels: a press that went down and up inside the gap leaves no event;
    one still held gives PRESS at that poll, and LONG counts from it, not from the press."""
    gap, start, length = case
    pad, pin = sim.pad1()
    assert pad.poll(0) is None
    held = start <= gap < start + length
    pin.level = 0 if held else 1
    if not held:
        assert pad.poll(gap) is None and pad.get() is None
        return
    assert pad.poll(gap) == B.event(B.SELECT, B.PRESS) and pad.get() is None
    assert pad.poll(gap + 599) is None
    assert pad.poll(gap + 600) == B.event(B.SELECT, B.LONG)
    pin.level = 1
    assert pad.poll(gap + 800) == B.event(B.SELECT, B.RELEASE)
    assert pad.get() is None, "no CLICK after a LONG"


# --- the API contract -----------------------------------------------------------------------


def test_contract_names_and_values():
    kinds = (B.PRESS, B.RELEASE, B.LONG, B.REPEAT, B.CHORD, B.CLICK)
    assert kinds == (1, 2, 3, 4, 5, 6)
    names = (B.SELECT, B.PREV, B.NEXT, B.UP, B.DOWN, B.LEFT, B.RIGHT)
    assert names == (0, 1, 2, 3, 4, 5, 6)
    for name in names:
        for kind in kinds:
            ev = (name << 3) | kind
            assert ev == B.event(name, kind) != 0
            assert B.button_of(ev) == name and B.kind_of(ev) == kind


def test_active_high_button():
    pin = sim.Pin(0)
    pad = B.Pad((B.Button(pin, B.UP, pressed_level=1),))
    assert not pad.any_pressed() and pad.poll(0) is None
    pin.level = 1
    assert pad.any_pressed() and pad.poll(1) == B.event(B.UP, B.PRESS)


def test_events_can_be_switched_off_per_button():
    pin = sim.Pin()
    pad = B.Pad((B.Button(pin, B.LEFT, press=False, click=False),))
    pin.level = 0
    assert pad.poll(0) is None
    assert pad.poll(600) == B.event(B.LEFT, B.LONG)
    pin.level = 1
    assert pad.poll(700) == B.event(B.LEFT, B.RELEASE)
    assert pad.get() is None


def test_debounce_zero_takes_every_change():
    pad, pin = sim.pad1(debounce_ms=0, long_press=False)
    got = []
    for t, level in enumerate((0, 1, 0, 1)):
        pin.level = level
        pad.feed(pad.read(), t)
        sim.drain(pad, t, got)
    assert got == [(0, 1), (1, 2), (1, 6), (2, 1), (3, 2), (3, 6)]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: B.Button(sim.Pin(), 8), "button name"),
        (lambda: B.Button(sim.Pin(), -1), "button name"),
        (lambda: B.Button(sim.Pin(), B.UP, pressed_level=2), "pressed_level"),
        (lambda: B.Pad(()), "at least one"),
        (lambda: B.Pad((sim.Pin(),)), "Button objects"),
        (lambda: B.Pad((B.Button(sim.Pin(), 1), B.Button(sim.Pin(), 1))), "names must differ"),
        (lambda: sim.pad1(debounce_ms=-1), "debounce_ms"),
        (lambda: sim.pad1(long_ms=0), "long_ms"),
        (lambda: sim.pad1(repeat_ms=0), "repeat_ms"),
        (lambda: sim.pad1(repeat_delay_ms=70000), "repeat_delay_ms"),
        (lambda: sim.pad1(chord_ms=2.5), "chord_ms"),
        (lambda: sim.pad1(long_ms=True), "long_ms"),
        (lambda: sim.pad1(chords=(B.PREV_NEXT,)), "chord"),
        (lambda: pads.three_buttons(sim.Pin(), sim.Pin(), sim.Pin(), chords=(7,)), "chord"),
        (lambda: B.chord_id(B.UP, B.UP), "two different"),
    ],
)
def test_bad_arguments_raise_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()
