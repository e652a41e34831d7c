# frozen/main.py, the main.py frozen into `make firmware`'s images, under the unix port: it runs
# the filesystem's main.py when there is one, else the game with only the frozen modules on
# the path, and gives the path back.
# SPDX-License-Identifier: MIT
# argv: frozen/main.py, a fresh folder (the board's filesystem root: the cwd). The game is a
# stand-in oxo put in sys.modules, which an import finds before any path is searched.
import os
import sys

import mptest
from mptest import check

FROZEN_MAIN = sys.argv[1]
ROOT = sys.argv[2]


class FakeOxo:
    """The game: records each start, the path it ran with and the `later` it was given (and
    with `call_later` calls it, as the runner does after the first frame)."""

    def __init__(self, raises=None, call_later=False):
        self.paths = []
        self.laters = []
        self.raises = raises
        self.call_later = call_later

    def main(self, later=None):
        self.paths.append(sys.path[:])
        self.laters.append(later)
        if self.call_later and later is not None:
            later()
        if self.raises is not None:
            raise self.raises


class FakeFlashfs:
    """frozen/flashfs.py as frozen/_boot.py leaves it in sys.modules: a filesystem mounted or
    not, made (and then mounted) by make() unless one is mounted, as flashfs.make; counted."""

    def __init__(self, mounted):
        self.is_mounted = mounted
        self.makes = 0

    def mounted(self):
        return self.is_mounted

    def make(self):
        if not self.is_mounted:
            self.makes += 1
            self.is_mounted = True


def power_on(game, flashfs=None):
    """Run frozen/main.py as the port runs it at power-on (in __main__'s globals, a fresh dict
    here), with `game` as oxo and `flashfs` as what _boot.py left (None: the port's own
    _boot.py ran, as on the ESP32); return those globals."""
    sys.modules["oxo"] = game
    if flashfs is not None:
        sys.modules["flashfs"] = flashfs
    os.chdir(ROOT)
    scope = {"__name__": "__main__"}
    try:
        execfile(FROZEN_MAIN, scope)  # noqa: F821 - a MicroPython built-in
    finally:
        sys.modules.pop("oxo", None)
        sys.modules.pop("flashfs", None)
    return scope


def remove(name):
    try:
        os.remove(ROOT + "/" + name)
    except OSError:
        pass


USER_MAIN = """
import sys
ran = __name__
path_then = sys.path[:]
"""


def test_no_main_py_starts_the_game_with_only_the_frozen_modules_on_the_path():
    remove("main.py")
    before = sys.path[:]
    game = FakeOxo()
    power_on(game)
    check(game.paths == [[".frozen"]], repr(game.paths))
    check(sys.path == before, "the path was not given back: %r" % sys.path)


def test_a_main_py_on_the_filesystem_runs_instead_of_the_game():
    with open(ROOT + "/main.py", "w") as f:
        f.write(USER_MAIN)
    before = sys.path[:]
    game = FakeOxo()
    scope = power_on(game)
    remove("main.py")
    check(game.paths == [], "the game started too")
    check(scope.get("ran") == "__main__", "main.py did not run as __main__: %r" % scope)
    check(scope["path_then"] == before, "main.py ran with another path: %r" % scope["path_then"])


def test_deleting_main_py_brings_the_game_back():
    with open(ROOT + "/main.py", "w") as f:
        f.write(USER_MAIN)
    power_on(FakeOxo())
    remove("main.py")
    game = FakeOxo()
    power_on(game)
    check(len(game.paths) == 1, "the game did not start once main.py was gone")


def test_ctrl_c_in_the_game_reaches_the_repl_with_the_path_back():
    remove("main.py")
    before = sys.path[:]
    game = FakeOxo(raises=KeyboardInterrupt())
    try:
        power_on(game)
        stopped = False
    except KeyboardInterrupt:
        stopped = True
    check(stopped, "the KeyboardInterrupt was swallowed")
    check(sys.path == before, "the path was not given back: %r" % sys.path)


def test_without_flashfs_the_game_is_given_nothing_to_do_later():
    # The port's own _boot.py made the filesystem before main.py (ESP32, Pico W).
    remove("main.py")
    game = FakeOxo()
    power_on(game)
    check(game.laters == [None], repr(game.laters))


def test_a_mounted_filesystem_leaves_nothing_to_do_later_and_lets_flashfs_go():
    remove("main.py")
    game = FakeOxo()
    fs = FakeFlashfs(mounted=True)
    scope = power_on(game, fs)
    check(game.laters == [None], repr(game.laters))
    check(fs.makes == 0, "made again")
    check("flashfs" not in scope, "main.py's globals keep flashfs")


def test_a_first_boot_hands_the_making_to_the_game_and_it_is_done_once():
    remove("main.py")
    fs = FakeFlashfs(mounted=False)
    game = FakeOxo(raises=KeyboardInterrupt(), call_later=True)  # made, then Ctrl-C
    try:
        power_on(game, fs)
    except KeyboardInterrupt:
        pass
    check(game.laters == [fs.make], repr(game.laters))
    check(fs.makes == 1, "made %d times" % fs.makes)


def test_a_first_boot_that_leaves_the_game_early_still_makes_the_filesystem():
    # Safe mode or no board (the game returns), or Ctrl-C before the first frame: made on the
    # way to the REPL, and the Ctrl-C still reaches it.
    remove("main.py")
    for raises in (None, KeyboardInterrupt()):
        fs = FakeFlashfs(mounted=False)
        try:
            power_on(FakeOxo(raises=raises), fs)
            stopped = False
        except KeyboardInterrupt:
            stopped = True
        check(fs.makes == 1, "made %d times (%r)" % (fs.makes, raises))
        check(stopped == (raises is not None), "the KeyboardInterrupt was swallowed")


def test_an_error_in_main_py_is_its_own_with_its_name():
    with open(ROOT + "/main.py", "w") as f:
        f.write("x = 1\nraise ValueError('mine')\n")
    game = FakeOxo()
    try:
        power_on(game)
        raised = None
    except ValueError as exc:
        raised = exc
    remove("main.py")
    check(raised is not None and raised.args == ("mine",), repr(raised))
    check(game.paths == [], "the game started after the user's main.py failed")


mptest.run(globals())
