# The MicroPython half of bench_saves.py: saves on the Pico's modelled flash and the loop's
# steps over a scripted session (testbed/session.py), printed as "name value" lines.
# SPDX-License-Identifier: MIT
import sys
import time

import hostapp
import session

for name, extra in (("alone", False), ("beside", True)):
    costs = sorted(session.save_costs(sys.argv[1], extra))
    n = len(costs)
    # the 90th percentile: a compaction (1 save in 4-5)
    for key, at in (("min", 0), ("median", n // 2), ("compact", n * 9 // 10), ("worst", -1)):
        print("save_%s_%s" % (name, key), costs[at])

h = hostapp.HostApp("pico")
t = session.Timing(h)
h.play(session.session)
steps = t.steps
frame = [0, 0]
by = {"flash": 0, "frame": 0}
search = {}
for k, (start, end, flash, cost, drew, _wait) in enumerate(steps):
    ms = time.ticks_diff(end, start)
    if cost:
        # The CPU's (or the hint's) level, if the step ran one, else the coach's search alone.
        label = session.COACH
        for level in t.step_searches[k]:
            if level != session.COACH:
                label = session.LABELS[level]
        search[label] = max(search.get(label, 0), ms)
    elif flash:
        by["flash"] = max(by["flash"], ms)
    elif drew:
        by["frame"] = max(by["frame"], ms)
        frame[0] = max(frame[0], drew)
# A press landing just after step k polled the buttons is seen by step k + 1, and shown by
# that step's frame. A search drops what was pressed while it ran (play.py): such a press
# is not kept, so it is left out of the waits.
wait = (0, 0)
for k in range(len(steps) - 1):
    if steps[k][3]:
        continue
    ms = time.ticks_diff(steps[k + 1][0], steps[k][0]) + (frame[0] + 999) // 1000
    wait = max(wait, (ms, k))
longest = t.longest_step()
print("steps", len(steps))
print("saves", len([1 for s in steps if s[2]]))
print("longest_ms", longest[0])
print("longest_what", longest[2])
print("longest_save_step_ms", by["flash"])
print("longest_frame_step_ms", by["frame"])
for label in sorted(search):
    print("search_%s_ms" % label, search[label])
print("press_wait_ms", wait[0])
k = wait[1]
print("press_wait_during", "flash" if steps[k][2] else "frame" if steps[k][4] else "idle")
print("note_late_ms", max(n[0] for n in t.notes))
print("blink_late_ms", max(f[0] for f in t.frames_late))
print("skipped", t.skipped)
