"""What each loop step takes from the heap, per screen: garbage and transient bytes.

Run by `make bench` (bench_loop_mp.py is its MicroPython half): the App alone on the test bed
(testbed/hostapp.py), the firmware precompiled by mpy-cross, stepped every 10 ms with the
collector off, idle and with a cursor move (a NEXT press, and its frame) every 20 steps, on the
title, the demo, the main menu, a game against the CPU (the player to move) and the settings.

- garbage: what gc.mem_alloc() gained over the steps, left for the collector (0 is the goal).
- transient: what micropython.mem_total() gained beyond that: heap taken and freed at once, the
  call frames over 11 words (py/objfun.c fun_bc_call, VM_MAX_STATE_ON_STACK; a frame is its
  n_state words and its exception stack, from the bytecode's prelude). micropython.heap_lock()
  cannot see these: a locked heap sends such a frame to the C stack instead.

The unix port is 64-bit: a frame word is 8 bytes, 4 on a Pico, so a board's figures are about
half of these."""

import sys

import benchkit
from benchkit import BENCH


def main():
    output = benchkit.run_app("bench_loop", BENCH / "bench_loop_mp.py", "512k")
    if output is None:
        return 0
    print("== bench_loop: heap per loop step (unix port, 64-bit; collector off, 10 ms steps) ==")
    print("  screen    case           garbage/step  transient/step  transient/move")
    for line in output.splitlines():
        parts = line.split()
        if parts[:1] != ["STEP"]:
            continue
        screen, what = parts[1], parts[2]
        steps, moves, garbage, transient = (int(v) for v in parts[3:])
        case = "idle" if what == "idle" else "move+frame"
        per_move = "%8d B" % (transient // moves) if moves else "%10s" % "-"
        print(
            "  %-9s %-13s %10.1f B %13.1f B  %s"
            % (screen, case, garbage / steps, transient / steps, per_move)
        )
    print(
        "  (a move's figures include the idle steps around it; the demo's include its moves"
        " and their searches)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
