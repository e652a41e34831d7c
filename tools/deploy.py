"""Put the firmware on a board with mpremote: deploy, repl, run (mounted), erase-settings, mip.

    make deploy BOARD=pico PORT=/dev/ttyACM0   compile and copy everything, then reset the board
    make run    BOARD=pico PORT=/dev/ttyACM0   run this checkout, compiled as deploy compiles it,
                                               from a mount (nothing copied); Ctrl-C stops it
    make repl   PORT=/dev/ttyACM0              the board's REPL (Ctrl-] or Ctrl-x to leave)
    make erase-settings PORT=/dev/ttyACM0      delete settings.json (defaults at next start)
    make mip    BOARD=pico PORT=/dev/ttyACM0   `mpremote mip install` of this checkout's
                                               package.json (sources), board.py, then reset

What each target copies and says: docs/commands.md (Deploying). Each is one `mpremote connect
PORT ...` chain (deploy_chains.py), after waiting up to --wait s for a missing port and asking
the REPL the board's sys.platform (a BOARD for another port is refused). The targets that reset
the board do it once mpremote has let go (boardport.py), then watch the port and the REPL and
end with one line.
"""

import argparse
import math
import sys
import tempfile
from pathlib import Path

from boardport import (
    PORT_WAIT,
    PortProblem,
    UsageError,
    after_reset,
    board_platform,
    check_port,
    present,
    reset_board,
)
from deploy_chains import ROOT, TARGETS, check_board, check_platform, commands
from mpremote_run import run_followed, run_foreground, run_stopped

NEEDS_BOARD = ("deploy", "run", "mip")
RESETS = ("deploy", "erase-settings", "mip")  # reset_board() after their chains
# Their mpremote chains say one line per file copied: kept in LOG, shown (the last SHOWN lines)
# only if mpremote fails.
QUIET = ("deploy", "mip")
LOG = "build/%s.log"
SHOWN = 20


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--board", default="", help="a boards/<name>.py name, e.g. pico")
    parser.add_argument("--port", default="", help="the board's serial port, e.g. /dev/ttyACM0")
    parser.add_argument(
        "--wait",
        default=str(PORT_WAIT),
        help="seconds to wait for a missing port, e.g. one coming back after a reset "
        "(default %g)" % PORT_WAIT,
    )
    args = parser.parse_args(argv)
    target = args.target
    try:
        return run_target(target, args.board, args.port, seconds(args.wait))
    except KeyboardInterrupt:
        print("\n%s: stopped by Ctrl-C" % target, file=sys.stderr)
        return 130
    except (UsageError, PortProblem) as err:  # a wrong command line 2, a port that fails 1
        print("%s: %s" % (target, err), file=sys.stderr)
        return 2 if isinstance(err, UsageError) else 1


# How mpremote's last line reads when the port went from under it (a reset, a cable pulled):
# EIO from the ioctl in its close (transport_serial.close), or pyserial's read of a gone device.
GONE = ("[Errno 5]", "returned no data", "Device disconnected")


def went_away(port, said):
    """Whether the board's port went away under mpremote, which then failed saying `said`."""
    last = (said or "").strip().splitlines()[-1:]
    return not present(port) or any(sign in line for line in last for sign in GONE)


def seconds(wait):
    """WAIT as a number of seconds; UsageError if it is none, or negative (argparse's type=float
    would print its usage for "abc" and take "-1")."""
    try:
        value = float(wait)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise UsageError(
            "WAIT=%s: give the seconds to wait for a missing port, a number from 0 on "
            "(e.g. WAIT=10)" % wait
        )
    return value


def run_target(target, board, port, wait):
    if target in NEEDS_BOARD:
        check_board(board, target)
    port = check_port(port, target, wait, target in NEEDS_BOARD)
    if target == "repl" and not sys.stdin.isatty():
        raise UsageError("needs a terminal to type in (stdin is not one)")
    platform = None if target == "repl" else board_platform(port)
    if target in NEEDS_BOARD:
        check_platform(board, platform, port)
    # A fresh directory per run: two deploys at once (or a deploy during `make run`) never
    # share half-built files.
    with tempfile.TemporaryDirectory(prefix="oxo5110-%s-" % target) as build_dir:
        try:
            cmd, what = commands(target, board, port, Path(build_dir))
        except RuntimeError as err:  # mpy-cross rejected a module
            print(err, file=sys.stderr)
            return 1
        if target == "run":
            print("run: Ctrl-C (or Ctrl-] or Ctrl-x) stops it", flush=True)
            code, stopped_by = run_followed(cmd, port)
            if stopped_by is not None:
                return run_stopped(*stopped_by)
            stopped, said = False, None
        else:
            log = LOG % target if target in QUIET else None
            code, stopped, said = run_foreground(cmd, log and ROOT / log, target == "repl")
    if stopped:
        print("%s: stopped by Ctrl-C before it finished" % target, file=sys.stderr)
        return 130
    if target == "repl" and code != 0 and went_away(port, said):
        # machine.reset() at the REPL is a way to restart the game, not a failure: exit 0. The
        # port may have gone mid-line (the echo cut short): the line starts on one of its own.
        print(
            "\nrepl: the board reset or went away: `make repl PORT=%s` again to reconnect" % port
        )
        return 0
    if code != 0:
        if said:  # what went wrong is at the end of what mpremote said
            tail = said.rstrip().splitlines()[-SHOWN:]
            print("\n".join(tail), file=sys.stderr)
        where = "; all it said is in %s" % log if said and log else ""
        print("%s: mpremote failed (exit %d)%s" % (target, code, where), file=sys.stderr)
        return 1
    if target not in RESETS:
        return 0
    err = reset_board(port)
    if err is not None:
        print("%s: %s, but it could not be reset: %s" % (target, what, err), file=sys.stderr)
        return 1
    words, code = after_reset(target, port, wait)
    print("%s: %s; %s" % (target, what, words), file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
