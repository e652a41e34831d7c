"""What each deploy.py target builds, and the mpremote command line that puts it on the board."""

import shutil
import sys
from pathlib import Path

import boardlist
import layout
import mpy_build
from boardport import UsageError

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("deploy", "run", "repl", "erase-settings", "mip")
# mpremote itself, but a Ctrl-C that lands outside its own handler ends it quietly (its main()
# still lets go of the board first) instead of with a traceback.
MPREMOTE = (
    "import sys\nfrom mpremote.main import main\ntry:\n    sys.exit(main())\n"
    "except KeyboardInterrupt:\n    sys.exit(130)\n"
)
# Removing a file that may not be there must not stop the chain (mpremote's `fs rm` would).
REMOVE = (
    "import os\nfor n in %r:\n    try:\n        os.remove(n)\n        print('removed', n)\n"
    "    except OSError:\n        pass\n"
)
# Before deploy's and mip's copies: the board's littlefs root remounted without modification
# times (tools/nomtime.py, sent as text; its comments stay here), so the board boots as fast as
# from `make image`. The reset after the copy mounts it as the port always does.
NOMTIME = ROOT / "tools" / "nomtime.py"


def remount(names):
    """The board-side code that remounts the root without modification times (where the port
    is rp2 or esp32 and the root is littlefs; elsewhere it does nothing) and removes those of
    names that have one, so that the copy writes them afresh."""
    lines = NOMTIME.read_text(encoding="utf-8").splitlines()
    code = "\n".join(line for line in lines if line.strip() and not line.lstrip().startswith("#"))
    return code + "\nmain(%r)\n" % (sorted(names),)


def check_board(board, target="deploy"):
    try:
        return boardlist.given(board, "make %s BOARD=pico PORT=/dev/ttyACM0" % target)
    except ValueError as err:
        raise UsageError(str(err)) from None


# A virtual board that models no port (boardport.board_platform) stands in for every board (a
# Pico and an ESP32 alike), so a board file for any port may go on it.
VIRTUAL_BOARD = "linux"


def check_platform(board, platform, port):
    """Refuse a board file written for another MicroPython port than the board at port runs."""
    wanted = boardlist.port_of(board)
    if platform in (wanted, VIRTUAL_BOARD):
        return
    fits = [name for name in boardlist.known_boards() if boardlist.port_of(name) == platform]
    use = " or ".join("BOARD=" + name for name in fits) or "no board file in boards/ is for it"
    raise UsageError(
        "board file %s.py is for %s; the board at %s runs %s: use %s"
        % (board, wanted, port, platform, use)
    )


def build_deploy(board, out_dir, lines=False):
    """Compile the firmware for `board` into out_dir; return (mpy files, board.mpy, main.py).
    Without line numbers (mpy_build.compile_module: lines=False), as a board runs it, unless
    `lines`."""
    mpys = mpy_build.compile_all(out_dir, layout.sources(main=False), lines=lines)
    staged = out_dir / "board" / "board.py"
    staged.parent.mkdir()
    shutil.copyfile(check_board(board), staged)
    board_mpy = mpy_build.compile_module(staged, out_dir, lines=lines)
    shutil.rmtree(staged.parent)  # `make run` mounts out_dir: a board/ folder would be imported
    return mpys, board_mpy, layout.source("main")


def stage(board, out_dir, lines=False):
    """out_dir holding what a board's flash holds after `make deploy` (build_deploy, and
    main.py as source beside the .mpy files); return out_dir."""
    _mpys, _board_mpy, main_py = build_deploy(board, out_dir, lines)
    shutil.copyfile(main_py, out_dir / "main.py")
    return out_dir


def mpremote(port, *chain):
    return [sys.executable, "-c", MPREMOTE, "connect", port] + list(chain)


def deploy_commands(port, mpys, board_mpy, main_py):
    # The .py twins a `make mip` left: MicroPython imports a .py before its .mpy.
    shadows = sorted({p.stem + ".py" for p in mpys} | {"board.py"})
    copied = [p.name for p in mpys] + ["board.mpy", "main.py"]
    return mpremote(
        port,
        *("exec", remount(copied) + REMOVE % (shadows,)),
        *("+", "fs", "cp", *[str(p) for p in mpys], ":"),
        *("+", "fs", "cp", str(board_mpy), ":board.mpy"),
        *("+", "fs", "cp", str(main_py), ":main.py"),
    )


def amount(files):
    size = sum(Path(p).stat().st_size for p in files)
    return "%d files (%d KB)" % (len(files), round(size / 1024))


def commands(target, board, port, build_dir):
    """(the mpremote command line, what it puts on the board in words), building what it needs
    in build_dir first."""
    if target == "deploy":
        mpys, board_mpy, main_py = build_deploy(board, build_dir)
        files = mpys + [board_mpy, main_py]
        print(
            "deploy: %d modules as bytecode .mpy (no -march: no native code) + board.mpy (%s) "
            "+ main.py source, %d bytes, to %s"
            % (len(mpys), board, sum(p.stat().st_size for p in files), port)
        )
        what = "deployed %s to %s on %s" % (amount(files), board, port)
        return deploy_commands(port, mpys, board_mpy, main_py), what
    if target == "run":
        # This checkout compiled as deploy compiles it (the board loads bytecode rather than
        # compiling the game in its own RAM), with line numbers for a developer's tracebacks.
        staged = stage(board, build_dir, lines=True)
        return mpremote(port, "mount", str(staged), "+", "run", str(staged / "main.py")), ""
    if target == "repl":
        return mpremote(port, "repl"), ""
    if target == "erase-settings":
        cmd = mpremote(port, "exec", REMOVE % (["settings.json"],))
        return cmd, "settings.json is gone from the board on %s" % port
    if target == "mip":
        # mpremote's mip reads a local package.json and the files it names relative to it
        # (mpremote/mip.py, _install_json): no network, no repository URL.
        package = ROOT / "package.json"
        board_file = check_board(board)
        files = layout.sources() + [board_file]
        names = [p.name for p in files[:-1]] + ["board.py"]
        # A deploy's .mpy twins go: a later deploy removes these .py in turn (deploy_commands).
        twins = sorted(n[:-3] + ".mpy" for n in names if n != "main.py")
        cmd = mpremote(
            port,
            *("exec", remount(names) + REMOVE % (twins,)),
            *("+", "mip", "install", "--target", "/", str(package)),
            *("+", "fs", "cp", str(board_file), ":board.py"),
        )
        return cmd, f"installed {amount(files)} with mip (sources, board.py for {board}) on {port}"
    raise UsageError("unknown target %r: use one of %s" % (target, ", ".join(TARGETS)))
