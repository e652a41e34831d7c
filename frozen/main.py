# What a board with the game frozen into its MicroPython (make firmware) runs at power-on: the
# main.py on its filesystem when there is one, else the frozen game.
# SPDX-License-Identifier: MIT
# MicroPython runs a frozen main.py rather than the filesystem's (shared/runtime/pyexec.c,
# pyexec_file_if_exists), so without this look-up a user's own main.py, or `make deploy`'s,
# would never run. It is the one littlefs look-up of this file (none on a first boot: there is
# no filesystem yet).
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
    # On the rp2 boards this folder's _boot.py mounted the filesystem, or found none to mount
    # (a first boot): then it is made once the game's first frame is on the glass (oxo.main's
    # `later`), or before the game writes anything, or on the way to the REPL (safe mode,
    # Ctrl-C, no board) at the latest. Elsewhere the port's own _boot.py made it already.
    make = None
    try:
        import flashfs

        sys.modules.pop("flashfs")  # held by `make` alone, and only until it is made
        if not flashfs.mounted():
            make = flashfs.make
        del flashfs
    except ImportError:
        pass
    try:
        import oxo

        oxo.main(make)
    finally:
        sys.path[:] = path
        if make is not None:
            import micropython

            micropython.kbd_intr(-1)  # a Ctrl-C now would leave a REPL with no filesystem
            try:
                make()  # nothing when it was made after the first frame
            finally:
                micropython.kbd_intr(3)
