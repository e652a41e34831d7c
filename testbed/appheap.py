# What the App leaves on the heap as it steps: garbage, and what it takes and frees.
# SPDX-License-Identifier: MIT
import gc
import time

import machine
import micropython


def heap_over(h, steps, button=None):
    """(garbage, transient): the bytes that `steps` App steps, 10 ms apart, leave on the
    heap with the collector off, and those they took and freed; `button` (or None) goes
    down every 20th step and up 10 steps later (a move and its frame). A call frame over
    11 words is taken from the heap and freed on return (py/objfun.c,
    VM_MAX_STATE_ON_STACK): transient, not garbage, and gc.mem_alloc() does not count it;
    micropython.mem_total() does."""
    app, bus = h.app, machine.BUS
    start = h.clock.now
    now = time.ticks_ms()
    garbage = taken = 0
    gc.collect()
    gc.disable()
    for n in range(steps):
        if button is not None and n % 20 == 0:
            h.down(button)  # the stand-ins' own allocations are not the App's
        elif button is not None and n % 20 == 10:
            h.up(button)
        before, total = gc.mem_alloc(), micropython.mem_total()
        app.step(now)
        garbage += gc.mem_alloc() - before
        taken += micropython.mem_total() - total
        bus.clear()  # the stand-in's recording of the frames: its buffer is reused
        now = time.ticks_add(now, 10)
    gc.enable()
    h.clock.step_to(start + 10 * steps)
    return garbage, taken - garbage
