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
    # (a first boot): then it is made once the game's first frame is on the glass (startup.main's
    # `later`), or before the game writes anything, or on the way to the REPL (safe mode,
    # Ctrl-C, no board) at the latest. Elsewhere the port's own _boot.py made it already.
    # While the game runs the filesystem is lent (firmware/store/settings.py's use() and done()):
    # mounted only while the game reads or writes its files, so littlefs's two 1 KB caches are
    # not held between.
    later = None
    lent = False
    try:
        import flashfs

        sys.modules.pop("flashfs")  # held by the functions below alone
        import settings

        if not flashfs.mount():

            def _made():
                # The first boot's filesystem, made (and let go again unless in use).
                settings.use()
                try:
                    flashfs.make()
                finally:
                    settings.done()

            later = _made
        settings.lend = (flashfs.mount, flashfs.release)
        flashfs.release()
        lent = True
    except ImportError:
        pass
    try:
        import startup

        startup.main(later)
    finally:
        sys.path[:] = path
        if lent:
            import micropython

            settings.lend = None  # the REPL's: mounted from now on
            micropython.kbd_intr(-1)  # a Ctrl-C now would leave a REPL with no filesystem
            try:
                flashfs.make()  # mounted again; made if it never was
            finally:
                micropython.kbd_intr(3)
