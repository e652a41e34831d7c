# What the board runs at power-on. MicroPython compiles main.py from source at every boot, so
# it only starts the compiled boot code (startup.py, deployed as startup.mpy).
# SPDX-License-Identifier: MIT
import sys

# MicroPython looks for an extensible built-in module (time, machine, ...) on the filesystem at
# every import before it takes the built-in (py/builtinimport.c): kept in sys.modules, the
# firmware's imports of them cost no flash look-ups (docs/benchmarks.md, "Boot look-ups").
for name in ("time", "array", "machine", "json", "os"):
    sys.modules[name] = __import__(name)

import startup  # noqa: E402 - after the built-ins above

startup.main()
