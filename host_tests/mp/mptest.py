# The MicroPython side of the one bridge between pytest and MicroPython (host_tests/mpcheck.py).
# SPDX-License-Identifier: MIT
# Runs the `test_*` functions of the calling module: all of them, or those named (space
# separated) in the environment variable MPTEST_ONLY, which mpcheck sets to what pytest selected.
# It speaks the protocol of host_tests/checkitems.py: per check `RUN name`, the check's own
# output, then `PASS name` or `FAIL name` and the traceback (its last line the reason); at the
# end `SUMMARY passed failed`. The process exits non-zero if any failed (or none ran). A name in
# MPTEST_ONLY the module lacks fails as such.
import os
import sys


def run(namespace):
    only = os.getenv("MPTEST_ONLY")
    if only is None:
        names = sorted(name for name in namespace if name.startswith("test_"))
    else:
        names = sorted(only.split())
    failed = 0
    for name in names:
        print("RUN", name)
        try:
            if name not in namespace:
                raise AssertionError("this script has no check " + name)
            namespace[name]()
            print("PASS", name)
        except Exception as exc:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print("FAIL", name)
            sys.print_exception(exc)
    print("SUMMARY", len(names) - failed, failed)
    sys.exit(1 if failed or not names else 0)


def check(condition, message="check failed"):
    """Like assert, but never optimised away and usable under MicroPython."""
    if not condition:
        raise AssertionError(message)
