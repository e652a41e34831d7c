# The MicroPython half of bench_loop.py: what one loop step takes from the heap on each screen.
# Argument: a folder for the settings file. Prints one line per case:
#   STEP <screen> <what> <steps> <moves> <garbage bytes> <transient bytes>
# with the collector off: garbage is what gc.mem_alloc() gained over the steps (left behind),
# transient what micropython.mem_total() gained beyond that (taken and freed at once: call
# frames over 11 words, py/objfun.c fun_bc_call, VM_MAX_STATE_ON_STACK).
# SPDX-License-Identifier: MIT

from appheap import heap_over
from buttons import NEXT, SELECT
from hostapp import HostApp

STEPS = 500  # 5 s of 10 ms steps; a button goes down every 20th step, up 10 steps later


def report(screen, r, button):
    # The case's line: garbage and transient bytes over STEPS steps (appheap.heap_over).
    garbage, transient = heap_over(r, STEPS, button)
    moves = 0 if button is None else (STEPS + 19) // 20
    what = "idle" if button is None else "move"
    print("STEP %s %s %d %d %d %d" % (screen, what, STEPS, moves, garbage, transient))


def title():
    r = HostApp(alone=True)
    r.run(50)
    return r


def menu():
    r = title()
    r.click(SELECT)
    return r


def game():
    r = menu()
    r.click(SELECT)  # "1P vs CPU": the player (X) starts
    r.run(50)
    return r


def settings():
    r = menu()
    for _ in range(4):
        r.click(NEXT)
    r.click(SELECT)  # "Settings"
    return r


def demo():
    r = title()
    r.run(r.app.demo_after_ms + 100)
    return r


report("title", title(), None)
report("demo", demo(), None)
for screen, make in (("menu", menu), ("game", game), ("settings", settings)):
    report(screen, make(), None)
    report(screen, make(), NEXT)
