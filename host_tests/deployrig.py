"""The virtual board (a pty) that test_deploy and test_boardport run the make targets against
(test_virtualboard's are made by the same `boards`), and helpers to run them and read what they
said and what the board shows; `Line`, the host end of its serial line, for the tests that talk
to its REPL themselves.

A board asked for with a USB gap models a Pico: after a reset its port (a link in tmp_path) goes
away for that long and comes back. Without one, the port stays through a reset, as behind a
USB-serial bridge, and is the pty itself (mpremote reads a pty faster than a serial port).
"""

import io
import os
import re
import select
import shutil
import subprocess
import threading
import time
from pathlib import Path

import mpyrun
import pexpect
import pytest
import simprocess
import simview
import virtualboard

ROOT = Path(__file__).resolve().parents[1]
PICO_GAP = 1.5  # s a Pico's port is away after a reset
BUSY = "and it is running the game (the REPL is busy with main.py)"
RAW = b"raw REPL; CTRL-B to exit\r\n>"  # the raw REPL's banner and prompt


@pytest.fixture
def boards():
    """make(flash, **options): a virtual board, its serving thread (vb.thread, on vb.run) not
    started; each is stopped and closed after the test."""
    if mpyrun.micropython_path() is None:
        pytest.skip(mpyrun.UNAVAILABLE)
    made = []

    def make(flash, **options):
        vb = virtualboard.VirtualBoard(flash, **options)
        vb.thread = threading.Thread(target=vb.run, daemon=True)
        made.append(vb)
        return vb

    yield make
    for vb in made:
        vb.stop()
        if vb.thread.is_alive():
            vb.thread.join(5)
        vb.close()


def powered_on(vb):
    """vb powered on (main.py started), then answering its line from its thread."""
    vb.boot()
    vb.thread.start()
    return vb


@pytest.fixture
def board(request, tmp_path, monkeypatch, boards):
    """A virtual board served from a thread; its flash dir and LCD bus file in tmp_path.
    request.param (indirect parametrisation): its USB gap in seconds (default 0), or "deployed"
    for a Pico (a short gap) that has the firmware on its flash when it powers on."""
    bus = tmp_path / "lcd.bus"
    monkeypatch.setenv("SIMLINK_OUT", str(bus))
    events, stamps = [], {}  # what it logged, and when each message last came

    def log(msg):
        events.append(msg)
        stamps[msg] = time.monotonic()

    gap = getattr(request, "param", 0)
    if gap == "deployed":  # what `make deploy` leaves, without a deploy's time, on a Pico
        gap = 0.3
        shutil.copytree(request.getfixturevalue("deployed"), tmp_path / "flash")
    vb = boards(
        tmp_path / "flash",
        setup="simulator_mp",
        log=log,
        link=tmp_path / "ttyACM0" if gap else None,
        usb_gap=gap,
    )
    vb.bus, vb.events, vb.stamps = bus, events, stamps
    return powered_on(vb)


def make(target, board="pico", port="", timeout=60, wait=None):
    extra = [] if wait is None else ["WAIT=%s" % wait]
    return subprocess.run(
        ["make", "--no-print-directory", target, "BOARD=" + board, "PORT=" + port] + extra,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def spawn(target, port, board="pico"):
    """make TARGET in a terminal (a pty), as a person runs it."""
    args = ["--no-print-directory", target, "BOARD=" + board, "PORT=" + port]
    return pexpect.spawn("make", args, cwd=str(ROOT), timeout=20, encoding="utf-8")


def summary(result):
    """The last line a resetting target printed: what it did and what it saw the board do."""
    lines = (result.stdout + result.stderr).strip().splitlines()
    return [line for line in lines if not re.match(r"make(\[\d+\])?: \*\*\*", line)][-1]


def exit_code(result):
    """deploy.py's exit code, from make's report of it (make itself exits 2)."""
    if result.returncode == 0:
        return 0
    return int(re.search(r"\] Error (\d+)$", result.stderr.strip()).group(1))


def reset_by_hand(board):
    """machine.reset() typed at the board's REPL (not through deploy.py), then the port goes."""
    assert wait_for(lambda: board.mode == "friendly", 5)  # booted, at its REPL ("off" before)
    fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY)
    os.write(fd, b"import machine; machine.reset()\r")
    os.close(fd)
    assert wait_for(lambda: not os.path.exists(board.port), 5)


def wait_for(check, seconds=15):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.1)
    return check()


def shows_title(board):
    """The virtual board's LCD model, once the firmware has drawn a screen on it: the frames its
    firmware streamed, fed to the simulator's screen (simview.Screen) as the simulator feeds it."""
    if not board.bus.exists():
        return None
    screen = simview.Screen(io.StringIO(), clear=False)
    for kind, payload in simprocess.frames(bytearray(board.bus.read_bytes())):
        screen.feed(kind, payload)
    model = screen.model
    return model if model and model.initialised and len(model.dark_pixels()) > 200 else None


class Line:
    """The host end of the serial line (what mpremote opens)."""

    def __init__(self, port):
        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        self.buf = b""

    def send(self, data):
        os.write(self.fd, data)

    def until(self, token, seconds=10):
        end = time.monotonic() + seconds
        while token not in self.buf:
            left = end - time.monotonic()
            assert left > 0, "no %r in %r" % (token, self.buf)
            if select.select([self.fd], [], [], left)[0]:
                self.buf += os.read(self.fd, 4096)
        got, self.buf = self.buf.split(token, 1)
        return got + token

    def read(self, n, seconds=10):
        while len(self.buf) < n:
            assert select.select([self.fd], [], [], seconds)[0], self.buf
            self.buf += os.read(self.fd, 4096)
        got, self.buf = self.buf[:n], self.buf[n:]
        return got


def enter_raw(line):
    line.send(b"\r\x01")
    line.until(RAW)
