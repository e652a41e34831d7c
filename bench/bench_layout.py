"""Blocks read by the boot's look-ups on the Pico's flash, as `make deploy` writes the files
with and without modification times (`make bench`).

The MicroPython half is host_tests/mp/mp_nomtime.py (its checks that print the figures): the
files `make deploy BOARD=pico` copies, written in mpremote's 256-byte writes onto a RAM flash
shaped as the Pico's (352 blocks of 4 KB, littlefs with progsize 256) mounted as the rp2 port's
_boot.py mounts it, or first remounted by tools/nomtime.py without modification times as deploy
now does; then the three look-ups per module of the imports after a reset ("x", "x.py",
"x.mpy"), counted in readblocks() calls (each a littlefs cache fill). "redeploy": the remounted
deploy over a board deployed with modification times. The same files and layouts booted on an
emulated Pico (v1.28.0 RPI_PICO in rp2040js, outside this repository) reached the title in
329 ms (mtime) and 241 ms (nomtime) when this was written.
"""

import os
import sys

import benchkit
import deploy_chains
from benchkit import ROOT, TESTBED

SCRIPT = ROOT / "host_tests" / "mp" / "mp_nomtime.py"
CHECKS = ("test_a_redeploy_over_modification_times_leaves_none",)  # it prints the figures


def main():
    if benchkit.skipped("bench_layout"):
        return 0
    with benchkit.workdir() as tmp:
        deploy_chains.stage("pico", tmp / "files")
        count = len(os.listdir(tmp / "files"))
        os.environ["MPTEST_ONLY"] = " ".join(CHECKS)
        paths = (ROOT / "tools", ROOT / "host_tests" / "mp", TESTBED)
        output = benchkit.run_mp("bench_layout", SCRIPT, (tmp / "files", tmp), paths, "8m")
    figures = {}
    for line in output.splitlines():
        words = line.split()
        if words[:1] == ["lookup_reads"]:
            figures.update(zip(words[1::2], words[2::2], strict=True))
    if len(figures) != 3:
        print("bench_layout: no figures in\n" + output, file=sys.stderr)
        return 1
    print("Boot look-ups on the Pico's flash (%d deployed files, 3 look-ups each):" % count)
    for kind, words in (
        ("mtime", "deploy as before (modification times)"),
        ("nomtime", "deploy now (remounted without)"),
        ("redeploy", "deploy now over one with times"),
    ):
        print("  %-40s %5s block reads" % (words, figures[kind]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
