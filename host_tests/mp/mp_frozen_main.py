# frozen/main.py, the main.py frozen into `make firmware`'s images, under the unix port: it runs
# the filesystem's main.py when there is one, else the game with only the frozen modules on
# the path, and gives the path back.
# SPDX-License-Identifier: MIT
# argv: frozen/main.py, a fresh folder (the board's filesystem root: the cwd). The game is a
# stand-in startup put in sys.modules, which an import finds before any path is searched.
import os
import sys

import mptest
import settings
from mptest import check

FROZEN_MAIN = sys.argv[1]
ROOT = sys.argv[2]


class FakeOxo:
    """The game: records each start, the path it ran with, the `later` it was given (and with
    `call_later` calls it, as the runner does after the first frame), and with `fs` whether
    the filesystem was mounted when it started, and after `later`, and what settings.lend was."""

    def __init__(self, raises=None, call_later=False, fs=None):
        self.paths = []
        self.laters = []
        self.raises = raises
        self.call_later = call_later
        self.fs = fs
        self.seen = []  # (mounted at start, mounted after later, settings.lend)

    def main(self, later=None):
        self.paths.append(sys.path[:])
        self.laters.append(later)
        at_start = self.fs is not None and self.fs.is_mounted
        if self.call_later and later is not None:
            later()
        after = self.fs is not None and self.fs.is_mounted
        self.seen.append((at_start, after, settings.lend))
        if self.raises is not None:
            raise self.raises


class FakeFlashfs:
    """frozen/flashfs.py as frozen/_boot.py leaves it in sys.modules: a filesystem made or not
    (a first boot), mounted or not; mount() mounts one that is made, release() unmounts,
    make() mounts it, made first when there is none (counted): what frozen/main.py calls."""

    def __init__(self, made):
        self.made = made
        self.is_mounted = made  # _boot.py mounted what there is
        self.makes = 0

    def mount(self):
        if self.made:
            self.is_mounted = True
        return self.is_mounted

    def release(self):
        self.is_mounted = False

    def make(self):
        if self.mount():
            return
        self.makes += 1
        self.made = self.is_mounted = True


def power_on(game, flashfs=None, main_py=None):
    """Run frozen/main.py as the port runs it at power-on (in __main__'s globals, a fresh dict
    here), with `game` as startup, `flashfs` as what _boot.py left (None: the port's own
    _boot.py ran, as on the ESP32) and `main_py` the text of the filesystem's main.py (None:
    there is none); return those globals."""
    sys.modules["startup"] = game
    if flashfs is not None:
        sys.modules["flashfs"] = flashfs
    os.chdir(ROOT)
    if main_py is not None:
        with open("main.py", "w") as f:
            f.write(main_py)
    scope = {"__name__": "__main__"}
    try:
        execfile(FROZEN_MAIN, scope)  # noqa: F821 - a MicroPython built-in
    finally:
        sys.modules.pop("startup", None)
        sys.modules.pop("flashfs", None)
        settings.lend = None  # as a new power-on finds it
        if main_py is not None:
            os.remove("main.py")
    return scope


USER_MAIN = """
import sys
ran = __name__
path_then = sys.path[:]
"""


def interrupted(game, flashfs=None):
    """power_on(game, flashfs): whether a KeyboardInterrupt came out of it."""
    try:
        power_on(game, flashfs)
    except KeyboardInterrupt:
        return True
    return False


def test_no_main_py_starts_the_game_with_only_the_frozen_modules_on_the_path():
    before = sys.path[:]
    game = FakeOxo()
    power_on(game)  # no flashfs: the port's own _boot.py made the filesystem (ESP32, Pico W)
    check(game.paths == [[".frozen"]], repr(game.paths))
    check(sys.path == before, "the path was not given back: %r" % sys.path)
    check(game.laters == [None], "given something to do later: %r" % game.laters)


def test_a_main_py_on_the_filesystem_runs_instead_of_the_game():
    before = sys.path[:]
    game = FakeOxo()
    scope = power_on(game, main_py=USER_MAIN)
    check(game.paths == [], "the game started too")
    check(scope.get("ran") == "__main__", "main.py did not run as __main__: %r" % scope)
    check(scope["path_then"] == before, "main.py ran with another path: %r" % scope["path_then"])


def test_ctrl_c_in_the_game_reaches_the_repl_with_the_path_back():
    before = sys.path[:]
    game = FakeOxo(raises=KeyboardInterrupt())
    check(interrupted(game), "the KeyboardInterrupt was swallowed")
    check(sys.path == before, "the path was not given back: %r" % sys.path)


def test_a_filesystem_is_lent_to_the_game_and_mounted_again_for_the_repl():
    fs = FakeFlashfs(made=True)
    game = FakeOxo(fs=fs)
    power_on(game, fs)
    check(game.laters == [None], repr(game.laters))
    check(fs.makes == 0, "made again")
    at_start, _after, lend = game.seen[0]
    check(not at_start, "the game started with the filesystem held")
    check(lend == (fs.mount, fs.release), "not lent: %r" % (lend,))
    check(fs.is_mounted and settings.lend is None, "the REPL has no filesystem")


def test_a_first_boot_hands_the_making_to_the_game_and_it_is_done_once():
    fs = FakeFlashfs(made=False)
    game = FakeOxo(raises=KeyboardInterrupt(), call_later=True, fs=fs)  # made, then Ctrl-C
    interrupted(game, fs)
    check(game.laters[0] is not None, repr(game.laters))
    check(fs.makes == 1, "made %d times" % fs.makes)
    check(game.seen[0][:2] == (False, False), "held after its making: %r" % (game.seen,))
    check(fs.is_mounted, "the REPL has no filesystem")


def test_a_first_boot_that_leaves_the_game_early_still_makes_the_filesystem():
    # Safe mode or no board (the game returns), or Ctrl-C before the first frame: made on the
    # way to the REPL, and the Ctrl-C still reaches it.
    for raises in (None, KeyboardInterrupt()):
        fs = FakeFlashfs(made=False)
        stopped = interrupted(FakeOxo(raises=raises), fs)
        check(fs.makes == 1, "made %d times (%r)" % (fs.makes, raises))
        check(stopped == (raises is not None), "the KeyboardInterrupt was swallowed")


def test_an_error_in_main_py_is_its_own_with_its_name():
    game = FakeOxo()
    try:
        power_on(game, main_py="x = 1\nraise ValueError('mine')\n")
        raised = None
    except ValueError as exc:
        raised = exc
    check(raised is not None and raised.args == ("mine",), repr(raised))
    check(game.paths == [], "the game started after the user's main.py failed")


mptest.run(globals())
