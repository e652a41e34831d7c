# A minimal test runner for scripts that run under the MicroPython unix port.
# SPDX-License-Identifier: MIT
# Each `test_*` function in the calling module runs; results are printed one per line and the
# process exits non-zero if any failed (or none ran), so pytest can assert on the outcome.
import sys


def run(namespace):
    names = sorted(name for name in namespace if name.startswith("test_"))
    failed = 0
    for name in names:
        try:
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
