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
    """The game: records each start and the path it ran with."""

    def __init__(self, raises=None):
        self.paths = []
        self.raises = raises

    def main(self):
        self.paths.append(sys.path[:])
        if self.raises is not None:
            raise self.raises


def power_on(game):
    """Run frozen/main.py as the port runs it at power-on (in __main__'s globals, a fresh dict
    here), with `game` as oxo; return those globals."""
    sys.modules["oxo"] = game
    os.chdir(ROOT)
    scope = {"__name__": "__main__"}
    try:
        execfile(FROZEN_MAIN, scope)  # noqa: F821 - a MicroPython built-in
    finally:
        sys.modules.pop("oxo", None)
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
