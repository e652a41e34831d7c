"""A hypothesis state machine drives a Pad with arbitrary pins, time steps, polls and resets.

Whatever happens (bounce, late polls, a full queue nobody drains, the tick wrap, resets), the
events the game gets must make sense: per button PRESS and RELEASE alternate, LONG at most once
per hold, CLICK only right after the RELEASE of an unclaimed hold, CHORD only for two held
buttons; and once the pins have been still for the debounce time, the game's view of every
button agrees with its pin (nothing stuck down, nothing stuck up).
"""

import buttons as B
import pads
from fakebus import Pin
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

PERIOD = 1 << 30
DEBOUNCE = 30


class PadMachine(RuleBasedStateMachine):
    @initialize(
        base=st.one_of(st.integers(0, PERIOD - 1), st.integers(PERIOD - 5000, PERIOD - 1)),
        five=st.booleans(),
    )
    def start(self, base, five):
        self.now = base
        if five:
            self.pins = [Pin(value=1) for _ in range(5)]
            self.pad = pads.five_way(*self.pins, chords=(B.chord_id(B.UP, B.SELECT),))
        else:
            self.pins = [Pin(value=1) for _ in range(3)]
            self.pad = pads.three_buttons(*self.pins)
        self.names = [b.name for b in self.pad.buttons]
        self.open = {}  # name -> the hold the game has seen start: {"long": n, "claimed": bool}
        self.maybe_muted = set()
        self.last = None  # the previous event delivered
        self.last_clean = False  # whether that event was the RELEASE of an unclaimed hold

    # -- what the player and the clock do ------------------------------------------------------

    @rule(i=st.integers(0, 4), level=st.integers(0, 1))
    def set_pin(self, i, level):
        self.pins[i % len(self.pins)].level = level

    @rule(dt=st.one_of(st.integers(0, 40), st.integers(0, 2000), st.integers(0, 1 << 28)))
    def advance(self, dt):
        self.now = B.ticks_add(self.now, dt)

    @rule(
        steps=st.lists(
            st.tuples(st.integers(0, 4), st.integers(0, 1), st.integers(0, 50)), max_size=40
        )
    )
    def mash_while_the_game_is_busy(self, steps):
        """Many changes sampled while nobody takes events: the queue fills up."""
        for i, level, dt in steps:
            self.pins[i % len(self.pins)].level = level
            self.now = B.ticks_add(self.now, dt)
            self.pad.feed(self.pad.read(), self.now)

    # -- what the game does --------------------------------------------------------------------

    @rule()
    def poll(self):
        self.deliver(self.pad.poll(self.now))

    @rule()
    def feed_without_taking(self):
        self.pad.feed(self.pad.read(), self.now)

    @rule()
    def drain(self):
        ev = self.pad.get()
        while ev is not None:
            self.deliver(ev)
            ev = self.pad.get()

    @rule()
    def reset(self):
        self.pad.reset(self.now)
        self.open = {}
        self.maybe_muted = {b.name for b in self.pad.buttons if b.pressed()}
        self.last = None

    @rule()
    def pins_still_then_poll(self):
        """Pins unchanged for the debounce time: the game's view must then match the pins."""
        self.drain()
        for dt in (0, DEBOUNCE, 1):
            self.now = B.ticks_add(self.now, dt)
            self.poll()
            self.drain()
        for b in self.pad.buttons:
            if not b.pressed():
                assert b.name not in self.open, "button %d stuck down" % b.name
                self.maybe_muted.discard(b.name)
            elif b.name not in self.maybe_muted:
                assert b.name in self.open, "press of button %d lost" % b.name

    # -- the rules events obey -----------------------------------------------------------------

    def deliver(self, ev):
        if ev is None:
            return
        assert ev > 0
        name, kind = B.button_of(ev), B.kind_of(ev)
        clean = False
        if kind == B.CHORD:
            members = [n for n in self.names if (name >> n) & 1]
            assert name in self.pad.chords and len(members) == 2
            for n in members:
                hold = self.open[n]  # both are held, as the game knows them
                assert not hold["claimed"] and not hold["long"] and not hold["repeat"]
                hold["claimed"] = True
        elif kind == B.PRESS:
            assert name not in self.open, "PRESS twice"
            self.open[name] = {"long": 0, "repeat": 0, "claimed": False}
            self.maybe_muted.discard(name)
        elif kind == B.RELEASE:
            hold = self.open.pop(name)  # KeyError: RELEASE without PRESS
            clean = not (hold["claimed"] or hold["long"] or hold["repeat"])
        elif kind == B.CLICK:
            assert self.last == B.event(name, B.RELEASE) and self.last_clean
        elif kind == B.LONG:
            hold = self.open[name]
            assert name == B.SELECT and not hold["claimed"] and not hold["long"]
            hold["long"] += 1
        elif kind == B.REPEAT:
            hold = self.open[name]
            assert name != B.SELECT and not hold["claimed"]
            hold["repeat"] += 1
        else:
            raise AssertionError("unknown kind %d" % kind)
        self.last = ev
        self.last_clean = clean

    @invariant()
    def queue_bounded(self):
        if hasattr(self, "pad"):
            assert 0 <= self.pad._count <= 16


PadMachine.TestCase.settings = settings(max_examples=80, stateful_step_count=50, deadline=None)
TestPadMachine = PadMachine.TestCase
