# One board of a link game on the host, stepped from outside: testbed/linktwin.py runs two of
# these and is the cable between them.
# SPDX-License-Identifier: MIT
"""Run under the unix port with the host board first on MICROPYPATH:
`micropython linkboard_mp.py <board> <start_ms>`. A hostapp.HostApp of `board` (the App alone,
its own RAM flash and fake clock from start_ms, its buzzer on) whose link cable's UART is
plugged into end a of a cable.Cable: what the firmware writes waits at end b for the
coordinator, and what the coordinator feeds comes in at end a. One command a line on stdin,
one answer a line on stdout:

    run <ms>         step the App for ms; answers "ok <hex of the bytes written meanwhile>"
    feed <hex>       these bytes arrive on the UART's wire; answers "ok"
    down <button>    push a button (a buttons name: SELECT, PREV, NEXT); answers "ok"
    up <button>      let it go; answers "ok"
    eval <expr>      answers repr(expr) with `h` the HostApp (a glass read: h.cell(4), ...)
                     and `machine` the host board's (its buzzer: machine.PWMS[0])

An exception answers "error <repr of its traceback>" and the board goes on (the coordinator
fails the test with it)."""

import binascii
import io
import sys

import cable
import hostapp
import machine


def _answer(h, wire, line):
    word, _, rest = line.partition(" ")
    if word == "run":
        h.run(int(rest))
        out = binascii.hexlify(wire.b.inbox).decode()
        wire.b.inbox[:] = b""
        return "ok " + out
    if word == "feed":
        wire.a.inbox.extend(binascii.unhexlify(rest))
        return "ok"
    if word == "down" or word == "up":
        import buttons

        getattr(h, word)(getattr(buttons, rest))
        return "ok"
    if word == "eval":
        return repr(eval(rest, {"h": h, "machine": machine}))
    raise ValueError("unknown command %r" % word)


def main():
    board, start_ms = sys.argv[1], int(sys.argv[2])
    wire = cable.Cable()
    h = hostapp.HostApp(board, start_ms=start_ms)
    machine.plug(h.board().LINK_UART, wire.a)
    h.start(buzzer=True)  # its sounds are heard: machine.PWMS[0]
    print("ready")
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        try:
            answer = _answer(h, wire, line.strip())
        except Exception as exc:  # noqa: BLE001 - said to the coordinator, which fails the test
            trace = io.StringIO()
            sys.print_exception(exc, trace)
            answer = "error " + repr(trace.getvalue())
        print(answer)


main()
