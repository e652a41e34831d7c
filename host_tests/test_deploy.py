"""make deploy/run/repl/erase-settings/mip against the virtual board (a pty), and the refusals.

A board asked for with a USB gap models a Pico: after a reset its port (a link in tmp_path) goes
away for that long and comes back. Without one, the port stays through a reset, as behind a
USB-serial bridge, and is the pty itself (mpremote reads a pty faster than a serial port).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import boardlist
import deploy
import mpy_build
import mpyrun
import pcd8544_model
import pexpect
import pytest
import settings
import virtualboard

ROOT = Path(__file__).resolve().parents[1]
TESTBED = ROOT / "testbed"
PICO_GAP = 1.5  # s a Pico's port is away after a reset
FIRMWARE = sorted(p.stem for p in (ROOT / "firmware").glob("*.py") if p.name != "main.py")
BUSY = "and it is running the game (the REPL is busy with main.py)"


@pytest.fixture
def board(request, tmp_path, monkeypatch):
    """A virtual board served from a thread; its flash dir and LCD bus file in tmp_path.
    request.param (indirect parametrisation): its USB gap in seconds (default 0), or "deployed"
    for a Pico (a short gap) that has the firmware on its flash when it powers on."""
    if mpyrun.micropython_path() is None:
        pytest.skip(mpyrun.UNAVAILABLE)
    bus = tmp_path / "lcd.bus"
    monkeypatch.setenv("SIMLINK_OUT", str(bus))
    log = []
    gap = getattr(request, "param", 0)
    if gap == "deployed":  # what `make deploy` leaves, without a deploy's time, on a Pico
        gap = 0.3
        deploy.build_deploy("pico", tmp_path / "flash")
        shutil.copyfile(ROOT / "firmware/main.py", tmp_path / "flash/main.py")
    vb = virtualboard.VirtualBoard(
        tmp_path / "flash",
        [TESTBED / "hostboard", TESTBED],
        setup="simulator_mp",
        log=log.append,
        link=tmp_path / "ttyACM0" if gap else None,
        usb_gap=gap,
    )
    vb.bus, vb.events = bus, log
    thread = threading.Thread(target=vb.serve, daemon=True)
    thread.start()
    yield vb
    vb.stop()
    thread.join(5)
    vb.close()


def make(target, board="pico", port="", timeout=60, wait=None):
    extra = [] if wait is None else ["WAIT=%g" % wait]
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


def glass(bus_file):
    """What the virtual board's LCD shows, from the bus recording its firmware streamed."""
    data = bus_file.read_bytes()
    model = None
    while len(data) >= 5:
        kind, n = data[:1], int.from_bytes(data[1:5], "big")
        payload, data = data[5 : 5 + n], data[5 + n :]
        if kind == b"P":
            dc, cs, rst, light, on = payload.decode().split()
            model = pcd8544_model.Model(dc=dc, cs=cs, rst=rst, light=light, light_on=int(on))
        elif kind == b"B" and model is not None:  # the bus (b"S" frames: the buzzer)
            model.feed(payload)
    return model


def wait_for(check, seconds=15):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.1)
    return check()


def shows_title(board):
    """The virtual board's LCD model, once the firmware has drawn a screen on it."""
    model = glass(board.bus) if board.bus.exists() else None
    return model if model and model.initialised and len(model.dark_pixels()) > 200 else None


def contrast(flash):
    return json.loads((Path(flash) / "settings.json").read_text())["contrast"]


@pytest.mark.parametrize(("name", "board"), [("pico", PICO_GAP), ("esp32", 0)], indirect=["board"])
def test_deploy_copies_everything_resets_and_main_py_starts(board, name, tmp_path):
    # The pico's port goes away for a Pico's 1.5 s after the reset; the esp32's stays, as
    # behind a USB-serial bridge.
    flash = Path(board.flash)
    (flash / "settings.json").write_text('{"contrast": 55}')
    (flash / "engine.py").write_text("stale = True\n")  # would shadow engine.mpy
    result = make("deploy", board=name, port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    # The issue: `make repl` at once met a Pico's port away ("failed to access PORT"). Deploy
    # now returns when the port is back. (Connecting and leaving does not stop the game.)
    child = spawn("repl", board.port)
    child.expect("Connected to MicroPython")
    child.send("\x1d")  # Ctrl-]: leave mpremote
    child.expect(pexpect.EOF)
    expected = sorted([m + ".mpy" for m in FIRMWARE] + ["board.mpy", "main.py", "settings.json"])
    assert sorted(os.listdir(flash)) == expected
    assert (flash / "main.py").read_bytes() == (ROOT / "firmware/main.py").read_bytes()
    built = tmp_path / "expected"
    mpy_build.compile_all(built, [ROOT / "firmware" / (m + ".py") for m in FIRMWARE])
    (tmp_path / "b").mkdir()
    shutil.copyfile(ROOT / "boards" / (name + ".py"), tmp_path / "b" / "board.py")
    mpy_build.compile_module(tmp_path / "b" / "board.py", built)
    for module in FIRMWARE + ["board"]:
        assert (flash / (module + ".mpy")).read_bytes() == (built / (module + ".mpy")).read_bytes()
    # The reset ran the deployed main.py: it built the board (the real driver drew the game's
    # first screen on the virtual SPI, read back by the controller model) and kept the settings.
    boots = [e for e in board.events if not e.startswith("USB ")]
    assert boots[-2:] == ["hard reset (machine.reset)", "running main.py"]
    model = wait_for(lambda: shows_title(board))
    assert model and not model.anomalies, model and model.state()
    assert contrast(flash) == 55
    # One line says what happened, as seen: the port going and coming back (and how long it
    # was away) or staying, and the REPL not answering, busy with main.py.
    files = [flash / (m + ".mpy") for m in FIRMWARE + ["board"]] + [flash / "main.py"]
    kb = round(sum(f.stat().st_size for f in files) / 1024)
    said = "deploy: deployed %d files (%d KB) to %s on %s; " % (len(files), kb, name, board.port)
    if board.usb_gap:
        waiting = "deploy: waiting for %s to come back after the reset...\n" % board.port
        assert waiting in result.stdout
        said = re.escape(said + "it reset, %s came back after " % board.port) + r"\d+\.\d s, "
        assert re.fullmatch(said + re.escape(BUSY), summary(result)), summary(result)
        # How long is measured from when deploy saw the port go, which on a busy machine is
        # late by any amount: test_the_summary_says_how_long_the_port_was_away has the figure.
        assert "USB gone for %.1f s (re-enumerating after the reset)" % PICO_GAP in board.events
    else:
        assert "waiting" not in result.stdout
        assert summary(result) == (
            said + "it reset (%s stayed up, as behind a USB-serial bridge), " % board.port + BUSY
        )


@pytest.mark.parametrize("board", [1.0], indirect=True)
def test_repl_waits_for_a_port_that_is_coming_back(board):
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
    words, code = deploy.after_reset("deploy", board.port, 5)
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
    # A Pico's port goes 0.1 s after mpremote's reset and is back 1.5 s later.
    clock = Clock()
    monkeypatch.setattr(deploy, "time", clock)
    monkeypatch.setattr(deploy, "present", lambda port: not 0.1 <= clock.now < 1.6)
    monkeypatch.setattr(
        deploy, "open_error", lambda port: None if deploy.present(port) else FileNotFoundError()
    )
    monkeypatch.setattr(deploy, "repl_answers", lambda port: False)
    assert deploy.after_reset("deploy", "/dev/ttyACM0", 10) == (
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

    monkeypatch.setattr(deploy, "time", clock)
    monkeypatch.setattr(deploy.serial, "Serial", Line)
    assert deploy.repl_answers("/dev/ttyACM0")
    assert len(calls) == 2  # it read only after the deadline


@pytest.mark.parametrize("board", ["deployed"], indirect=True)
def test_erase_settings_interrupts_the_game_and_it_restarts_with_defaults(board):
    assert wait_for(lambda: shows_title(board))
    (Path(board.flash) / "settings.json").write_text('{"contrast": 55}')
    board.bus.unlink()
    result = make("erase-settings", port=board.port)  # Ctrl-C stops the running game first
    assert result.returncode == 0, result.stdout + result.stderr
    assert "removed settings.json" in result.stdout
    assert "Ctrl-C: interrupting the running code" in board.events
    assert summary(result).startswith(
        "erase-settings: settings.json is gone from the board on %s; it reset" % board.port
    )
    assert summary(result).endswith(BUSY)
    # After the reset the game runs again on the defaults, and writes nothing until a change.
    model = wait_for(lambda: shows_title(board))
    assert model and model.vop == settings.Settings("x").get("contrast") != 55
    assert not (Path(board.flash) / "settings.json").exists()


@pytest.mark.parametrize("key", ["\x03", "\x1d"], ids=["ctrl-c", "ctrl-]"])
def test_run_mounts_the_sources_and_a_key_stops_it_with_one_line(board, key):
    child = spawn("run", board.port)
    child.expect_exact("run: Ctrl-C (or Ctrl-] or Ctrl-x) stops it")
    child.expect_exact("is mounted at /remote\r\n")
    model = wait_for(lambda: shows_title(board), 30)
    assert model and not model.anomalies
    assert child.isalive()  # mpremote follows the running program
    child.send(key)
    child.expect(pexpect.EOF)
    child.close()
    # One line, no traceback, no make "Interrupt", exit 0: the key is the way out.
    assert child.before.strip() == (
        "run: stopped: the program on the board was interrupted and the board waits at its "
        "REPL (reset it to start the game on its flash)"
    )
    assert child.exitstatus == 0
    assert "Ctrl-C: interrupting the running code" in board.events
    assert wait_for(lambda: board.mode == "friendly")  # mpremote unmounted and left the REPL
    assert os.listdir(board.flash) == []  # nothing was copied to the board


def test_run_without_a_terminal_stops_on_sigterm_and_frees_the_board(board):
    # An IDE or a script ends `run` with a signal: the same clean stop, exit 128 + SIGTERM.
    proc = subprocess.Popen(
        [sys.executable, "tools/deploy.py", "run", "--board", "pico", "--port", board.port],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_for(lambda: shows_title(board), 30)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 128 + signal.SIGTERM, out + err
    assert "the game stopped with an error" not in out  # it ran, as deployed code does
    assert out.splitlines()[-1].startswith("run: stopped: the program on the board was interr")
    assert err == ""
    assert wait_for(lambda: board.mode == "friendly")


def test_mip_installs_the_sources_from_this_checkout(board):
    # `make mip` needs no repository URL: mpremote's mip reads the checkout's package.json.
    result = make("mip", port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    flash = Path(board.flash)
    sources = sorted((ROOT / "firmware").glob("*.py"))
    installed = sorted(set(os.listdir(flash)) - {"settings.json", "error.log"})
    assert installed == sorted([p.name for p in sources] + ["board.py"])
    for src in sources:
        assert (flash / src.name).read_bytes() == src.read_bytes()
    assert (flash / "board.py").read_bytes() == (ROOT / "boards/pico.py").read_bytes()
    assert wait_for(lambda: shows_title(board))  # the reset ran the installed main.py
    kb = round(sum(p.stat().st_size for p in sources + [ROOT / "boards/pico.py"]) / 1024)
    assert summary(result) == (
        "mip: installed %d files (%d KB) with mip (sources, board.py for pico) on %s; it reset "
        "(%s stayed up, as behind a USB-serial bridge), %s"
        % (len(sources) + 1, kb, board.port, board.port, BUSY)
    )


def test_unknown_board_is_refused_with_the_known_ones(tmp_path):
    result = make("deploy", board="uno", port=sys.executable)
    assert result.returncode != 0
    assert "unknown board 'uno'" in result.stderr
    assert "choose one of " + ", ".join(boardlist.known_boards()) in result.stderr


def test_a_missing_board_is_refused_with_an_example_of_the_same_target():
    for target in ("deploy", "run", "mip"):
        result = make(target, board="", port=sys.executable)
        assert exit_code(result) == 2
        assert "no BOARD given" in result.stderr
        assert "e.g. `make %s BOARD=pico PORT=/dev/ttyACM0`" % target in result.stderr


def test_missing_or_nonexistent_port_is_refused(tmp_path):
    for target in ("deploy", "repl", "run", "erase-settings", "mip"):
        result = make(target, port="")
        assert result.returncode != 0 and "no PORT given" in result.stderr, result.stderr
    result = make("deploy", port=str(tmp_path / "ttyACM9"), wait=0.2)
    assert exit_code(result) == 2
    assert "waiting for %s to come back (up to 0.2 s; " % (tmp_path / "ttyACM9") in result.stdout
    assert "ttyACM9 does not exist (waited 0.2 s for it): is the board plugged in?" in (
        result.stderr
    )


def test_repl_without_a_terminal_is_refused(board):
    result = make("repl", port=board.port)
    assert exit_code(result) == 2
    assert result.stderr.startswith("repl: needs a terminal to type in (stdin is not one)")
