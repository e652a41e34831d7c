"""The benchmarks' one measuring preamble: paths, the MicroPython unix port, the firmware as
.mpy, the timing loop and the figure line.

A bench/bench_<name>.py runs as `python bench/<name>.py` (so bench/ is first on sys.path) and
imports this first: tools/ and testbed/ are then on the path as the tests have them.
"""
# SPDX-License-Identifier: MIT

import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
TESTBED = ROOT / "testbed"
HOSTBOARD = TESTBED / "hostboard"
sys.path[:0] = [str(ROOT / "tools"), str(TESTBED)]

import layout  # noqa: E402
import mpy_build  # noqa: E402
import mpyrun  # noqa: E402


def on_cpython():
    """Put the firmware and the CPython shims (const()) on the path, for a bench that imports
    the firmware itself."""
    sys.path[:0] = [str(folder) for folder in layout.FOLDERS] + [str(TESTBED / "cpython")]


def skipped(name):
    """True, having said why, when the MicroPython unix port is missing: the bench then exits 0
    (a figure it cannot take is not a failure of the firmware)."""
    if mpyrun.micropython_path() is not None:
        return False
    print("%s: %s" % (name, mpyrun.UNAVAILABLE))
    return True


@contextmanager
def workdir():
    """A temporary folder (a Path), removed afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        yield Path(tmp)


def firmware_mpy(out_dir, *names):
    """The firmware's modules named (every one, board files too, when none is) compiled by
    mpy-cross into out_dir, as the tests and the simulator run them; out_dir."""
    sources = [layout.source(name) for name in names] if names else None
    mpy_build.compile_all(out_dir, sources)
    return out_dir


def hostboard_mpy(out_dir):
    """The host's stand-in machine and time (testbed/hostboard) compiled into out_dir."""
    mpy_build.compile_all(out_dir, sorted(HOSTBOARD.glob("*.py")))
    return out_dir


def run_app(name, script, heapsize, timeout=120):
    """Run a MicroPython half that drives the App on the test bed (`script`: its path, or its
    source) with a folder for its settings file as its argument: its standard output, or None
    when skipped(). It runs from the host's stand-ins (testbed/hostboard) and the firmware
    compiled into that folder, then testbed/ itself (hostapp) as source."""
    if skipped(name):
        return None
    with workdir() as tmp:
        if isinstance(script, str):
            (tmp / (name + "_mp.py")).write_text(script)
            script = tmp / (name + "_mp.py")
        paths = hostboard_mpy(tmp / "hb"), firmware_mpy(tmp / "mpy"), TESTBED
        return run_mp(name, script, (tmp,), paths, heapsize, timeout)


def run_mp(name, script, args=(), paths=(), heapsize="16k", timeout=120):
    """Run a bench's MicroPython half (a path) under the unix port: its standard output. When
    it fails, print what it said and exit 1, so that figures.py keeps the old figures."""
    res = mpyrun.run(script, args=args, paths=paths, heapsize=heapsize, timeout=timeout)
    if res.returncode != 0:
        print("%s failed:\n%s%s" % (name, res.stdout, res.stderr), file=sys.stderr)
        sys.exit(1)
    return res.stdout


def keyed(output):
    """A MicroPython half's lines `NAME value ...` as {NAME: [value, ...]} (strings)."""
    return {
        head: rest
        for head, *rest in (line.split() for line in output.splitlines() if line.strip())
    }


def mean_s(fn, runs):
    """fn()'s last result and the mean of `runs` calls, in seconds (time.perf_counter)."""
    start = time.perf_counter()
    for _ in range(runs):
        result = fn()
    return result, (time.perf_counter() - start) / runs


def row(*cells):
    """One line of a figures table (Markdown): | cell | cell | ... |."""
    print("| %s |" % " | ".join(str(cell) for cell in cells))


def header(*names):
    """A figures table's first line and its rule."""
    row(*names)
    print("|" + "---|" * len(names))


def ms(value):
    """A time in ms for a figure line: whole above 10 ms, else to a tenth."""
    return "%.0f ms" % value if value >= 10 else "%.1f ms" % value
