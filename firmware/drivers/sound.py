# The buzzer: short note tables played by the app's loop on a passive piezo, never blocking.
# SPDX-License-Identifier: MIT
# Imported by a board file that has a buzzer: a board without one never holds this in RAM.
import time

from micropython import const

_HALF = const(32768)  # duty_u16 50 %: a square wave, the loudest one pin gives a piezo

# The sounds, by the names the screens ask for them by (screen.Shared.sound): (frequency Hz,
# duration ms) pairs, 0 Hz a rest. A piezo disc is loudest near its resonance, about 2-4 kHz:
# the ticks sit there, the jingles span 1.3-4.2 kHz. Each lasts at most about 1 s. Note names in
# the comments (A4 = 440 Hz).
# Name, notes, name, notes... in one flat tuple: one object less per sound than pairs, on a
# port that loads it into RAM with the code (.mpy on the filesystem).
_SOUNDS = const(
    (
        "MOVE",
        (3200, 6),  # cursor or menu highlight moved: the shortest tick
        "PLACE",
        (2093, 25, 3136, 35),  # your mark (or a menu choice): C7 up to G7
        "CPU",
        (3520, 25, 2637, 35),  # the CPU's mark: A7 down to E7
        "HINT",
        (2093, 20, 2637, 20, 3136, 20, 4186, 40),  # a chirp up: C7 E7 G7 C8
        "ERROR",
        (1319, 80, 0, 40, 1319, 160),  # refused (NO UNDO): low E6 twice
        "WIN",
        (2093, 100, 2637, 100, 3136, 100, 4186, 100, 0, 40, 3136, 90, 4186, 330),  # fanfare
        "LOSS",
        (2349, 180, 2217, 180, 2093, 180, 1976, 420),  # D7 C#7 C7 B6: the sad trombone
        "DRAW",
        (2637, 110, 2349, 110, 2637, 160),  # E7 D7 E7: a shrug
        "CHIME",
        (1568, 70, 2093, 70, 3136, 220),  # power-on: G6 C7 G7
    )
)


def table(name):
    """The notes of the sound called `name`; ValueError naming the sounds there are if none is
    called so. Allocates nothing when it finds it."""
    for i in range(0, len(_SOUNDS), 2):
        if _SOUNDS[i] == name:
            return _SOUNDS[i + 1]
    raise ValueError("no sound %r; there are %s" % (name, ", ".join(_SOUNDS[::2])))


class Sound:
    """Plays the tables above on `pwm`, a machine.PWM the board set up silent (duty 0) on a
    passive piezo.

    play(name) starts the table called `name` at the next step(), cutting whatever played, except
    PLACE, which is heard whole: a sound asked for while it plays (the jingle of the result
    your mark made) starts when it ends, one at a time, the last asked for. step(now), called
    by every loop step, moves to the next note when one ends (a step that comes late skips the
    notes whose time has passed, so a sound never outlasts its table). Neither allocates.

    `deinit`: stop() also calls pwm.deinit(), for a port whose PWM needs it to leave the pin
    low at once (the board file knows its port); the next tone starts the PWM again with
    init()."""

    def __init__(self, pwm, deinit=False):
        self._pwm = pwm
        self._deinit = deinit
        self._notes = None  # the table playing, None when silent
        self._next = None  # the notes of the sound waiting for PLACE to end
        self._i = 0  # index of the note playing in it (its frequency; the duration follows)
        self._end = time.ticks_ms()  # when that note ends (ticks_ms)
        self._asked = False  # a sound was asked for: it starts at the next step()
        self._on = False  # a tone is sounding (duty > 0)
        self._live = True  # the PWM is set up (False once stop() has deinit() it)

    def play(self, name):
        """Start the table called `name` (MOVE, WIN, ...) at the next step(); if PLACE is
        playing, when it ends. The App steps the buzzer once a step's work and frame are done,
        so a sound starts with what it goes with, however long the step spent on a search or a
        frame."""
        notes = table(name)
        if self._notes is table("PLACE"):
            self._next = notes
            return
        self._next = None
        self._notes = notes
        self._i = -2
        self._asked = True

    def playing(self):
        """True while a sound plays or waits for its first step()."""
        return self._notes is not None

    def step(self, now):
        """Advance to `now`; return the ms until the next note begins (0: nothing plays)."""
        notes = self._notes
        if self._asked:
            self._asked = False
            self._end = now  # the sound asked for starts now
        while notes is not None:
            left = time.ticks_diff(self._end, now)
            if left > 0:
                return left
            i = self._i + 2
            hz = 0
            if i >= len(notes):
                notes = self._next
                if notes is not None:  # the next sound begins where this one ends
                    self._next = None
                    self._notes = notes
                    self._i = -2
                    continue
                self._notes = None  # done: silence
            else:
                self._i = i
                self._end = time.ticks_add(self._end, notes[i + 1])
                if time.ticks_diff(self._end, now) <= 0:
                    continue  # its time has passed: skipped
                hz = notes[i]
            pwm = self._pwm
            if not hz:
                if self._on:
                    pwm.duty_u16(0)
                    self._on = False
            elif not self._live:
                pwm.init(freq=hz, duty_u16=_HALF)
                self._live = self._on = True
            else:
                pwm.freq(hz)  # both ports keep the duty across a change of frequency
                if not self._on:
                    pwm.duty_u16(_HALF)
                    self._on = True
        return 0

    def stop(self):
        """Silence now, and release the PWM where the board asked (deinit): before light sleep,
        at the error screen, in safe mode. Nothing is left sounding."""
        self._notes = self._next = None
        if self._on:
            self._pwm.duty_u16(0)
            self._on = False
        if self._deinit and self._live:
            self._pwm.deinit()
            self._live = False
