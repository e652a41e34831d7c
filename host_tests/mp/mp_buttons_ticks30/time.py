# A stand-in for MicroPython's time module whose ticks wrap at 2**30, as on RP2040 and ESP32.
# SPDX-License-Identifier: MIT
# Only the buttons tests put this directory on MICROPYPATH: the 64-bit unix port's own ticks
# wrap at 2**62, so without it a wrap-around test there would test nothing.
import utime

_MASK = 0x3FFFFFFF
_HALF = 0x20000000


def ticks_add(ticks, delta):
    return (ticks + delta) & _MASK


def ticks_diff(end, start):
    return ((end - start + _HALF) & _MASK) - _HALF


def ticks_ms():
    return utime.ticks_ms() & _MASK


def sleep_ms(ms):
    utime.sleep_ms(ms)
