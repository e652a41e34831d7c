"""Type-check the firmware with mypy against each board's MicroPython stubs (`make typecheck`).

Each port's stubs (micropython-<port>-stubs plus micropython-stdlib-stubs, which replaces
typeshed's CPython stdlib) live in their own `.venv/stubs/<port>` because every port package
provides `machine`, `time`, `framebuf`... For every board file, mypy runs once over every
firmware module (tools/layout.py) plus that board file copied as `board.py` (its name on the
device, so `main.py`'s `import board` is checked against the real board).

The firmware has no annotations, so `check_untyped_defs` makes mypy check every body: calls
into the device APIs (a misspelt method, a wrong argument count, a constant the port lacks)
are errors. Errors inside the stubs themselves are not ours and are silenced (see FLAGS).
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import boardlist
import layout

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / ".venv" / "stubs"
CACHE = ROOT / ".mypy_cache"

FLAGS = """\
[mypy]
python_version = 3.11
custom_typeshed_dir = {stubs}
mypy_path = {stubs}
no_site_packages = True
cache_dir = {cache}
check_untyped_defs = True
# Re-binding a name to a value of another type (text, then its bytes) is ordinary MicroPython
# (one name, one RAM slot); mypy then types each binding separately.
allow_redefinition = True
strict_equality = True
extra_checks = True
warn_redundant_casts = True
warn_unused_ignores = True
# Unannotated code: `x = None` then `x = button` makes mypy infer Optional, and it cannot see
# the invariant that guards the use (`held == 1`), so union-attr would only report false alarms.
# has-type ("Cannot determine type") is the same blindness for attributes set in a subclass.
disable_error_code = union-attr, has-type
enable_error_code = possibly-undefined, redundant-expr, ignore-without-code
ignore_errors = True

[mypy-{modules}]
ignore_errors = False
"""

_ERROR = re.compile(r"^.+?:\d+: error: ")


def stub_dir(port, stubs_root=STUBS):
    path = Path(stubs_root) / port
    if not (path / "stdlib" / "VERSIONS").exists() or not (path / "machine.pyi").exists():
        raise RuntimeError(
            "stubs for port %r are not installed in %s: run `make typecheck` (it installs "
            "requirements-stubs.txt with pip --target)" % (port, path)
        )
    return path


def run_mypy(port, files, stubs_root=STUBS, cache_dir=None, rename=None):
    """Run mypy over `files` (paths) with the port's stubs; return (message lines, error count).

    Every given file is checked strictly; modules they import from the stubs are not reported.
    `rename` maps a path as mypy prints it to the path to show instead.
    """
    stubs = stub_dir(port, stubs_root)
    modules = ",".join(sorted({Path(f).stem for f in files}))
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "mypy.ini"
        cache = cache_dir or Path(tmp) / "cache"
        config.write_text(FLAGS.format(stubs=stubs, cache=cache, modules=modules))
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(config), "--no-error-summary"]
            + ["--no-color-output", "--no-pretty"]
            + [str(f) for f in files],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    if result.returncode not in (0, 1):
        raise RuntimeError("mypy failed to run:\n" + result.stdout + result.stderr)
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    for old, new in (rename or {}).items():
        lines = [line.replace(old, new) for line in lines]
    return lines, sum(1 for line in lines if _ERROR.match(line))


def check_board(name, boards_dir=boardlist.BOARDS):
    """Type-check the firmware plus boards/<name>.py (as board.py) for the board's port."""
    port = boardlist.port_of(name, boards_dir)
    if port is None:
        raise RuntimeError(
            'boards/%s.py has no port: add a line PORT = "<port>" to it '
            "(rp2 or esp32, the stub packages in requirements-stubs.txt)" % name
        )
    firmware = layout.sources()
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp) / "board.py"
        shutil.copyfile(boardlist.board_file(name, boards_dir), board)
        files = [f.relative_to(ROOT) for f in firmware] + [board]
        rename = {str(board): "boards/%s.py" % name}
        return run_mypy(port, files, cache_dir=CACHE / name, rename=rename)


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args(argv)
    boards = boardlist.known_boards()
    if not boards:
        print("typecheck: no board files under boards/", file=sys.stderr)
        return 1
    failed = 0
    for name in boards:
        try:
            lines, errors = check_board(name)
        except (RuntimeError, ValueError) as err:
            print("typecheck: %s" % err, file=sys.stderr)
            return 2
        for line in lines:
            print(line)
        said = "%d error(s)" % errors if errors else "no errors"
        print("typecheck %s (%s stubs): %s" % (name, boardlist.port_of(name), said))
        failed += errors
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
