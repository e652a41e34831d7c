"""Two simulators on one link cable (`make play LINK=PORT`): each the firmware in its own
MicroPython process, joined by testbed/tcpcable.py on a localhost port; they find each other in
Link play, a move on one shows on the other, one quitting is a pulled cable for the other and a
new one another board. Also the option on the command lines (simulator, make, virtual board)."""

import os
import random
import socket
import subprocess

import cableport
import pytest
import simulator
import virtualboard_args
from deployrig import Line, enter_raw, powered_on
from simterm import ROOT, Board, pump


def free_port():
    """A port the cable may use (cableport's range) that nobody listens on now."""
    for _ in range(100):
        port = random.randint(20000, cableport.HIGHEST)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise AssertionError("no free port")


def to_link_play(boards):
    # From the title: a key to the menu, PREV to its last row ("Link play"), SELECT.
    pump(boards, lambda: all(b.ready for b in boards), 30)
    for board in boards:
        board.press("SELECT", "PREV", "SELECT")


@pytest.fixture
def cable_boards(tmp_path):
    if simulator.mpyrun.micropython_path() is None:
        pytest.skip(simulator.mpyrun.UNAVAILABLE)
    made = []
    port = free_port()

    def make(name):
        made.append(Board(tmp_path / name, port))
        return made[-1]

    yield make
    for board in made:
        board.stop()


def test_two_simulators_on_a_cable_play_each_other_and_a_new_one_is_another_board(cable_boards):
    a, b = cable_boards("a"), cable_boards("b")
    port = a.cable
    assert a.screen.notes == [
        "simulator: the link cable is on port %d: Link play here and on the other board" % port
    ]
    to_link_play((a, b))
    # Joined: each shows the board, one says YOU (its player is X), the other the X with "...".
    pump((a, b), lambda: all(" LINK " in x.status() for x in (a, b)))
    pump((a, b), lambda: {a.status()[:5], b.status()[:5]} == {"X YOU", "X ..."})
    mover, other = (a, b) if a.status().startswith("X YOU") else (b, a)
    assert other.cells() == mover.cells() == [""] * 9
    mover.press("SELECT")  # the mark on the cursor's cell
    # On both glasses, in the same cell (the mover's may still show its cursor there a moment).
    pump((a, b), lambda: "X" in other.cells() and other.cells() == mover.cells())
    assert mover.cells().count("X") == 1 and mover.cells().count("O") == 0
    pump((a, b), lambda: other.status().startswith("O YOU"))

    # The other simulator quits: a pulled cable for this one, NO LINK (after LOST_MS) where
    # the status column said LINK, over the board, read back as text (it read "????").
    other.stop()
    pump((mover,), lambda: "  NO LINK  " in mover.status() and mover.cells() is not None)
    # A new simulator on the same cable: another board, which the firmware says left.
    c = cable_boards("c")
    to_link_play((c,))
    pump((mover, c), lambda: mover.lines()[:3] == ["The other", "board has", "left."])
    assert c.lines()[2:5] == ["waiting", "for the", "other..."]


def test_a_wrong_cable_says_what_is_allowed_in_one_line(capsys):
    for wrong in ("abc", "80", "40000", "5110x"):
        assert simulator.main(["--cable", wrong, "--script", "/dev/null"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert err.startswith(
            "simulator: LINK (--cable) is a TCP port on this machine from 1024 to 32767"
        ) and err.rstrip().endswith("not %r" % wrong), err


def make_play(*args):
    """The command `make play` runs (make -n prints it without running it)."""
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", "play", *args],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [line for line in out.splitlines() if "simulator.py" in line][0].rstrip()


def test_make_play_passes_link_as_the_cable_and_without_it_none():
    assert make_play("LINK=5110").endswith('--cable "5110"')
    assert make_play("LINK=5110", "FLASH=b").endswith('--cable "5110" --flash "b"')
    assert "--cable" not in make_play() and "--flash" not in make_play()


def test_a_virtual_board_on_the_cable_has_its_link_uart_on_it(tmp_path, boards):
    # `make vboard LINK=port`: a Pico's UART0 is the cable. The test is the other end: it
    # listens first, the board's end joins it when the code opens the UART.
    port = free_port()
    listener = socket.socket()
    listener.bind(("127.0.0.1", port))
    listener.listen(1)
    listener.settimeout(10)
    vb = boards(
        tmp_path / "flash",
        setup="simulator_mp",
        port="rp2",
        cable=virtualboard_args.parse(["--board", "pico", "--cable", str(port)]).cable,
    )
    powered_on(vb)  # no main.py: at its REPL
    host = Line(vb.port)
    enter_raw(host)
    host.send(
        b"import machine\nu = machine.UART(0, 115200)\nend = machine.UARTS[0]._end\n"
        b"while end.state != 3: u.any()\nu.write(b'hi')\nb = bytearray(2)\n"
        b"while not u.any(): pass\nu.readinto(b)\nprint(bytes(b))\x04"
    )
    conn, _ = listener.accept()
    with conn, listener:
        conn.settimeout(10)
        assert conn.recv(2) == b"hi"
        conn.sendall(b"yo")
        assert host.until(b"\x04>") == b"OKb'yo'\n\x04\x04>"
    os.close(host.fd)
