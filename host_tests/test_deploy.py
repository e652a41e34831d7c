"""make deploy/run/erase-settings against the virtual board (a pty), and the refusals."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import boardlist
import mpy_build
import mpyrun
import pcd8544_model
import pexpect
import pytest
import settings
import virtualboard

ROOT = Path(__file__).resolve().parents[1]
TESTBED = ROOT / "testbed"


@pytest.fixture
def board(tmp_path, monkeypatch):
    """A virtual board served from a thread; its flash dir and LCD bus file in tmp_path."""
    if mpyrun.micropython_path() is None:
        pytest.skip(mpyrun.UNAVAILABLE)
    bus = tmp_path / "lcd.bus"
    monkeypatch.setenv("SIMLINK_OUT", str(bus))
    log = []
    vb = virtualboard.VirtualBoard(
        tmp_path / "flash", [TESTBED / "hostboard", TESTBED], setup="simulator_mp", log=log.append
    )
    vb.bus, vb.events = bus, log
    thread = threading.Thread(target=vb.serve, daemon=True)
    thread.start()
    yield vb
    vb.stop()
    thread.join(5)
    vb.close()


def make(target, board="pico", port="", timeout=60):
    return subprocess.run(
        ["make", "--no-print-directory", target, "BOARD=" + board, "PORT=" + port],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


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
        elif model is not None:
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


@pytest.mark.parametrize("name", ["pico", "esp32"])
def test_deploy_copies_everything_resets_and_main_py_starts(board, name, tmp_path):
    flash = Path(board.flash)
    (flash / "settings.json").write_text('{"contrast": 55}')
    (flash / "engine.py").write_text("stale = True\n")  # would shadow engine.mpy
    result = make("deploy", board=name, port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    firmware = sorted(p.stem for p in (ROOT / "firmware").glob("*.py") if p.name != "main.py")
    expected = sorted([m + ".mpy" for m in firmware] + ["board.mpy", "main.py", "settings.json"])
    assert sorted(os.listdir(flash)) == expected
    assert (flash / "main.py").read_bytes() == (ROOT / "firmware/main.py").read_bytes()
    built = tmp_path / "expected"
    mpy_build.compile_all(built, [ROOT / "firmware" / (m + ".py") for m in firmware])
    (tmp_path / "b").mkdir()
    shutil.copyfile(ROOT / "boards" / (name + ".py"), tmp_path / "b" / "board.py")
    mpy_build.compile_module(tmp_path / "b" / "board.py", built)
    for module in firmware + ["board"]:
        assert (flash / (module + ".mpy")).read_bytes() == (built / (module + ".mpy")).read_bytes()
    # The reset ran the deployed main.py: it built the board (the real driver drew the game's
    # first screen on the virtual SPI, read back by the controller model) and kept the settings.
    hard_boot = ["hard reset (machine.reset)", "running main.py"]
    assert wait_for(lambda: board.events[-2:] == hard_boot), board.events
    model = wait_for(lambda: shows_title(board))
    assert model and not model.anomalies, model and model.state()
    assert contrast(flash) == 55


def contrast(flash):
    return json.loads((Path(flash) / "settings.json").read_text())["contrast"]


def test_erase_settings_interrupts_the_game_and_it_restarts_with_defaults(board):
    assert make("deploy", port=board.port).returncode == 0
    assert wait_for(lambda: shows_title(board))
    (Path(board.flash) / "settings.json").write_text('{"contrast": 55}')
    board.bus.unlink()
    result = make("erase-settings", port=board.port)  # Ctrl-C stops the running game first
    assert result.returncode == 0, result.stdout + result.stderr
    assert "removed settings.json" in result.stdout
    assert "Ctrl-C: interrupting the running code" in board.events
    # After the reset the game runs again and writes the defaults.
    assert wait_for(lambda: shows_title(board))
    assert wait_for(lambda: (Path(board.flash) / "settings.json").exists())
    assert contrast(board.flash) == settings.Settings("x").get("contrast") != 55


def test_run_mounts_the_sources_without_copying_them(board):
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", "BOARD=pico", "PORT=" + board.port],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        model = wait_for(lambda: shows_title(board), 30)
        assert model and not model.anomalies
        assert proc.poll() is None  # mpremote follows the running program
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        out = proc.communicate(timeout=10)[0]
    assert "is mounted at /remote" in out
    assert os.listdir(board.flash) == []  # nothing was copied to the board


def test_repl_talks_to_the_board(board):
    child = pexpect.spawn(
        "make", ["--no-print-directory", "repl", "PORT=" + board.port], cwd=str(ROOT), timeout=20
    )
    child.expect("Connected to MicroPython")
    child.send("\r")
    child.expect(">>> ")
    child.send("6 * 7\r")
    child.expect("42")
    child.send("\x1d")  # Ctrl-]: leave mpremote
    child.expect(pexpect.EOF)


def test_unknown_board_is_refused_with_the_known_ones(tmp_path):
    result = make("deploy", board="uno", port=sys.executable)
    assert result.returncode != 0
    assert "unknown board 'uno'" in result.stderr
    assert "choose one of " + ", ".join(boardlist.known_boards()) in result.stderr


def test_missing_or_nonexistent_port_is_refused(tmp_path):
    for target in ("deploy", "repl", "run", "erase-settings"):
        result = make(target, port="")
        assert result.returncode != 0 and "no PORT given" in result.stderr, result.stderr
    result = make("deploy", port=str(tmp_path / "ttyACM9"))
    assert result.returncode != 0
    assert "ttyACM9 does not exist: is the board plugged in?" in result.stderr
