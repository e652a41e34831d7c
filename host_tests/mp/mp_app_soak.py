# Soak: 1,000 complete CPU-against-CPU games through the app (the demo), on a small heap.
# Arguments: GAMES FOLDER. The heap in use after gc.collect() at the end of the first and of
# the last game must be the same, and what the app holds beyond its code stays small.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=160k paths={hostboard} args=1000,{tmp}
# 160k, not the 32k mp_game_soak.py runs in: the whole app's imported code alone takes about
# 51 KB of heap on this 64-bit port (49 KB on a 32-bit one, the webassembly port), the test bed
# (a HostApp, the fake machine, the board file) about 54 KB, and the game beside them stays near
# 8 KB (checked below 24 KB). Frozen modules would keep the code in flash.
import gc
import sys
import time

import app
import demo
import hostapp
import mptest
import settings
from mptest import check

APP_HOLDS = 24 * 1024  # most heap the app's own objects may take (its live game ~6 KB)


def test_soak_thousand_games_heap_flat():
    games = int(sys.argv[1])
    # The Pico, silent, its LCD's bytes dropped, on the real clock (the soak steps it itself).
    r = hostapp.HostApp(flash=None, glass=False, clock=time.RealClock())
    gc.collect()
    code = gc.mem_alloc()  # the firmware modules and the test bed, imported above
    hw = r.hardware()  # no button is ever pressed
    s = settings.Settings.load(sys.argv[2] + "/settings.json")
    s.set("dim_s", 0)  # never dim or sleep: the demo runs on
    s.set("sleep_s", 0)
    a = app.App(hw, s)
    a.demo_after_ms = 0
    demo.Demo.move_ms = 0  # the demo is made from this module when it starts: its class's pace
    demo.Demo.end_ms = 0
    now = 0
    done = 0
    first = 0
    peak = 0
    while done < games:
        a.step(now)
        now += 10
        tally = a.screen.tally if isinstance(a.screen, demo.Demo) else (0, 0, 0)
        n = tally[0] + tally[1] + tally[2]
        if n != done:
            done = n
            gc.collect()
            used = gc.mem_alloc()
            if done == 1:
                first = used
            peak = used if used > peak else peak
    gc.collect()
    last = gc.mem_alloc()
    figures = "games %d code %d first %d last %d peak %d" % (done, code, first, last, peak)
    print("SOAK", figures)
    print("demo tally (X wins, O wins, draws):", tally)
    check(done == games, figures)
    check(first == last, "heap in use after the first game %d, after the last %d" % (first, last))
    # What the app itself holds (heap in use minus the imported firmware code) stays small.
    check(peak - code < APP_HOLDS, figures)


mptest.run(globals())
