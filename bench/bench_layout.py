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
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools")]  # as `python bench/<this file>`

import deploy_chains  # noqa: E402
import mpyrun  # noqa: E402

SCRIPT = ROOT / "host_tests" / "mp" / "mp_nomtime.py"
CHECKS = ("test_a_redeploy_over_modification_times_leaves_none",)  # it prints the figures


def main():
    if mpyrun.micropython_path() is None:
        print("bench_layout: " + mpyrun.UNAVAILABLE)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        deploy_chains.stage("pico", tmp / "files")
        count = len(os.listdir(tmp / "files"))
        os.environ["MPTEST_ONLY"] = " ".join(CHECKS)
        paths = (ROOT / "tools", ROOT / "host_tests" / "mp", ROOT / "testbed")
        res = mpyrun.run(SCRIPT, args=(tmp / "files", tmp), paths=paths, heapsize="8m")
    figures = {}
    for line in res.stdout.splitlines():
        words = line.split()
        if words[:1] == ["lookup_reads"]:
            figures.update(zip(words[1::2], words[2::2], strict=True))
    if res.returncode != 0 or len(figures) != 3:
        print("bench_layout: failed\n" + res.stdout + res.stderr, file=sys.stderr)
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
