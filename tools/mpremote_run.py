"""Running mpremote for deploy.py: in the terminal's foreground, or followed (`make run`), with
the keyboard read here so that a stop key interrupts the program on the board."""

import os
import select
import signal
import subprocess
import sys
import termios  # POSIX only, as boardport's fcntl: deploy.py does not run on Windows
import time

from deploy_chains import ROOT

STOP_KEYS = b"\x03\x1d\x18"  # Ctrl-C, and the keys that leave mpremote's repl: Ctrl-] Ctrl-x


def run_foreground(cmd, log=None, keep_stderr=False):
    """Run mpremote in the terminal's foreground; (exit code, whether Ctrl-C was pressed, what it
    printed if `log`, its stderr if keep_stderr, else None). With `log` (a path), what mpremote
    prints (stdout and stderr) is kept there instead of shown: a deploy's one line per copied
    file. keep_stderr leaves its stdout (a REPL) on the terminal.

    A Ctrl-C reaches mpremote as well (same process group): it stops what runs on the board and
    lets go of the port. This process only notes it and waits, so mpremote is never killed half
    way (subprocess.run would kill it 0.25 s after a KeyboardInterrupt)."""
    pressed = []
    previous = signal.signal(signal.SIGINT, lambda *_: pressed.append(True))
    captured = {"stderr": subprocess.PIPE} if keep_stderr else {}
    if log is not None:
        captured = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}
    try:
        # The output is read into memory and written to the log afterwards: two deploys at
        # once each keep (and show) their own, whichever writes the log last.
        done = subprocess.run(cmd, cwd=ROOT, **captured)
    finally:
        signal.signal(signal.SIGINT, previous)
    said = done.stdout if log is not None else done.stderr
    said = None if said is None else said.decode("utf-8", "replace")
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(said, encoding="utf-8")
    return done.returncode, bool(pressed), said


def _keyboard():
    """stdin's fd if it is this process's terminal in the foreground, else None."""
    try:
        fd = sys.stdin.fileno()
        if os.isatty(fd) and os.tcgetpgrp(fd) == os.getpgrp():
            return fd
    except (OSError, ValueError):
        pass
    return None


def interrupt_board(port):
    """Write a Ctrl-C to the board beside mpremote, which holds the port (its lock is an
    advisory flock: a plain open still works; closing this second descriptor leaves DTR)."""
    try:
        fd = os.open(port, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return
    try:
        os.write(fd, b"\x03")
    except OSError:
        pass
    finally:
        os.close(fd)


def run_followed(cmd, port):
    """`make run`: mpremote follows the program until it ends or a stop key is pressed;
    (exit code, None if it ran to its end, else (what mpremote said on stderr after the stop,
    the signal that stopped it or None for a key)).

    mpremote's `run` never reads the keyboard (Ctrl-] and Ctrl-x are `repl`'s), and its Ctrl-C
    does not tell the board (micropython/micropython#4626): with a mount it then waits 10 s
    and ends in a traceback ("could not enter raw repl"). So the keyboard is read here, raw,
    and a stop key (or SIGINT, SIGTERM, SIGHUP) sends Ctrl-C to the board: the program ends
    with KeyboardInterrupt, mpremote unmounts and leaves the board at its REPL. mpremote runs
    in its own process group; its output after the stop (the traceback) is kept back."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, process_group=0
    )
    stop_at = []  # when the stop was asked for, and the signal that asked (None: a key)
    kept = []  # mpremote's stderr after the stop

    def stop(signum=None, _frame=None):
        if not stop_at:
            stop_at.append((time.monotonic(), signum))
            interrupt_board(port)

    handlers = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    handlers[signal.SIGHUP] = signal.signal(signal.SIGHUP, stop)
    key = _keyboard()
    saved = None
    if key is not None:
        saved = termios.tcgetattr(key)
        mode = termios.tcgetattr(key)
        mode[3] &= ~(termios.ISIG | termios.ICANON | termios.ECHO)
        mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
        termios.tcsetattr(key, termios.TCSANOW, mode)
    outputs = {proc.stdout.fileno(): sys.stdout, proc.stderr.fileno(): sys.stderr}
    sent = 1
    try:
        while outputs:
            watch = list(outputs) + ([key] if key is not None and not stop_at else [])
            ready, _, _ = select.select(watch, [], [], 0.5)
            if stop_at and not ready:
                # A Ctrl-C that came while the mount had it off (micropython.kbd_intr(-1)
                # during a file operation) was data: say it again, then make mpremote go.
                waited = time.monotonic() - stop_at[0][0]
                if waited > sent and sent < 4:
                    interrupt_board(port)
                    sent += 1
                elif waited > 15 and proc.poll() is None:
                    proc.kill()
            for fd in ready:
                if fd == key:
                    if any(k in STOP_KEYS for k in os.read(key, 64)):
                        stop()
                    continue
                data = os.read(fd, 65536)
                if not data:
                    del outputs[fd]
                elif not stop_at:
                    outputs[fd].buffer.write(data)
                    outputs[fd].flush()
                elif outputs[fd] is sys.stderr:
                    kept.append(data)
        code = proc.wait()
    finally:
        if saved is not None:
            termios.tcsetattr(key, termios.TCSADRAIN, saved)
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if not stop_at:
        return code, None
    return code, (b"".join(kept).decode(errors="replace").strip(), stop_at[0][1])


def run_stopped(said, signum):
    """The one line after `make run` was stopped: what mpremote did with the board. A key or
    SIGINT is the way out (exit 0); SIGTERM or SIGHUP ends with 128 + the signal."""
    if said:
        last = said.splitlines()[-1]
        print("run: stopped, but mpremote did not let go of the board cleanly: %s" % last)
        print("run: press the board's reset button if it does not answer", file=sys.stderr)
        return 1
    print(
        "run: stopped: the program on the board was interrupted and the board waits at its "
        "REPL (reset it to start the game on its flash)"
    )
    return 0 if signum in (None, signal.SIGINT) else 128 + signum
