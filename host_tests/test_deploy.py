"""make deploy/run/repl/erase-settings/mip against the virtual board (a pty, deployrig.py's
`board`: with a USB gap a Pico, without one a board behind a USB-serial bridge), and the
refusals."""

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import boardlist
import deploy
import deploy_chains
import mpy_build
import pexpect
import pytest
import settings
from deployrig import (
    BUSY,
    PICO_GAP,
    ROOT,
    exit_code,
    make,
    powered_on,
    shows_title,
    spawn,
    summary,
    wait_for,
)
from layout import source, sources

FIRMWARE = [p.stem for p in sources() if p.name != "main.py"]


@pytest.mark.parametrize(("name", "board"), [("pico", PICO_GAP), ("esp32", 0)], indirect=["board"])
def test_deploy_copies_everything_resets_and_main_py_starts(board, name, tmp_path):
    # The pico's port goes away for a Pico's 1.5 s after the reset; the esp32's stays, as
    # behind a USB-serial bridge.
    flash = Path(board.flash)
    (flash / "settings.json").write_text('{"contrast": 55}')
    (flash / "engine.py").write_text("stale = True\n")  # would shadow engine.mpy
    result = make("deploy", board=name, port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    # A few lines: make's echo of the command, what is built, (waiting,) the summary; mpremote's
    # "cp" line per file is kept in the log.
    lines = result.stdout.strip().splitlines()
    assert len(lines) <= 4 + bool(board.serial.usb_gap), result.stdout
    assert "board.mpy" in (ROOT / "build" / "deploy.log").read_text()
    expected = sorted([m + ".mpy" for m in FIRMWARE] + ["board.mpy", "main.py", "settings.json"])
    assert sorted(os.listdir(flash)) == expected
    assert (flash / "main.py").read_bytes() == source("main").read_bytes()
    built = tmp_path / "expected"  # as a board runs them: no line numbers (mpy-cross -O3)
    mpy_build.compile_all(built, [source(m) for m in FIRMWARE], lines=False)
    (tmp_path / "b").mkdir()
    shutil.copyfile(ROOT / "boards" / (name + ".py"), tmp_path / "b" / "board.py")
    mpy_build.compile_module(tmp_path / "b" / "board.py", built, lines=False)
    for module in FIRMWARE + ["board"]:
        assert (flash / (module + ".mpy")).read_bytes() == (built / (module + ".mpy")).read_bytes()
    # On a Pico the bytecode lives in the heap, and a line table is bytes it never needs; the
    # tests' own compile keeps it, for their tracebacks.
    for module in ("app", "engine", "play"):
        kept = mpy_build.compile_module(source(module), tmp_path / "lines")
        assert (flash / (module + ".mpy")).stat().st_size < kept.stat().st_size - 100, module
    # The reset ran the deployed main.py: it built the board (the real driver drew the game's
    # first screen on the virtual SPI, read back by the controller model) and kept the settings.
    boots = [e for e in board.events if not e.startswith("USB ")]
    assert boots[-2:] == ["hard reset (machine.reset)", "running main.py"]
    model = wait_for(lambda: shows_title(board))
    assert model and not model.anomalies, model and model.state()
    assert json.loads((flash / "settings.json").read_text())["contrast"] == 55
    # One line says what happened, as seen: the port going and coming back (and how long it
    # was away) or staying, and the REPL not answering, busy with main.py.
    files = [flash / (m + ".mpy") for m in FIRMWARE + ["board"]] + [flash / "main.py"]
    kb = round(sum(f.stat().st_size for f in files) / 1024)
    said = "deploy: deployed %d files (%d KB) to %s on %s; " % (len(files), kb, name, board.port)
    if board.serial.usb_gap:
        # `make repl` at once met a Pico's port away ("failed to access PORT"): deploy now
        # returns when the port is back, and says so.
        waiting = "deploy: waiting for %s to come back after the reset...\n" % board.port
        assert waiting in result.stdout
        said = re.escape(said + "it reset, %s came back after " % board.port) + r"\d+\.\d s, "
        assert re.fullmatch(said + re.escape(BUSY), summary(result)), summary(result)
        # How long is measured from when deploy saw the port go, which on a busy machine is
        # late by any amount: test_the_summary_says_how_long_the_port_was_away has the figure.
        assert board.events[-4:] == [
            "hard reset (machine.reset)",
            "USB gone for %.1f s (re-enumerating after the reset)" % PICO_GAP,
            "running main.py",
            "USB back",
        ]
        # On a Pico main.py starts at once and the port is back ~1.5 s later; starting the
        # interpreter here takes time a board does not spend, so the gap counts from main.py.
        assert board.stamps["USB back"] - board.stamps["running main.py"] >= PICO_GAP
    else:
        assert "waiting" not in result.stdout
        assert summary(result) == (
            said + "it reset (%s stayed up, as behind a USB-serial bridge), " % board.port + BUSY
        )


# mpremote as a busy host runs it: 0.3 s pass before it closes the port (and clears RTS).
SLOW_CLOSE = (
    "import time\nfrom mpremote.transport_serial import SerialTransport\n"
    "_close = SerialTransport.close\n"
    "def close(self):\n    time.sleep(0.3)\n    _close(self)\n"
    "SerialTransport.close = close\n"
)


@pytest.mark.parametrize("board", [PICO_GAP], indirect=True)
def test_deploy_to_a_pico_succeeds_every_time_however_late_mpremote_lets_go(
    board, monkeypatch, capfd
):
    # mpremote's own reset runs sleep_ms(100), then machine.reset(): a host that closed the
    # port later than that met the port gone, and mpremote's close() failed with EIO after the
    # files were copied (6 deploys in 9 failed). Deploy now resets the board once mpremote has
    # let go, so how long mpremote takes to let go does not matter.
    monkeypatch.setattr(deploy_chains, "MPREMOTE", SLOW_CLOSE + deploy_chains.MPREMOTE)
    for attempt in range(3):
        code = deploy.main(["deploy", "--board", "pico", "--port", board.port])
        out, err = capfd.readouterr()
        assert code == 0, "attempt %d: %s" % (attempt + 1, out + err)
        assert "Traceback" not in err
        assert out.strip().splitlines()[-1].endswith(BUSY)
    resets = [e for e in board.events if e == "hard reset (machine.reset)"]
    assert len(resets) == 3


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
    # A deploy's .mpy files before it would be left beside the sources (MicroPython imports
    # the .py first, so the next deploy's .mpy would be shadowed had deploy not removed them):
    # mip removes them.
    flash = Path(board.flash)
    for name in ("engine.mpy", "board.mpy"):
        (flash / name).write_bytes(b"M")
    result = make("mip", port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    installed = sorted(set(os.listdir(flash)) - {"settings.json", "error.log"})
    assert installed == sorted([p.name for p in sources()] + ["board.py"])
    for src in sources():
        assert (flash / src.name).read_bytes() == src.read_bytes()
    assert (flash / "board.py").read_bytes() == (ROOT / "boards/pico.py").read_bytes()
    assert wait_for(lambda: shows_title(board))  # the reset ran the installed main.py
    kb = round(sum(p.stat().st_size for p in sources() + [ROOT / "boards/pico.py"]) / 1024)
    assert summary(result) == (
        "mip: installed %d files (%d KB) with mip (sources, board.py for pico) on %s; it reset "
        "(%s stayed up, as behind a USB-serial bridge), %s"
        % (len(sources()) + 1, kb, board.port, board.port, BUSY)
    )


# A wrong command line: (target, BOARD, PORT, what the one line says), exit code 2 each, at
# once: a port never seen (a typo, a board not plugged in) is not waited for as one coming
# back after a reset (the default wait is 10 s).
KNOWN = ", ".join(boardlist.known_boards())
NOWHERE = "/nonexistent/ttyACM9"
REFUSED = [("deploy", "uno", sys.executable, "unknown board 'uno': choose one of " + KNOWN)]
REFUSED += [
    (target, "", sys.executable, "no BOARD given: choose one of %s, e.g. `make %s BOARD=pico "
     "PORT=/dev/ttyACM0`" % (KNOWN, target))
    for target in ("deploy", "run", "mip")
]  # fmt: skip
REFUSED += [(target, "pico", "", "no PORT given") for target in deploy_chains.TARGETS]
REFUSED += [("deploy", "pico", NOWHERE, "deploy: port %s does not exist: is the board plugged "
             "in? (Linux: /dev/ttyACM0 for a Pico, /dev/ttyUSB0 for most ESP32 boards; "
             "`.venv/bin/mpremote connect list` shows them)\n" % NOWHERE)]  # fmt: skip


@pytest.mark.parametrize(("target", "name", "port", "said"), REFUSED)
def test_a_wrong_command_line_is_refused_at_once_saying_why(target, name, port, said):
    result = make(target, board=name, port=port)
    # The tool's one line comes first (make's own "Error 2" may follow it); a wait says
    # "waiting for PORT to come back" before it begins, so none was begun.
    assert exit_code(result) == 2, result.stderr
    assert said.rstrip("\n") in result.stderr.splitlines()[0], result.stderr
    assert "waiting" not in result.stdout + result.stderr, result.stdout


@pytest.mark.parametrize("target", ["deploy", "run", "mip"])
def test_a_virtual_esp32_refuses_a_pico_board_file_before_copying(target, boards, tmp_path):
    # The virtual board is the unix port (sys.platform "linux"); one made as an ESP32
    # (`make vboard BOARD=esp32`) is refused a Pico's board file as a real ESP32 is.
    vb = powered_on(boards(tmp_path / "flash", setup="simulator_mp", port="esp32"))
    result = make(target, board="pico", port=vb.port)
    assert exit_code(result) == 2, result.stdout + result.stderr
    assert result.stderr.splitlines()[0] == (
        "%s: board file pico.py is for rp2; the board at %s runs esp32: use BOARD=esp32"
        % (target, vb.port)
    )
    assert os.listdir(tmp_path / "flash") == []


@pytest.mark.parametrize("wait", ["abc", "-1", "nan", "inf"])
def test_a_wait_that_is_no_seconds_is_refused_in_one_line(wait):
    result = make("deploy", port=NOWHERE, wait=wait)
    assert exit_code(result) == 2
    assert result.stderr.splitlines()[0] == (
        "deploy: WAIT=%s: give the seconds to wait for a missing port, a number from 0 on "
        "(e.g. WAIT=10)" % wait
    )
    assert "waiting" not in result.stdout + result.stderr, result.stdout


@pytest.mark.parametrize("board", ["deployed"], indirect=True)
def test_ctrl_c_at_make_repl_stops_the_game_at_a_clean_prompt(board):
    # The README's way to stop the game. On a Pico the runner then stops the watchdog through
    # its registers (boards/pico.py pokes machine.mem32), which the virtual Pico models.
    assert wait_for(lambda: shows_title(board))
    child = spawn("repl", board.port)
    child.logfile_read = seen = io.StringIO()
    child.expect_exact("Connected to MicroPython")
    child.send("\x03")
    child.expect_exact("KeyboardInterrupt")
    child.expect_exact(">>> ")
    child.send("6 * 7\r")
    child.expect_exact("42")
    child.sendcontrol("]")
    child.expect(pexpect.EOF)
    # As on a board: main.py's traceback ends in the KeyboardInterrupt, and nothing else.
    assert "KeyboardInterrupt" in seen.getvalue() and "Error" not in seen.getvalue(), (
        seen.getvalue()
    )


@pytest.mark.parametrize("board", [PICO_GAP], indirect=True)
def test_a_reset_at_make_repl_ends_it_in_one_line(board):
    # machine.reset() takes a Pico's USB port away under mpremote, whose close then fails
    # with EIO (a 17-line traceback): the one line says what happened and how to go on.
    child = spawn("repl", board.port)
    child.expect_exact("Connected to MicroPython")
    child.send("\x03")
    child.expect_exact(">>> ")
    child.send("import machine; machine.reset()\r")
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before, child.before
    assert child.before.strip().splitlines()[-1] == (
        "repl: the board reset or went away: `make repl PORT=%s` again to reconnect" % board.port
    )
    assert child.exitstatus == 0


def test_repl_without_a_terminal_is_refused(board):
    result = make("repl", port=board.port)
    assert exit_code(result) == 2
    assert result.stderr.startswith("repl: needs a terminal to type in (stdin is not one)")


FAILING_MPREMOTE = (
    "import sys\nprint('cp engine.mpy :')\n"
    "print('mpremote: cp: destination: [Errno 28] ENOSPC', file=sys.stderr)\nsys.exit(1)\n"
)


@pytest.mark.parametrize("board", [0], indirect=True)
def test_a_failing_copy_shows_what_mpremote_said(board, monkeypatch, capfd, tmp_path):
    monkeypatch.setattr(deploy_chains, "MPREMOTE", FAILING_MPREMOTE)
    monkeypatch.setattr(deploy, "LOG", str(tmp_path / "%s.log"))  # not the real deploys' log
    code = deploy.main(["deploy", "--board", "pico", "--port", board.port])
    out, err = capfd.readouterr()
    assert code == 1
    assert "[Errno 28] ENOSPC" in err
    assert err.strip().splitlines()[-1] == (
        "deploy: mpremote failed (exit 1); all it said is in %s" % (tmp_path / "deploy.log")
    )
