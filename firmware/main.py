# What the board runs at power-on. MicroPython compiles main.py from source at every boot, so
# it only starts the compiled boot code (oxo.py, deployed as oxo.mpy).
# SPDX-License-Identifier: MIT
import sys

# MicroPython looks for an extensible built-in module (time, machine, array, ...) on the
# filesystem at every import, before it takes the built-in, and never keeps it in sys.modules
# (py/builtinimport.c, process_import_at_level): six littlefs look-ups on a Pico, 3-7 ms, for
# each `import time`, a dozen of them before the title. Kept in sys.modules after their first
# import, the firmware's imports of them cost nothing (a stand-in on the path stays what they
# import). random waits for the first game: the title does not need it.
for name in ("time", "array", "machine", "json", "os"):
    sys.modules[name] = __import__(name)

import oxo  # noqa: E402 - after the built-ins above

oxo.main()
