"""Put the firmware on a board with mpremote: deploy, repl, run (mounted), erase-settings.

    make deploy BOARD=pico PORT=/dev/ttyACM0   compile and copy everything, then reset the board
    make run    BOARD=pico PORT=/dev/ttyACM0   run the sources from this checkout (mpremote mount)
    make repl   PORT=/dev/ttyACM0              the board's REPL (Ctrl-] or Ctrl-x to leave)
    make erase-settings PORT=/dev/ttyACM0      delete settings.json (defaults at next start)

Deploy compiles every firmware module except main.py with mpy-cross to bytecode .mpy (no
native or viper code is used, so no -march: the same files run on any port), compiles the board
file as board.mpy, keeps main.py as source (so a board boots it and a person can read it),
removes stale .py copies that would shadow the .mpy files, and resets the board. settings.json
and error.log on the board are kept. Every step is one `mpremote connect PORT ...` chain.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import boardlist
import mpy_build

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
TARGETS = ("deploy", "run", "repl", "erase-settings")
NEEDS_BOARD = ("deploy", "run")

# Removing a file that may not be there must not stop the chain (mpremote's `fs rm` would).
REMOVE = (
    "import os\nfor n in %r:\n    try:\n        os.remove(n)\n        print('removed', n)\n"
    "    except OSError:\n        pass\n"
)


class UsageError(Exception):
    """A wrong BOARD or PORT: the message says what to use instead."""


def check_port(port, target="deploy"):
    if not port:
        raise UsageError(
            "no PORT given: use e.g. `make %s%s PORT=/dev/ttyACM0` "
            "(`.venv/bin/mpremote connect list` shows the connected boards)"
            % (target, " BOARD=pico" if target in NEEDS_BOARD else "")
        )
    if port.upper().startswith("COM") and port[3:].isdigit():
        return port  # a Windows serial port has no path to check
    if not os.path.exists(port):
        raise UsageError(
            "port %s does not exist: is the board plugged in? (Linux: /dev/ttyACM0 for a Pico, "
            "/dev/ttyUSB0 for most ESP32 boards; `mpremote connect list` shows them)" % port
        )
    return port


def check_board(board):
    if not board:
        raise UsageError(
            "no BOARD given: choose one of %s, e.g. `make deploy BOARD=pico PORT=/dev/ttyACM0`"
            % ", ".join(boardlist.known_boards())
        )
    try:
        return boardlist.board_file(board)
    except ValueError as err:
        raise UsageError(str(err)) from None


def build_deploy(board, out_dir):
    """Compile the firmware for `board` into out_dir; return (mpy files, board.mpy, main.py)."""
    modules = [p for p in mpy_build.firmware_sources(include_boards=False) if p.name != "main.py"]
    mpys = mpy_build.compile_all(out_dir, modules)
    staged = out_dir / "board" / "board.py"
    staged.parent.mkdir()
    shutil.copyfile(check_board(board), staged)
    board_mpy = mpy_build.compile_module(staged, out_dir)
    return mpys, board_mpy, FIRMWARE / "main.py"


def build_run(board, out_dir):
    """Sources for `make run`: firmware/*.py plus the board file as board.py."""
    for src in mpy_build.firmware_sources(include_boards=False):
        shutil.copyfile(src, out_dir / src.name)
    shutil.copyfile(check_board(board), out_dir / "board.py")
    return out_dir


def mpremote(port, *chain):
    return [sys.executable, "-m", "mpremote", "connect", port] + list(chain)


def deploy_commands(port, mpys, board_mpy, main_py):
    shadows = sorted({p.stem + ".py" for p in mpys} | {"board.py"})
    return mpremote(
        port,
        *("exec", REMOVE % (shadows,)),
        *("+", "fs", "cp", *[str(p) for p in mpys], ":"),
        *("+", "fs", "cp", str(board_mpy), ":board.mpy"),
        *("+", "fs", "cp", str(main_py), ":main.py"),
        *("+", "reset"),
    )


def commands(target, board, port, build_dir):
    """The mpremote command line for a target (building what it needs in build_dir first)."""
    if target == "deploy":
        mpys, board_mpy, main_py = build_deploy(board, build_dir)
        size = sum(p.stat().st_size for p in mpys + [board_mpy]) + main_py.stat().st_size
        print(
            "deploy: %d modules as bytecode .mpy (no -march: no native code) + board.mpy (%s) "
            "+ main.py source, %d bytes, to %s" % (len(mpys), board, size, port)
        )
        return deploy_commands(port, mpys, board_mpy, main_py)
    if target == "run":
        staged = build_run(board, build_dir)
        return mpremote(port, "mount", str(staged), "+", "run", str(staged / "main.py"))
    if target == "repl":
        return mpremote(port, "repl")
    if target == "erase-settings":
        return mpremote(port, "exec", REMOVE % (["settings.json"],), "+", "reset")
    raise UsageError("unknown target %r: use one of %s" % (target, ", ".join(TARGETS)))


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--board", default="", help="a boards/<name>.py name, e.g. pico")
    parser.add_argument("--port", default="", help="the board's serial port, e.g. /dev/ttyACM0")
    args = parser.parse_args(argv)
    try:
        if args.target in NEEDS_BOARD:
            check_board(args.board)
        port = check_port(args.port, args.target)
    except UsageError as err:
        print("%s: %s" % (args.target, err), file=sys.stderr)
        return 2
    # A fresh directory per run: two deploys at once (or a deploy during `make run`) never
    # share half-built files.
    with tempfile.TemporaryDirectory(prefix="oxo5110-%s-" % args.target) as build_dir:
        try:
            cmd = commands(args.target, args.board, port, Path(build_dir))
        except RuntimeError as err:  # mpy-cross rejected a module
            print(err, file=sys.stderr)
            return 1
        result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        print("%s: mpremote failed (exit %d)" % (args.target, result.returncode), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
