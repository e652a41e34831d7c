# Debounced, polled push buttons: press/release/click/long/repeat/chord events as small ints.
# SPDX-License-Identifier: MIT
"""Polled push buttons with a time-based debounce and a pure, allocation-free core.

An event is one small int, ``(button << 3) | kind``; ``button_of(ev)`` and ``kind_of(ev)``
take it apart. Events are never 0. Per hold of one button, in order:

- ``PRESS``   on the down edge, at once (the first edge is acted on immediately).
- ``REPEAT``  after ``repeat_delay_ms``, then every ``repeat_ms`` while held (``repeat=True``).
- ``LONG``    once, ``long_ms`` after the press, if still held (``long_press=True``).
- ``RELEASE`` on the up edge. Every PRESS gets exactly one RELEASE (unless ``reset()`` ends the
  hold), and no RELEASE comes without its PRESS (a button held at start-up or at ``reset()`` is
  silent until it is let go).
- ``CLICK``   right after RELEASE, when the hold produced no LONG, REPEAT or CHORD: a short
  press that nothing else claimed.
- ``CHORD``   when a second button goes down while exactly one other is held, within
  ``chord_ms`` of that one's press, and the pair is one of the pad's ``chords``. The event's
  "button" is the chord id ``chord_id(a, b) = (1 << a) | (1 << b)`` (``PREV_NEXT`` = 6). Both
  buttons still get PRESS and RELEASE, but no CLICK, LONG or REPEAT for the rest of that hold.

How a game should act: PRESS/RELEASE are the physical truth; CLICK, CHORD and LONG/REPEAT are
alternative readings of one hold (a hold gives at most one of: CLICK, CHORD, LONG and/or
REPEATs). Act on CLICK for a button that also has a LONG meaning
(SELECT: CLICK = place, LONG = hint; a long press never places). Act on PRESS + REPEAT for
instant cursor movement (a PREV+NEXT chord then moves back and forth, net zero, before CHORD),
or on CLICK + REPEAT if chords must not move the cursor at all.

Debounce: an accepted edge starts a window of ``debounce_ms`` in which the level is not looked at;
the next change after the window is accepted at once. A tap shorter than the window is still one
whole press (its RELEASE comes when the window ends). A poll only sees levels: a press that
starts and ends between two polls is not seen at all (never half-seen), a press still held when
a late poll comes is seen then, and times (LONG, REPEAT) count from the poll that saw the edge.
Late polls never produce a burst of REPEATs: missed repeats are dropped. Call ``poll()`` at least
every 2**29 ms (6 days); a main loop polls every few ms.
"""

from array import array

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


try:
    from time import ticks_add, ticks_diff
except ImportError:
    # CPython (host tests): MicroPython's tick arithmetic, wrapping at 2**30 as on the boards.
    def ticks_add(ticks, delta):
        return (ticks + delta) & 0x3FFFFFFF

    def ticks_diff(end, start):
        return ((end - start + 0x20000000) & 0x3FFFFFFF) - 0x20000000


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

BUTTON_NAMES = ("select", "prev", "next", "up", "down", "left", "right", "extra")
KIND_NAMES = ("", "press", "release", "long", "repeat", "chord", "click")

_MAX_NAME = const(7)
_QLEN = const(16)  # events queued; a power of two (index & (_QLEN - 1))
_ROOM = const(2)  # most events one button adds in one sample (PRESS+CHORD, RELEASE+CLICK, ...)


def button_of(ev):
    """The button name of an event (for a CHORD event: the chord id)."""
    return ev >> 3


def kind_of(ev):
    """The event kind: PRESS, RELEASE, LONG, REPEAT, CHORD or CLICK."""
    return ev & 7


def event(button, kind):
    """The event int for button (or chord id) and kind, e.g. to compare against."""
    return (button << 3) | kind


def chord_id(a, b):
    """The id of the chord of buttons a and b (a bit mask of the two names)."""
    if a == b or not (0 <= a <= _MAX_NAME and 0 <= b <= _MAX_NAME):
        raise ValueError("a chord is two different button names 0..7")
    return (1 << a) | (1 << b)


def _check_int(name, value, low, high):
    if not isinstance(value, int) or not low <= value <= high:
        raise ValueError("%s must be an int %d..%d, not %r" % (name, low, high, value))


class Button:
    """One push button on an already configured pin (anything with ``.value()``).

    ``pressed_level`` is the pin level while pressed: 0 (default) for a button to ground with a
    pull-up. It is a parameter rather than read at start-up because a button may be held at
    power-on (safe mode), which would invert it. ``long_press``, ``repeat``, ``press``,
    ``release`` and ``click`` switch those events on or off for this button; the state machine
    runs the same either way.
    """

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
        _check_int("button name", name, 0, _MAX_NAME)
        if pressed_level not in (0, 1):
            raise ValueError("pressed_level must be 0 (active low) or 1, not %r" % pressed_level)
        self.pin = pin
        self.name = name
        self.pressed_level = pressed_level
        self.long_press = bool(long_press)
        self.repeat = bool(repeat)
        kinds = 0
        for on, kind in (
            (press, PRESS),
            (release, RELEASE),
            (long_press, LONG),
            (repeat, REPEAT),
            (click, CLICK),
        ):
            if on:
                kinds |= 1 << kind
        self._kinds = kinds
        # Debounced state of this hold. Every attribute exists from here on, so the poll only
        # rebinds small ints and bools (no allocation).
        self._down = False  # debounced level: pressed
        self._mute = False  # held since start-up/reset: no events until released
        self._settle = False  # inside the debounce window that started at _t_edge
        self._t_edge = 0
        self._t_down = 0  # when the poll saw the press
        self._t_rep = 0  # when the next REPEAT is due
        self._long = False  # LONG still to come in this hold
        self._rep = False  # REPEATs running in this hold
        self._click = False  # CLICK still possible (no LONG/REPEAT/CHORD yet)
        self._chordable = False  # may still become half of a chord

    def pressed(self):
        """True if the pin is at its pressed level right now (raw, not debounced)."""
        return self.pin.value() == self.pressed_level


class Pad:
    """A group of buttons polled together; ``poll(now_ms)`` returns the next event or None.

    The core is ``feed(down_mask, now_ms)`` (bit ``1 << name`` set for each pressed button) plus
    ``get()``; ``poll`` is ``feed(pins read now)`` then ``get()``. Events wait in a ring of 16;
    when it is nearly full, a button's sample is deferred to a later poll instead of dropping an
    event, so a press is never lost and its RELEASE never missing.
    """

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
        buttons = tuple(buttons)
        if not buttons:
            raise ValueError("a Pad needs at least one Button")
        names = 0
        for b in buttons:
            if not isinstance(b, Button):
                raise ValueError("Pad takes Button objects, not %r" % (b,))
            if names & (1 << b.name):
                raise ValueError("two buttons are named %d; names must differ" % b.name)
            names |= 1 << b.name
        _check_int("debounce_ms", debounce_ms, 0, 1000)
        _check_int("long_ms", long_ms, 1, 60000)
        _check_int("repeat_delay_ms", repeat_delay_ms, 1, 60000)
        _check_int("repeat_ms", repeat_ms, 1, 60000)
        _check_int("chord_ms", chord_ms, 0, 1000)
        chords = tuple(chords)
        for c in chords:
            if not isinstance(c, int) or c & ~names or _bits(c) != 2:
                raise ValueError("chord %r is not chord_id() of two of this pad's buttons" % (c,))
        self.buttons = buttons
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.chords = chords
        self.chord_ms = chord_ms
        self._queue = array("H", bytes(2 * _QLEN))
        self._head = 0
        self._count = 0
        self._start(0, False)

    def _start(self, now_ms, settle):
        self._head = 0
        self._count = 0
        for b in self.buttons:
            down = b.pressed()
            b._down = down
            b._mute = down
            b._settle = settle
            b._t_edge = now_ms
            b._long = b._rep = b._click = b._chordable = False

    def reset(self, now_ms):
        """Forget queued events and state; buttons held now are not new presses.

        Every hold ends silently: afterwards the game should treat all buttons as up (a PRESS
        it already got gets no RELEASE). A button held now stays silent until it is let go.
        A debounce window starts at now_ms for every button (one just let go may bounce).
        """
        self._start(now_ms, True)

    def any_pressed(self):
        """True if any button's pin is at its pressed level right now (raw, not debounced)."""
        for b in self.buttons:
            if b.pressed():
                return True
        return False

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
            self._put((b.name << 3) | kind)

    def _step(self, b, down, now):
        if b._settle and ticks_diff(now, b._t_edge) >= self.debounce_ms:
            b._settle = False
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
                if b._click:
                    self._emit(b, CLICK)
                b._long = b._rep = b._click = b._chordable = False
            return
        if not b._down or b._mute:
            return
        if b._chordable and ticks_diff(now, b._t_down) > self.chord_ms:
            b._chordable = False
        if b._long and ticks_diff(now, b._t_down) >= self.long_ms:
            b._long = b._click = b._chordable = False
            self._emit(b, LONG)
        if b._rep:
            late = ticks_diff(now, b._t_rep)
            if late >= 0:
                # Next repeat on the grid after now: a late poll drops repeats, never bursts.
                b._t_rep = ticks_add(b._t_rep, (late // self.repeat_ms + 1) * self.repeat_ms)
                b._click = b._chordable = False
                self._emit(b, REPEAT)

    def _press(self, b, now):
        b._t_down = now
        b._long = b.long_press
        b._rep = b.repeat
        b._t_rep = ticks_add(now, self.repeat_delay_ms)
        b._click = b._chordable = True
        self._emit(b, PRESS)
        if not self.chords:
            return
        other = b  # the one other held button, if there is exactly one
        held = 0
        for a in self.buttons:
            if a is not b and a._down and not a._mute:
                held += 1
                other = a
        if held != 1 or not other._chordable or ticks_diff(now, other._t_down) > self.chord_ms:
            return
        chord = (1 << other.name) | (1 << b.name)
        if chord in self.chords:
            for a in self.buttons:
                if a is b or a is other:
                    a._long = a._rep = a._click = a._chordable = False
            self._put((chord << 3) | CHORD)


def _bits(n):
    count = 0
    while n:
        count += n & 1
        n >>= 1
    return count


def three_buttons(prev_pin, next_pin, select_pin, pressed_level=0, **options):
    """PREV/NEXT (auto-repeat, no long press), SELECT (long press) and the PREV+NEXT chord.

    options go to Pad (debounce_ms, long_ms, ...).
    """
    if "chords" not in options:
        options["chords"] = (PREV_NEXT,)
    return Pad(
        (
            Button(prev_pin, PREV, pressed_level, long_press=False, repeat=True),
            Button(next_pin, NEXT, pressed_level, long_press=False, repeat=True),
            Button(select_pin, SELECT, pressed_level, long_press=True),
        ),
        **options,
    )


def five_way(up, down, left, right, select, pressed_level=0, **options):
    """Four directions (auto-repeat, no long press) and SELECT (long press); no chords.

    A 5-way switch cannot press opposite directions together, so no chord is set up; pass
    chords=(chord_id(...),) to add one. options go to Pad.
    """
    return Pad(
        (
            Button(up, UP, pressed_level, long_press=False, repeat=True),
            Button(down, DOWN, pressed_level, long_press=False, repeat=True),
            Button(left, LEFT, pressed_level, long_press=False, repeat=True),
            Button(right, RIGHT, pressed_level, long_press=False, repeat=True),
            Button(select, SELECT, pressed_level, long_press=True),
        ),
        **options,
    )
