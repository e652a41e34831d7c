# bench_layout's MicroPython half: the blocks the boot's look-ups read on mp_nomtime's deploys.
# SPDX-License-Identifier: MIT
# Arguments as mp_nomtime's: the deployed files' folder. Prints `<layout> <reads>` a line.
import os

import mp_nomtime as layouts


def lookup_reads(disk):
    """Block reads of the look-ups the boot's imports make after a reset: "x", "x.py", "x.mpy"
    for each module (py/builtinimport.c, stat_dir_or_file), the first sys.path entry ''."""
    layouts.as_boot(disk)
    before = disk.reads
    for name in layouts.ORDER:
        stem = name.rsplit(".", 1)[0]
        for path in (stem, stem + ".py", stem + ".mpy"):
            try:
                os.stat(path)
            except OSError:
                pass
    reads = disk.reads - before
    layouts.unmount()
    return reads


# A board deployed with modification times, then redeployed through the remount. Fewer reads
# or more without the attributes, as littlefs compacts and splits the root with the deployed
# files' names and sizes (1473 against 603 with one firmware, 2206 against 2728 with a later).
REDEPLOY = layouts.fresh()
layouts.deploy(REDEPLOY, remount=False)
layouts.deploy(REDEPLOY, remount=True)
print("files", len(layouts.ORDER))
for name, disk in (("mtime", layouts.WITH), ("nomtime", layouts.WITHOUT), ("redeploy", REDEPLOY)):
    print(name, lookup_reads(disk))
