# What a board with the game frozen into its MicroPython (make firmware) runs at power-on: the
# main.py on its filesystem when there is one, else the frozen game.
# SPDX-License-Identifier: MIT
# MicroPython runs a frozen main.py rather than the filesystem's (shared/runtime/pyexec.c,
# pyexec_file_if_exists), so without this look-up a user's own main.py, or `make deploy`'s,
# would never run. It is the one littlefs look-up of this file.
import os
import sys

try:
    os.stat("main.py")
    found = True
except OSError:
    found = False
if found:
    # As the port would have run it: in __main__'s globals, named main.py in tracebacks.
    execfile("main.py")  # noqa: F821 - a MicroPython built-in (MICROPY_PY_BUILTINS_EXECFILE)
else:
    # Only the frozen modules on the path while the game runs. MicroPython looks for a module on
    # the filesystem first, at each sys.path entry ("" and /lib: three look-ups each), even for
    # an extensible built-in such as time (firmware/main.py keeps those in sys.modules for
    # that): with the path narrowed, no import of the game touches the flash. The path comes
    # back for the REPL after safe mode or Ctrl-C.
    path = sys.path[:]
    sys.path[:] = [".frozen"]
    try:
        import oxo

        oxo.main()
    finally:
        sys.path[:] = path
