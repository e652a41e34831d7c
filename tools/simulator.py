"""Play oxo5110 in a terminal: the unchanged firmware on the MicroPython unix port (make play).

main.py, the board file, the app and the drivers run as deployed under the real `micropython`,
with host stand-ins for `machine` and `time` (testbed/hostboard); the LCD is drawn in half
blocks in the glass's colours (braille, with the status column and the Coach's marks as text,
below 86x33). Keys are the buttons:

    Left / Up      PREV          Right / Down   NEXT          Space / Enter   SELECT
    h  hint (hold SELECT)        u  undo (hold PREV)          p  menu (hold NEXT)
    q / Ctrl-C     quit

Keys start once the firmware has drawn its first picture, then run in order: a press is the
button down 50 ms then up 50 ms, a hold keeps it down past the firmware's long press (SELECT
650 ms, PREV/NEXT 450 ms); keys typed faster wait in a queue of up to 16. A key that only woke
the board (the firmware swallows it after the backlight went off) says so. Colours: 24-bit
where $COLORTERM says truecolor, else 256; none with $NO_COLOR or no terminal. `--script FILE`
replays presses from boot on, then quits: lines `select`, `prev`, `next` (optionally `xN`, N up
to 1000), `hold select|prev|next`, `wait MS` (up to 600000), `#` comments. If the firmware
stops (safe mode, a crash) the simulator shows the last picture, says why and exits with status
3. docs/commands.md says the rest: sound, the board's flash and the link cable.
"""

import argparse
import os
import signal
import sys
from pathlib import Path

INTERRUPTED = 130  # exit status after a Ctrl-C before the first picture: 128 + SIGINT, as deploy's


def stopped_starting():
    """Say, in one line, that a Ctrl-C stopped the start-up; the exit status."""
    print("\r\nsimulator: stopped by Ctrl-C before the firmware had started", file=sys.stderr)
    return INTERRUPTED


if __name__ == "__main__":  # a Ctrl-C while the modules below load (Pillow's take a while)
    signal.signal(signal.SIGINT, lambda *_: sys.exit(stopped_starting()))

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "testbed")]

import boardlist  # noqa: E402
import cableport  # noqa: E402
import mpyrun  # noqa: E402
from simcolours import colour_mode  # noqa: E402
from simkeys import read_script, run_keyboard, run_script  # noqa: E402
from simprocess import FIRMWARE_STOPPED, Simulator, default_flash  # noqa: E402
from simsound import SOUND_MODES  # noqa: E402
from simview import Terminal  # noqa: E402

# -- the command -----------------------------------------------------------------------------


def main(argv=None):
    # From here on a Ctrl-C is a KeyboardInterrupt again: play() quits on it once the game is
    # on; before the first picture it ends here, in one line (the terminal restored first).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return play(options().parse_args(argv))
    except KeyboardInterrupt:
        return stopped_starting()


def options():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog=__doc__.split("\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--board", default="pico", help="board file to simulate (default pico)")
    parser.add_argument("--png", type=Path, metavar="DIR", help="save every new frame as PNG")
    parser.add_argument("--script", type=Path, metavar="FILE", help="replay presses from FILE")
    parser.add_argument(
        "--flash",
        type=Path,
        help="the board's filesystem: settings.json, the tally (default %s)"
        % tilde(default_flash()),
    )
    parser.add_argument(
        "--sound",
        choices=SOUND_MODES,
        default="on",
        help="the buzzer: on (a WAV to an audio player found on PATH, else the bell; the "
        "default), bell (the terminal bell), off",
    )
    parser.add_argument(
        "--hold-at-boot",
        choices=("select", "prev", "next"),
        help="hold this button from power-on: the firmware's safe mode (to see it)",
    )
    parser.add_argument(
        "--cable",
        metavar="PORT",
        help="the link cable (make play LINK=PORT): %s" % cableport.HELP,
    )
    return parser


def play(args):
    try:
        boardlist.board_file(args.board)
        cable = None
        if args.cable is not None:
            cable = cableport.port(args.cable)
            cableport.environ(args.board, cable)  # the board has a cable
        steps = read_script(args.script) if args.script else None
        for option, path in (("--png", args.png), ("--flash", args.flash)):
            if path is not None:
                folder(option, path)
    except (ValueError, OSError) as err:
        print("simulator:", err, file=sys.stderr)
        return 2
    interactive = steps is None
    if interactive and not sys.stdin.isatty():
        print("simulator: the keyboard must be a terminal (or use --script FILE)", file=sys.stderr)
        return 2
    if mpyrun.micropython_path() is None:  # said before the terminal goes raw
        print("simulator: %s; `make play` needs it" % mpyrun.UNAVAILABLE, file=sys.stderr)
        return 1
    tty_out = sys.stdout.isatty()
    sim = Simulator(
        args.board,
        args.flash,
        hold_at_boot=args.hold_at_boot and args.hold_at_boot.upper(),
        sound=args.sound,
        cable=cable,
        png_dir=args.png,
        clear=tty_out,
        colours=colour_mode(os.environ, tty_out),
    )
    terminal = Terminal(sim, sys.stdin.fileno()) if interactive else None
    error = None
    finished = False
    try:
        if terminal is not None:
            terminal.enter()
        sim.screen.draw()
        sim.start()
        finished = run_keyboard(sim, sys.stdin.fileno()) if interactive else run_script(sim, steps)
    except RuntimeError as err:
        error = str(err)
    except KeyboardInterrupt:  # a SIGINT, or Ctrl-C typed (Keyboard)
        if not sim.ready:
            raise  # before the first picture: main() says so
        finished = True
    finally:
        sim.stop()
        if terminal is not None:
            terminal.restore()
    # Everything below is said with the terminal restored (cooked mode, cursor shown).
    if error is not None:
        print("\r\nsimulator:", error, file=sys.stderr)
        return 1
    if not finished and sim.stopped_by_itself():
        print("\r\nsimulator: %s" % sim.why(), file=sys.stderr)
        return FIRMWARE_STOPPED
    print("\r\n" + "\r\n".join(closing(sim, args)))
    return 0


def folder(option, path):
    """Make the folder `option` names, with its parents; else a ValueError saying why not."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        in_the_way = isinstance(err, (FileExistsError, NotADirectoryError))
        why = (
            "a file is in the way" if in_the_way else "cannot make this folder (%s)" % err.strerror
        )
        said = "%s %s: %s; give a folder that exists or can be made" % (option, path, why)
        raise ValueError(said) from None


def closing(sim, args):
    """What the simulator says as it ends: the frames saved (--png), where the board's flash
    keeps the settings and scores, and how to play on with them."""
    lines = []
    if args.png:
        saved = "simulator: %d frames saved in %s (frame00001.png on)"
        lines.append(saved % (sim.screen.frames, args.png))
    again = "the same command"
    if args.flash is None:
        board = "" if args.board == "pico" else " BOARD=" + args.board
        flash = "" if sim.flash == default_flash() else " FLASH=" + str(sim.flash)
        again = "`make play%s%s`" % (board, flash)
    kept = "simulator: your settings and scores are kept in %s (the board's flash); %s plays on "
    return lines + [kept % (tilde(sim.flash), again) + "with them"]


def tilde(path):
    """`path` as a person types it: ~ for the home folder."""
    home, where = str(Path.home()), str(path)
    return "~" + where[len(home) :] if where.startswith(home + os.sep) else where


if __name__ == "__main__":
    sys.exit(main())
