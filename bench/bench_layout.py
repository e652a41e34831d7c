"""Blocks read by the boot's look-ups on the Pico's flash, as `make deploy` writes the files
with and without modification times (`make bench`).

The MicroPython half, bench_layout_mp.py, takes host_tests/mp/mp_nomtime.py's layouts: the files
`make deploy BOARD=pico` copies, written in mpremote's 256-byte writes onto a RAM flash shaped
as the Pico's (352 blocks of 4 KB, littlefs with progsize 256) mounted as the rp2 port's
_boot.py mounts it, or first remounted by tools/nomtime.py without modification times as deploy
now does; then counts the three look-ups per module of the imports after a reset ("x", "x.py",
"x.mpy") in readblocks() calls (each a littlefs cache fill). "redeploy": the remounted deploy
over a board deployed with modification times. The same files and layouts booted on an
emulated Pico (v1.28.0 RPI_PICO in rp2040js, outside this repository) reached the title in
329 ms (mtime) and 241 ms (nomtime) when this was written.
"""

import sys

import benchkit
import deploy_chains
from benchkit import BENCH, ROOT, TESTBED


def main():
    if benchkit.skipped("bench_layout"):
        return 0
    with benchkit.workdir() as tmp:
        deploy_chains.stage("pico", tmp / "files")
        paths = (ROOT / "tools", ROOT / "host_tests" / "mp", TESTBED)
        script = BENCH / "bench_layout_mp.py"
        figures = benchkit.keyed(
            benchkit.run_mp("bench_layout", script, (tmp / "files",), paths, "8m")
        )
    print(
        "Boot look-ups on the Pico's flash (%s deployed files, 3 look-ups each):"
        % figures["files"][0]
    )
    for kind, words in (
        ("mtime", "deploy as before (modification times)"),
        ("nomtime", "deploy now (remounted without)"),
        ("redeploy", "deploy now over one with times"),
    ):
        print("  %-40s %5s block reads" % (words, figures[kind][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
