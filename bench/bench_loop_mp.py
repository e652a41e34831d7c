# The MicroPython half of bench_loop.py: what one loop step takes from the heap on each screen
# (garbage and transient bytes as appheap.heap_over measures them). Argument: a folder for the
# settings file. Prints one line per case: STEP <screen> <what> <steps> <moves> <garbage>
# <transient>.
# SPDX-License-Identifier: MIT

from appheap import heap_over
from buttons import NEXT, SELECT
from hostapp import HostApp

STEPS = 500  # 5 s of 10 ms steps; a button goes down every 20th step, up 10 steps later


DEMO = -1  # as `then`: until the demo starts on its own, and 100 ms into it
# screen, the clicks that reach it from the title, ms to run then, the cases measured there
CASES = (
    ("title", (), 0, (None,)),
    ("demo", (), DEMO, (None,)),
    ("menu", (SELECT,), 0, (None, NEXT)),
    ("game", (SELECT, SELECT), 50, (None, NEXT)),  # "1P vs CPU": the player (X) starts
    ("settings", (SELECT, NEXT, NEXT, NEXT, NEXT, SELECT), 0, (None, NEXT)),
)


def reach(clicks, then):
    # A fresh App alone on the title (50 ms in), driven to the case's screen.
    r = HostApp(alone=True)
    r.run(50)
    for button in clicks:
        r.click(button)
    if then:
        r.run(r.app.demo_after_ms + 100 if then == DEMO else then)
    return r


for screen, clicks, then, buttons in CASES:
    for button in buttons:
        # The case's line: garbage and transient bytes over STEPS steps (appheap.heap_over).
        garbage, transient = heap_over(reach(clicks, then), STEPS, button)
        moves = 0 if button is None else (STEPS + 19) // 20
        what = "idle" if button is None else "move"
        print("STEP %s %s %d %d %d %d" % (screen, what, STEPS, moves, garbage, transient))
