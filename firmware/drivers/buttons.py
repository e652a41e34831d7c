# Debounced, polled push buttons: press/release/click/long/repeat/chord events as small ints.
# SPDX-License-Identifier: MIT
"""Each event is a small int, ``event(button, kind)`` (never 0), split by ``button_of`` and
``kind_of``; ``poll()`` leaves no garbage. Per hold of one button, in order:

- ``PRESS`` on the down edge, at once.
- ``REPEAT`` after ``repeat_delay_ms``, then every ``repeat_ms`` while held (``repeat=True``).
- ``LONG`` once, ``long_ms`` after the press, if still held (``long_press=True``).
- ``RELEASE`` on the up edge, one per PRESS (unless ``reset()`` ends the hold); then ``CLICK``
  if the hold gave no LONG, REPEAT or CHORD. Held at start-up or ``reset()``: silent till let go.
- ``CHORD`` when a button goes down while exactly one other is held, pressed at most
  ``chord_ms`` before with no LONG, REPEAT or CHORD yet, and the pair is in the pad's ``chords``.
  Its button is ``chord_id(a, b)`` (``PREV_NEXT``...); both holds then give no CLICK/LONG/REPEAT.

A hold thus reads as at most one of CLICK, CHORD, LONG and/or REPEATs. Act on CLICK for a
button that also has a LONG meaning; on PRESS + REPEAT for instant cursor moves (PREV+NEXT
then moves there and back before its CHORD), or on CLICK + REPEAT if a chord must not move.

Debounce: an accepted edge starts a ``debounce_ms`` window in which the level is ignored (a
shorter tap is still one whole press). Polls see levels: a press that starts and ends between
two polls is not seen, times count from the poll that saw the edge, and a late poll drops
missed REPEATs rather than bursting. Poll at least every 2**29 ms (6 days).
"""

from array import array
from time import ticks_add, ticks_diff

from micropython import const
from valid import int_in

# Event kinds (the low 3 bits of an event).
PRESS = const(1)
RELEASE = const(2)
LONG = const(3)
REPEAT = const(4)
CHORD = const(5)
CLICK = const(6)

# Button names (what reaches the game; pins stay in the board file).
SELECT = const(0)
PREV = const(1)
NEXT = const(2)
UP = const(3)
DOWN = const(4)
LEFT = const(5)
RIGHT = const(6)

PREV_NEXT = const(6)  # chord_id(PREV, NEXT)

_MAX_NAME = const(7)
_QLEN = const(16)  # events queued; a power of two (index & (_QLEN - 1))
_ROOM = const(2)  # most events one button adds in one sample (PRESS+CHORD, RELEASE+CLICK, ...)
# What a hold may still give (Button._due), as bits 1 << kind: a CHORD bit means the button may
# still start or join a chord.
_LONG_DUE = const(1 << LONG)
_REPEAT_DUE = const(1 << REPEAT)
_CLICK_DUE = const(1 << CLICK)
_CHORD_DUE = const(1 << CHORD)


def button_of(ev):
    """The button name of an event (for a CHORD event: the chord id)."""
    return ev >> 3


def kind_of(ev):
    """The event kind: PRESS, RELEASE, LONG, REPEAT, CHORD or CLICK."""
    return ev & 7


def event(button, kind):
    """The event int for button (or chord id) and kind, e.g. to compare against."""
    return (button << 3) | kind


def direction(button):
    """The way `button` moves through a list (rows, cells, choices): -1 back for PREV, UP and
    LEFT, +1 on for the others (NEXT, DOWN, RIGHT)."""
    return -1 if button == PREV or button == UP or button == LEFT else 1


def chord_id(a, b):
    """The id of the chord of buttons a and b (a bit mask of the two names)."""
    if a == b or not (0 <= a <= _MAX_NAME and 0 <= b <= _MAX_NAME):
        raise ValueError("a chord is two different button names 0..7")
    return (1 << a) | (1 << b)


class Button:
    """One push button on a configured pin (anything with ``.value()``). ``pressed_level`` is
    its level while pressed: 0 for a button to ground with a pull-up (not read at start-up, as
    a button may be held at power-on). ``long_press`` and ``repeat`` switch those behaviours on
    or off; ``press``, ``release`` and ``click`` only hide those events."""

    def __init__(
        self,
        pin,
        name,
        pressed_level=0,
        long_press=True,
        repeat=False,
        press=True,
        release=True,
        click=True,
    ):
        self.name = int_in("button name", name, 0, _MAX_NAME)
        self.pin = pin
        self.pressed_level = int_in("pressed_level", pressed_level, 0, 1)  # 0: active low
        # The kinds this button gives, as bits 1 << kind; long_press and repeat are kept only
        # here. Each attribute is a slot in the instance's table, which grows 12 -> 17 slots
        # at the 13th (py/map.c): a Button keeps to 11, 48 B less per button.
        kinds = bool(press) << PRESS | bool(release) << RELEASE | bool(click) << CLICK
        self._kinds = kinds | bool(long_press) << LONG | bool(repeat) << REPEAT

    def _begin(self, now_ms, settle):
        # All the hold state, set before the first poll so the poll only rebinds ints and bools.
        self._down = self._mute = self.pressed()  # debounced level; held now: mute till let go
        self._settle = settle  # inside the debounce window that started at _t_edge
        self._t_edge = self._t_down = self._t_rep = now_ms  # last edge, press seen, REPEAT due
        self._due = 0  # still to come in this hold (bits _LONG_DUE ...): LONG, REPEATs, ...

    def pressed(self):
        """True if the pin is at its pressed level right now (raw, not debounced)."""
        return self.pin.value() == self.pressed_level


class Pad:
    """Buttons polled together. ``poll(now_ms)`` is ``feed(read(), now_ms)`` then ``get()``.
    Events wait in a ring of 16; when it is nearly full a button's sample is deferred to a later
    poll rather than an event dropped, so no PRESS is lost and no RELEASE goes missing."""

    def __init__(
        self,
        buttons,
        debounce_ms=30,
        long_ms=600,
        repeat_delay_ms=400,
        repeat_ms=120,
        chords=(),
        chord_ms=100,
    ):
        self.buttons = buttons = tuple(buttons)
        if not buttons:
            raise ValueError("a Pad needs at least one Button")
        names = 0
        for b in buttons:
            if not isinstance(b, Button):
                raise ValueError("Pad takes Button objects, not %r" % (b,))
            if names & (1 << b.name):
                raise ValueError("two buttons are named %d; names must differ" % b.name)
            names |= 1 << b.name
        self.debounce_ms = int_in("debounce_ms", debounce_ms, 0, 1000)
        self.long_ms = int_in("long_ms", long_ms, 1, 60000)
        self.repeat_delay_ms = int_in("repeat_delay_ms", repeat_delay_ms, 1, 60000)
        self.repeat_ms = int_in("repeat_ms", repeat_ms, 1, 60000)
        self.chord_ms = int_in("chord_ms", chord_ms, 0, 1000)
        self.chords = tuple(chords)
        for c in self.chords:
            if not isinstance(c, int) or c & ~names or bin(c).count("1") != 2:
                raise ValueError("chord %r is not chord_id() of two of this pad's buttons" % (c,))
        self._queue = array("H", bytes(2 * _QLEN))
        self._start(0, False)

    def _start(self, now_ms, settle):
        self._head = self._count = 0
        for b in self.buttons:
            b._begin(now_ms, settle)

    def reset(self, now_ms):
        """Forget queued events and end every hold silently (no RELEASE follows): treat all
        buttons as up. Held ones stay silent until let go; debounce windows start at now_ms."""
        self._start(now_ms, True)

    def any_pressed(self):
        """True if any button's pin is at its pressed level right now (raw, not debounced)."""
        return self.read() != 0

    def read(self):
        """The pins now, as a mask for feed(): bit (1 << name) set for each pressed button."""
        mask = 0
        for b in self.buttons:
            if b.pin.value() == b.pressed_level:
                mask |= 1 << b.name
        return mask

    def poll(self, now_ms):
        """Sample every button at now_ms (ticks_ms()) and return the next event, or None."""
        self.feed(self.read(), now_ms)
        return self.get()

    def get(self):
        """The oldest queued event, or None."""
        if not self._count:
            return None
        ev = self._queue[self._head]
        self._head = (self._head + 1) & (_QLEN - 1)
        self._count -= 1
        return ev

    def feed(self, down_mask, now_ms):
        """The pure core: one sample of every button (bit 1 << name = pressed) at now_ms."""
        for b in self.buttons:
            down = (down_mask >> b.name) & 1 == 1
            # Up, was up, not settling: nothing can happen (the common case, kept cheap).
            if (down or b._down or b._settle) and _QLEN - self._count >= _ROOM:
                self._step(b, down, now_ms)

    def _put(self, ev):
        self._queue[(self._head + self._count) & (_QLEN - 1)] = ev
        self._count += 1

    def _emit(self, b, kind):
        if b._kinds & (1 << kind):
            self._put(event(b.name, kind))

    def _step(self, b, down, now):
        b._settle = b._settle and ticks_diff(now, b._t_edge) < self.debounce_ms
        if down != b._down and not b._settle:
            b._down = down
            b._t_edge = now
            b._settle = self.debounce_ms > 0
            if b._mute:
                b._mute = False  # the release of a button held since start-up: silent
            elif down:
                self._press(b, now)
            else:
                self._emit(b, RELEASE)
                if b._due & _CLICK_DUE:
                    self._emit(b, CLICK)
                b._due = 0
            return
        if not b._down or b._mute:
            return
        if b._due & _CHORD_DUE and ticks_diff(now, b._t_down) > self.chord_ms:
            b._due &= ~_CHORD_DUE
        if b._due & _LONG_DUE and ticks_diff(now, b._t_down) >= self.long_ms:
            b._due &= ~(_LONG_DUE | _CLICK_DUE | _CHORD_DUE)
            self._emit(b, LONG)
        if b._due & _REPEAT_DUE:
            late = ticks_diff(now, b._t_rep)
            if late >= 0:
                # Next repeat on the grid after now: a late poll drops repeats, never bursts.
                b._t_rep = ticks_add(b._t_rep, (late // self.repeat_ms + 1) * self.repeat_ms)
                b._due &= ~(_CLICK_DUE | _CHORD_DUE)
                self._emit(b, REPEAT)

    def _press(self, b, now):
        b._t_down = now
        # LONG and REPEATs if the button gives them; a CLICK and a chord until something else.
        b._due = b._kinds & (_LONG_DUE | _REPEAT_DUE) | _CLICK_DUE | _CHORD_DUE
        b._t_rep = ticks_add(now, self.repeat_delay_ms)
        self._emit(b, PRESS)
        held, other = 0, b  # how many others are held, and the last of them
        for a in self.buttons:
            if a is not b and a._down and not a._mute:
                held += 1
                other = a
        if (
            held != 1
            or not other._due & _CHORD_DUE
            or ticks_diff(now, other._t_down) > self.chord_ms
        ):
            return
        chord = (1 << other.name) | (1 << b.name)
        if chord in self.chords:
            b._due = other._due = 0  # both holds are the chord's: nothing more of their own
            self._put(event(chord, CHORD))
