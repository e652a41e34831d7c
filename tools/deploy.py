"""Put the firmware on a board with mpremote: deploy, repl, run (mounted), erase-settings, mip.

    make deploy BOARD=pico PORT=/dev/ttyACM0   compile and copy everything, then reset the board
    make run    BOARD=pico PORT=/dev/ttyACM0   run this checkout, compiled as deploy compiles it,
                                               from a mount (nothing copied); Ctrl-C stops it
    make repl   PORT=/dev/ttyACM0              the board's REPL (Ctrl-] or Ctrl-x to leave)
    make erase-settings PORT=/dev/ttyACM0      delete settings.json (defaults at next start)
    make mip    BOARD=pico PORT=/dev/ttyACM0   `mpremote mip install` of this checkout's
                                               package.json (sources), board.py, then reset

Deploy compiles every firmware module except main.py with mpy-cross to bytecode .mpy (no
native or viper code is used, so no -march: the same files run on any port), compiles the board
file as board.mpy, keeps main.py as source (so a board boots it and a person can read it),
removes stale .py copies that would shadow the .mpy files, and resets the board. settings.json
and error.log on the board are kept. Every step is one `mpremote connect PORT ...` chain.

A board with native USB (a Pico) loses its port for about 1.5 s after a reset. Every target
first waits for a missing port (up to --wait seconds); the targets that reset the board
(deploy, erase-settings, mip) then watch the port go and come back, ask the REPL whether
main.py is running, and end with one line saying what they saw.
"""

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import boardlist
import mpy_build
import serial
from serial.tools import list_ports

try:
    import termios
except ImportError:  # Windows: `make run` keeps the console as it is
    termios = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
TARGETS = ("deploy", "run", "repl", "erase-settings", "mip")
NEEDS_BOARD = ("deploy", "run", "mip")
RESETS = ("deploy", "erase-settings", "mip")  # their chains end with mpremote's `reset`

PORT_WAIT = 10.0  # s for a missing port: a Pico's is back ~1.5 s after a reset, hubs add more
GONE_WAIT = 1.0  # s for the port to go after mpremote's reset (it sleeps 100 ms, then resets)
SETTLE = 1.0  # s a port that exists may refuse to open: udev sets its owner and mode just after
PROBE_WAIT = 0.3  # s for the REPL to answer a bare Enter (it does in milliseconds)
POLL = 0.02
STOP_KEYS = b"\x03\x1d\x18"  # Ctrl-C, and the keys that leave mpremote's repl: Ctrl-] Ctrl-x

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


class UsageError(Exception):
    """A wrong BOARD or PORT: the message says what to use instead."""


# -- the port ---------------------------------------------------------------------------------


def is_com(port):
    return port.upper().startswith("COM") and port[3:].isdigit()


def present(port):
    """Whether the port's device exists (a Windows COM port has no path: ask pyserial)."""
    if is_com(port):
        return any(p.device.upper() == port.upper() for p in list_ports.comports())
    return os.path.exists(port)


def open_error(port):
    """None if the port opens now, else why not (FileNotFoundError while it is away)."""
    if is_com(port):
        return None if present(port) else FileNotFoundError(2, "no such port", port)
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as err:
        return err
    os.close(fd)
    return None


def wait_ready(port, seconds):
    """Wait up to `seconds` for the port to open; None, or why it did not. A port that exists
    but refuses gets SETTLE seconds, not the whole wait (no permission is no typo)."""
    start = time.monotonic()
    settle_end = None
    while True:
        err = open_error(port)
        now = time.monotonic()
        if err is None:
            return None
        if present(port) and settle_end is None:
            settle_end = now + SETTLE
        if now - start >= seconds or (settle_end is not None and now >= settle_end):
            return err
        time.sleep(POLL)


def port_problem(port, err, waited):
    if not present(port):
        return (
            "port %s does not exist (waited %g s for it): is the board plugged in? (Linux: "
            "/dev/ttyACM0 for a Pico, /dev/ttyUSB0 for most ESP32 boards; "
            "`.venv/bin/mpremote connect list` shows them)" % (port, waited)
        )
    return "cannot open %s: %s (Linux: is your user in the dialout group?)" % (
        port,
        err.strerror or err,
    )


def check_port(port, target="deploy", wait=PORT_WAIT):
    """The port, once it opens; a missing one is waited for (it may be coming back after a
    reset), up to `wait` seconds."""
    if not port:
        raise UsageError(
            "no PORT given: use e.g. `make %s%s PORT=/dev/ttyACM0` "
            "(`.venv/bin/mpremote connect list` shows the connected boards)"
            % (target, " BOARD=pico" if target in NEEDS_BOARD else "")
        )
    if open_error(port) is None:
        return port
    if not present(port):
        print(
            "%s: waiting for %s to come back (up to %g s; a Pico's port is away for about "
            "1.5 s after a reset)..." % (target, port, wait),
            flush=True,
        )
    err = wait_ready(port, wait)
    if err is not None:
        raise UsageError(port_problem(port, err, wait))
    return port


def wait_until(check, seconds):
    """True as soon as check() is, False after `seconds`."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() >= end:
            return False
        time.sleep(POLL)
    return True


def repl_answers(port, keys=b"\r", wait=PROBE_WAIT):
    """Whether the REPL answers a bare Enter (or `keys`) with a prompt. While main.py runs it
    does not answer an Enter (the byte waits in the program's stdin); once main.py has returned
    (safe mode, a board that could not be built) it does. Opened as mpremote opens it
    (115200, exclusive).

    "Answers" means: the prompt had come by `wait` s after the Enter. What came in time is
    read even if this process gets the CPU back only after the deadline (a busy machine)."""
    extra = {} if os.name == "nt" else {"exclusive": True}
    with serial.Serial(port, 115200, timeout=0.05, **extra) as line:
        line.reset_input_buffer()
        line.write(keys)
        seen = b""
        end = time.monotonic() + wait
        while True:
            late = time.monotonic() >= end
            seen += line.read(256)
            if b">>> " in seen:
                return True
            if late:
                return False


NO_REPL_WAIT = 1.0  # s for a prompt after Ctrl-C: MicroPython answers in milliseconds


def no_repl(port):
    """None if a MicroPython REPL answers on the port, else the line to end with (a wrong port,
    a board without MicroPython: mpremote would end in a "could not enter raw repl" traceback).
    Sends what mpremote sends first anyway (Ctrl-C stops main.py), then Ctrl-B, which leaves
    a raw REPL a stopped mpremote left behind; either REPL then prints its banner and prompt."""
    if repl_answers(port, b"\r\x03\x03\x02", NO_REPL_WAIT):
        return None
    return (
        "no MicroPython REPL answers on %s: is it the board's port, and does the board run "
        "MicroPython? See Install in README.md (one file to flash, or MicroPython first)" % port
    )


def after_reset(target, port, wait):
    """Watch the port after the chain's reset: (what happened, in words; exit code)."""
    gone = wait_until(lambda: not present(port), GONE_WAIT)
    for _ in range(2):  # a second round if the port goes late, while the REPL is asked
        if gone:
            print(
                "%s: waiting for %s to come back after the reset..." % (target, port), flush=True
            )
            start = time.monotonic()
            err = wait_ready(port, wait)
            if err is not None:
                return "it reset, but " + port_problem(port, err, wait), 1
            came = "it reset, %s came back after %.1f s" % (port, time.monotonic() - start)
        else:
            came = "it reset (%s stayed up, as behind a USB-serial bridge)" % port
        try:
            at_repl = repl_answers(port)
        except (OSError, serial.SerialException) as err:
            if present(port) or gone:
                return "%s, but the REPL could not be asked: %s" % (came, err), 1
            gone = True
            continue
        if at_repl:
            return (
                "%s, but main.py is not running: the REPL answers (safe mode, or main.py "
                "failed: `make repl PORT=%s` shows why)" % (came, port),
                1,
            )
        return "%s, and it is running the game (the REPL is busy with main.py)" % came, 0
    return "it reset, but %s kept going away" % port, 1


# -- building ---------------------------------------------------------------------------------


def check_board(board, target="deploy"):
    if not board:
        raise UsageError(
            "no BOARD given: choose one of %s, e.g. `make %s BOARD=pico PORT=/dev/ttyACM0`"
            % (", ".join(boardlist.known_boards()), target)
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
    shutil.rmtree(staged.parent)  # `make run` mounts out_dir: a board/ folder would be imported
    return mpys, board_mpy, FIRMWARE / "main.py"


def build_run(board, out_dir):
    """What `make run` mounts: this checkout compiled as deploy compiles it (the board then
    loads bytecode and does not compile app.py and the rest in its own RAM), main.py as
    source (mpremote runs it)."""
    mpys, board_mpy, main_py = build_deploy(board, out_dir)
    shutil.copyfile(main_py, out_dir / "main.py")
    return out_dir


def mpremote(port, *chain):
    return [sys.executable, "-c", MPREMOTE, "connect", port] + list(chain)


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
        staged = build_run(board, build_dir)
        return mpremote(port, "mount", str(staged), "+", "run", str(staged / "main.py")), ""
    if target == "repl":
        return mpremote(port, "repl"), ""
    if target == "erase-settings":
        cmd = mpremote(port, "exec", REMOVE % (["settings.json"],), "+", "reset")
        return cmd, "settings.json is gone from the board on %s" % port
    if target == "mip":
        # mpremote's mip reads a local package.json and the files it names relative to it
        # (mpremote/mip.py, _install_json): no network, no repository URL.
        package = ROOT / "package.json"
        board_file = check_board(board)
        files = sorted(FIRMWARE.glob("*.py")) + [board_file]
        cmd = mpremote(
            port,
            *("mip", "install", "--target", "/", str(package)),
            *("+", "fs", "cp", str(board_file), ":board.py"),
            *("+", "reset"),
        )
        return cmd, "installed %s with mip (sources, board.py for %s) on %s" % (
            amount(files),
            board,
            port,
        )
    raise UsageError("unknown target %r: use one of %s" % (target, ", ".join(TARGETS)))


# -- running mpremote -------------------------------------------------------------------------


def run_foreground(cmd):
    """Run mpremote in the terminal's foreground; (exit code, whether Ctrl-C was pressed).

    A Ctrl-C reaches mpremote as well (same process group): it stops what runs on the board and
    lets go of the port. This process only notes it and waits, so mpremote is never killed half
    way (subprocess.run would kill it 0.25 s after a KeyboardInterrupt)."""
    pressed = []
    previous = signal.signal(signal.SIGINT, lambda *_: pressed.append(True))
    try:
        code = subprocess.run(cmd, cwd=ROOT).returncode
    finally:
        signal.signal(signal.SIGINT, previous)
    return code, bool(pressed)


def _keyboard():
    """stdin's fd if it is this process's terminal in the foreground, else None."""
    if termios is None:
        return None
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

    Neither of mpremote's own ways out works here. Its `run` never reads the keyboard (Ctrl-]
    and Ctrl-x belong to `repl`, mpremote/repl.py), and a Ctrl-C only stops it following: the
    board is not told (micropython/micropython#4626), and with a mount mpremote then waits 10 s
    for a prompt the running program never gives and ends in a traceback ("could not enter raw
    repl", mpremote/commands.py do_disconnect). A Ctrl-C at the terminal would also be a SIGINT
    for make (its "Interrupt" line) and this script.

    So the keyboard is read here, unbuffered and with the terminal's signal keys off, and a
    stop key (or a SIGINT, SIGTERM or SIGHUP to this script) sends Ctrl-C to the board: the
    program ends with KeyboardInterrupt, mpremote sees it end, unmounts and leaves the board
    at its REPL. mpremote runs in a process group of its own with its output passed through;
    after the stop its output (the board's KeyboardInterrupt traceback) is kept back."""
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


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--board", default="", help="a boards/<name>.py name, e.g. pico")
    parser.add_argument("--port", default="", help="the board's serial port, e.g. /dev/ttyACM0")
    parser.add_argument(
        "--wait",
        type=float,
        default=PORT_WAIT,
        help="seconds to wait for a missing port, e.g. one coming back after a reset "
        "(default %g)" % PORT_WAIT,
    )
    args = parser.parse_args(argv)
    target = args.target
    try:
        return run_target(target, args.board, args.port, args.wait)
    except KeyboardInterrupt:
        print("\n%s: stopped by Ctrl-C" % target, file=sys.stderr)
        return 130


def run_target(target, board, port, wait):
    try:
        if target in NEEDS_BOARD:
            check_board(board, target)
        port = check_port(port, target, wait)
    except UsageError as err:
        print("%s: %s" % (target, err), file=sys.stderr)
        return 2
    if target == "repl" and not sys.stdin.isatty():
        print("repl: needs a terminal to type in (stdin is not one)", file=sys.stderr)
        return 2
    missing = None if target == "repl" else no_repl(port)
    if missing:
        print("%s: %s" % (target, missing), file=sys.stderr)
        return 1
    # A fresh directory per run: two deploys at once (or a deploy during `make run`) never
    # share half-built files.
    with tempfile.TemporaryDirectory(prefix="oxo5110-%s-" % target) as build_dir:
        try:
            cmd, what = commands(target, board, port, Path(build_dir))
        except RuntimeError as err:  # mpy-cross rejected a module
            print(err, file=sys.stderr)
            return 1
        if target == "run" and os.name != "nt":
            print("run: Ctrl-C (or Ctrl-] or Ctrl-x) stops it", flush=True)
            code, stopped_by = run_followed(cmd, port)
            if stopped_by is not None:
                return run_stopped(*stopped_by)
            stopped = False
        else:
            code, stopped = run_foreground(cmd)
    if stopped:
        print("%s: stopped by Ctrl-C before it finished" % target, file=sys.stderr)
        return 130
    if code != 0:
        print("%s: mpremote failed (exit %d)" % (target, code), file=sys.stderr)
        return 1
    if target not in RESETS:
        return 0
    words, code = after_reset(target, port, wait)
    print("%s: %s; %s" % (target, what, words), file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
