# What the buzzer's pin played, read back as sounds: for the MicroPython checks of sound.py
# (mp_sound.py, the tables on the host board's PWM; mp_sound_app.py, the firmware on a board).
# SPDX-License-Identifier: MIT
import time

import sound

NAMES = ("MOVE", "PLACE", "CPU", "HINT", "ERROR", "WIN", "LOSS", "DRAW", "CHIME")
LONGEST_MS = 1000


def heard(pwm, t0=0):
    """What the pin played from ticks t0 on: [(ms after t0, Hz)], Hz 0 for silence, one entry
    per audible change (of several changes within a ms, the last; a new frequency while
    silent is not heard)."""
    out = []
    for ms, hz, duty in pwm.tones():
        ms = time.ticks_diff(ms, t0)
        if ms < 0:
            continue
        hz = hz if 0 < duty < 65535 else 0
        while out and out[-1][0] == ms:
            out.pop()
        if (out[-1][1] if out else 0) != hz:
            out.append((ms, hz))
    return out


def expected(name, start=0):
    """The table `name` as heard() should give it, from `start`: its notes, then silence."""
    table = sound.table(name)
    out = []
    t = start
    for i in range(0, len(table), 2):
        if (out[-1][1] if out else 0) != table[i]:
            out.append((t, table[i]))
        t += table[i + 1]
    out.append((t, 0))
    return out


def sounds_in(h):
    """The sounds in heard(), by name, each matched note for note from where it starts to its
    end (silence there, or the next sound); "?<Hz>@<ms>" where no table matches."""
    names = []
    k = 0
    while k < len(h):
        if h[k][1] == 0:
            k += 1
            continue
        for name in NAMES:
            want = expected(name, h[k][0])
            n = len(want) - 1
            if h[k : k + n] == want[:n] and k + n < len(h) and h[k + n][0] == want[n][0]:
                names.append(name)
                k += n
                break
        else:
            names.append("?%d@%d" % (h[k][1], h[k][0]))
            k += 1
    return names
