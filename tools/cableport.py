"""The simulators' link cable on their command lines: `--cable PORT` (`make play LINK=PORT`,
`make vboard LINK=PORT`) joins boards that give the same port, over testbed/tcpcable.py.

The setting reaches the firmware's process as $SIMLINK_CABLE, "<port> <uart id>": simulator_mp
plugs a cable end into that UART, the board file's LINK_UART, before the board boots."""

import boardlist

ENV = "SIMLINK_CABLE"
# Below the ephemeral ports (Linux's from 32768), where a connect to nobody can meet itself
# (TCP simultaneous open); above the privileged ones.
LOWEST, HIGHEST = 1024, 32767
HELP = (
    "a TCP port on this machine from %d to %d, the same for both boards (say 5110): the first "
    "to open link play listens, the other joins it" % (LOWEST, HIGHEST)
)


def port(text):
    """The port `text` names; ValueError saying what is allowed."""
    if not (text.isascii() and text.isdigit() and LOWEST <= int(text) <= HIGHEST):
        raise ValueError("LINK (--cable) is %s; not %r" % (HELP, text))
    return int(text)


def environ(board, cable_port):
    """{ENV: ...} for `board` on the cable at `cable_port`; ValueError if the board file has no
    LINK_UART (no cable)."""
    uart = boardlist.constant(board, "LINK_UART", int)
    if uart is None:
        raise ValueError("board %r has no link cable (its file names no LINK_UART)" % board)
    return {ENV: "%d %d" % (cable_port, uart)}
