"""boardport: waiting for the port, the reset and what deploy says it saw after it, on the virtual
board (deployrig) and on a clock that only sleep() moves."""

import re
from pathlib import Path

import boardport
import pexpect
import pytest
from deployrig import BUSY, exit_code, make, reset_by_hand, spawn, summary


@pytest.mark.parametrize("board", [1.0], indirect=True)
def test_repl_waits_for_a_port_that_is_coming_back(board):
    boardport.check_port(board.port)  # seen, as by any make target run on it before
    reset_by_hand(board)  # e.g. the board's reset button: the port is away when make starts
    child = spawn("repl", board.port)
    child.expect_exact("repl: waiting for %s to come back (up to 10 s; " % board.port)
    child.expect("Connected to MicroPython")
    child.send("\r")
    child.expect(">>> ")
    child.send("6 * 7\r")
    child.expect("42")
    child.send("\x18")  # Ctrl-x leaves, as Ctrl-] does
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("board", [60], indirect=True)
def test_a_port_that_does_not_come_back_is_a_clear_error(board):
    result = make("erase-settings", port=board.port, wait=0.5)
    assert exit_code(result) == 1
    assert "erase-settings: waiting for %s to come back after the reset..." % board.port in (
        result.stdout
    )
    assert "Traceback" not in result.stderr
    assert summary(result) == (
        "erase-settings: settings.json is gone from the board on %s; it reset, but port %s does "
        "not exist (waited 0.5 s for it): is the board plugged in? (Linux: /dev/ttyACM0 for a "
        "Pico, /dev/ttyUSB0 for most ESP32 boards; `.venv/bin/mpremote connect list` shows "
        "them)" % (board.port, board.port)
    )
    result = make("repl", port=board.port, wait=0.3)  # started while it is away: waits, then
    assert exit_code(result) == 2
    assert result.stdout.splitlines()[-1].startswith(
        "repl: waiting for %s to come back (up to 0.3 s; " % board.port
    )
    assert result.stderr.startswith(
        "repl: port %s does not exist (waited 0.3 s for it): is the board plugged in?" % board.port
    )


@pytest.mark.parametrize("board", [0.3], indirect=True)
def test_the_summary_says_when_main_py_is_not_running(board):
    # A main.py that returns (as in safe mode) leaves the REPL answering: deploy says so and
    # fails, rather than claiming the game runs.
    (Path(board.flash) / "main.py").write_text("print('safe mode')\n")
    reset_by_hand(board)
    words, code = boardport.after_reset("deploy", board.port, 5)
    assert code == 1
    assert re.fullmatch(
        re.escape("it reset, %s came back after " % board.port)
        + r"\d+\.\d s, "
        + re.escape(
            "but main.py is not running: the REPL answers (safe mode, or main.py failed: "
            "`make repl PORT=%s` shows why)" % board.port
        ),
        words,
    ), words


class Clock:
    """deploy's time module on a clock that only its sleep() moves."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def test_the_summary_says_how_long_the_port_was_away(monkeypatch):
    # A Pico's port goes 0.1 s after the reset and is back 1.5 s later.
    clock = Clock()
    monkeypatch.setattr(boardport, "time", clock)
    monkeypatch.setattr(boardport, "present", lambda port: not 0.1 <= clock.now < 1.6)
    gone = FileNotFoundError()
    monkeypatch.setattr(boardport, "open_error", lambda p: None if boardport.present(p) else gone)
    monkeypatch.setattr(boardport, "repl_answers", lambda port: False)
    assert boardport.after_reset("deploy", "/dev/ttyACM0", 10) == (
        "it reset, /dev/ttyACM0 came back after 1.5 s, " + BUSY,
        0,
    )


def test_a_prompt_that_came_in_time_counts_when_deploy_reads_it_late(monkeypatch):
    # A busy machine may run deploy again only after PROBE_WAIT, with the board's prompt,
    # sent at once, waiting unread: the REPL answered, and main.py is not running.
    clock = Clock()
    calls = []

    def stalled():  # after the Enter: the deadline is set, then deploy waits 1 s for the CPU
        calls.append(clock.now)
        return clock.now + (1.0 if len(calls) > 1 else 0.0)

    class Line:  # pyserial's Serial, on a board at its REPL
        def __init__(self, port, baudrate, timeout, **extra):
            self.unread = b""

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def reset_input_buffer(self):
            self.unread = b""

        def write(self, data):
            self.unread += b"\r\n>>> "
            clock.monotonic = stalled

        def read(self, size):
            data, self.unread = self.unread[:size], self.unread[size:]
            return data

    monkeypatch.setattr(boardport, "time", clock)
    monkeypatch.setattr(boardport.serial, "Serial", Line)
    assert boardport.repl_answers("/dev/ttyACM0")
    assert len(calls) == 2  # it read only after the deadline
