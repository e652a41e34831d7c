# Runs one of the engine's MicroPython check modules (mp_engine_*.py) in a 24k heap.
# SPDX-License-Identifier: MIT
# Precompiled, and imported by a one-line script: `import mp_engine_run`; argv: REFERENCE
# MODULE [files the module reads]. Imports the engine first, so its code and tables load into the
# fresh heap, then the precompiled check module; runs its test_* functions (those named in
# MPTEST_ONLY, as mptest.run does) and prints what mptest.run prints (RUN, PASS/FAIL lines,
# SUMMARY passed failed). mptest itself is not loaded and names are few: the
# engine and a check module fit together in 24k (every name goes into MicroPython's qstr pool,
# which grows by doubling; 16k, this runner's first heap, became a matter of luck once the
# engine's tables came with its code as constants, and failed now and then).
import gc
import os
import sys

import engine  # noqa: F401 - first, see above


def main():
    gc.collect()  # the garbage of building the engine's tables, before the checks load
    tests = __import__(sys.argv[2])
    only = os.getenv("MPTEST_ONLY")
    names = [name for name in dir(tests) if name[:5] == "test_"]
    names = names if only is None else [name for name in names if name in only.split()]
    failed = 0
    for name in names:
        print("RUN", name)
        try:
            gc.collect()
            getattr(tests, name)()
            print("PASS", name)
        except Exception as exc:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print("FAIL", name)
            sys.print_exception(exc)
    print("SUMMARY", len(names) - failed, failed)
    sys.exit(1 if failed or not names else 0)


main()
