"""Saves and the loop's longest step on the Pico's model (`make bench`; bench_saves_mp.py is the
MicroPython half). Times are the fake clock's, as the stand-ins charge them: each flash
operation as testbed/ramdisk.py's PICO_FLASH models it, each frame its SPI bytes at 4 MHz and
the rp2 model's drawing time (testbed/hostboard/portmodel.py), each search the emulated Pico's
time for its level (testbed/session.py SEARCH_US). So the figures are the model's, the same on
any host; what they rest on is cited where the model is.

- a save's cost: on a littlefs holding what `make deploy` leaves in the root (staged here by
  tools/deploy_chains.py) and settings.json, then also beside error.log at its largest
  and settings.bad (the most the firmware keeps there), over 320 saves (past littlefs's first
  relocation of the directory): the cheapest, the median, a compaction (the 90th percentile),
  the worst; App.save_ms is held to the worst by host_tests/mp/mp_app_timing.py.
- over a scripted session (testbed/session.py: settings changed, two-player wins, a one-player
  game at each level with a hint and an undo, the CPU's perfect first reply on the empty board):
  the longest loop step and what it spent on, the longest of each kind, the longest a press can
  wait (one landing just after a step polled the buttons is shown by the next step's frame; a
  press during a search is dropped by design, so not counted), and the latest note and blink.
"""

import sys

import benchkit
import boardlist
import deploy_chains
import layout
from benchkit import BENCH, HOSTBOARD, TESTBED

PATHS = [HOSTBOARD, TESTBED, *layout.FOLDERS, boardlist.BOARDS]


def main():
    if benchkit.skipped("bench_saves"):
        return 0
    with benchkit.workdir() as deployed:
        deploy_chains.stage("pico", deployed)
        script = BENCH / "bench_saves_mp.py"
        output = benchkit.run_mp("bench_saves", script, (deployed,), PATHS, "4m")
    f = {name: value[0] for name, value in benchkit.keyed(output).items()}
    print("== saves and the loop's longest step (Pico model: flash, frames, searches timed) ==")
    for name, what in (("alone", "beside the deployed files"), ("beside", "also beside error.log "
                       "(2 KB) and settings.bad (512 B)")):  # fmt: skip
        ms = [
            int(f["save_%s_%s" % (name, k)]) / 1000 for k in ("min", "median", "compact", "worst")
        ]
        print(
            "save, %s: %.1f ms cheapest, %.1f ms median, %.1f ms compacting, %.1f ms worst"
            % (what, *ms)
        )
    levels = ("EASY", "MED", "HARD", "PERF", "COACH")
    f["by_level"] = ", ".join(
        "%s %s ms" % (level, f["search_%s_ms" % level])
        for level in levels
        if "search_%s_ms" % level in f
    )
    print(
        "session of %(steps)s steps, %(saves)s saves: longest step %(longest_ms)s ms "
        "(%(longest_what)s); longest save step %(longest_save_step_ms)s ms, frame step "
        "%(longest_frame_step_ms)s ms; search step by level: %(by_level)s" % f
    )
    print(
        "longest a press can wait for its frame: %(press_wait_ms)s ms (landing during a "
        "%(press_wait_during)s step); latest note %(note_late_ms)s ms after its table time, "
        "latest blink frame %(blink_late_ms)s ms, notes skipped %(skipped)s" % f
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
