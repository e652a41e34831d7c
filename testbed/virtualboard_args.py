"""The virtual board's command line: its options, and `--board NAME` that fills them in.

`--board pico` (what `make vboard BOARD=pico` runs) stands in for boards/pico.py with the
firmware deployed to it: its flash is build/virtual-pico, its port the link build/ttyACM0,
away for 1.5 s after a reset as a Pico's native USB is; the LCD, buttons and buzzer are the
simulator's stand-ins (testbed/hostboard, simulator_mp), which nothing shows. An ESP32 board
(behind a USB-serial bridge) gets build/ttyUSB0, which stays. Options given as well win.
`--cable PORT` (with `--board`) is the board's link cable, as the simulator's (cableport.py).
"""

import argparse
from pathlib import Path

import boardlist
import cableport
from interpreter import HEAPSIZE
from serialline import USB_OF_PORT

ROOT = Path(__file__).resolve().parents[1]


def parse(argv=None, description=None):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--board",
        help="stand in for boards/BOARD.py as deployed: the options below default to its "
        "(flash build/virtual-BOARD, port build/ttyACM0 with --usb-gap 1.5 for a Pico)",
    )
    parser.add_argument("--flash", type=Path, help="the board's filesystem")
    parser.add_argument(
        "--heapsize", default=HEAPSIZE, help="MicroPython heap (default %s, a Pico's)" % HEAPSIZE
    )
    parser.add_argument("--name", default="virtual board", help="name in the REPL banner")
    parser.add_argument("--link", type=Path, help="also make this symlink to the port")
    parser.add_argument("--setup", help="module to import at every start (e.g. simulator_mp)")
    parser.add_argument(
        "--port",
        help="the MicroPython port the stand-ins model (rp2, esp32) until a board file names its "
        "own; default generic",
    )
    parser.add_argument(
        "--usb-gap",
        type=float,
        default=0.0,
        help="seconds the port is away after a hard reset, as on a board with native USB "
        "(1.5 models a Pico; needs --link); default 0, a USB-serial bridge",
    )
    parser.add_argument(
        "--cable",
        metavar="PORT",
        help="the link cable (make vboard LINK=PORT; needs --board): %s" % cableport.HELP,
    )
    board = parser.parse_known_args(argv)[0].board
    if board is not None:  # the options it gives
        try:
            port = boardlist.port_of(board)
        except ValueError as err:  # make vboard BOARD=...: its one line, no usage
            parser.exit(2, "virtualboard: %s\n" % err)
        # A port not in the table: a USB-serial bridge, the commonest.
        node, usb_gap = USB_OF_PORT.get(port, USB_OF_PORT["esp32"])
        build = ROOT / "build"
        parser.set_defaults(flash=build / ("virtual-" + board), link=build / node, port=port)
        parser.set_defaults(usb_gap=usb_gap, setup="simulator_mp", name="virtual " + board)
    args = parser.parse_args(argv)
    if args.flash is None:
        parser.error("give --flash DIR (the board's filesystem) or --board NAME")
    if args.usb_gap and not args.link:
        parser.error("--usb-gap needs --link: the port's name must outlive its pty")
    if args.cable is not None:
        if board is None:
            parser.error("--cable needs --board: the cable is plugged into the board's LINK_UART")
        try:
            args.cable = cableport.environ(board, cableport.port(args.cable))
        except ValueError as err:
            parser.exit(2, "virtualboard: %s\n" % err)
    return args
