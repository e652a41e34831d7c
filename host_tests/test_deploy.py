"""make deploy/run/erase-settings against the virtual board (a pty), and the refusals."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import boardlist
import mpyrun
import pcd8544_model
import pytest
import virtualboard

ROOT = Path(__file__).resolve().parents[1]
HOSTBOARD = ROOT / "tools" / "hostboard"


@pytest.fixture
def board(tmp_path, monkeypatch):
    """A virtual board served from a thread; its flash dir and LCD bus file in tmp_path."""
    if mpyrun.micropython_path() is None:
        pytest.skip(mpyrun.UNAVAILABLE)
    bus = tmp_path / "lcd.bus"
    monkeypatch.setenv("SIMLINK_OUT", str(bus))
    log = []
    vb = virtualboard.VirtualBoard(
        tmp_path / "flash", [HOSTBOARD, ROOT / "tools"], setup="simlink", log=log.append
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


def test_deploy_copies_everything_resets_and_main_py_starts(board):
    (Path(board.flash) / "settings.json").write_text('{"contrast": 55}')
    (Path(board.flash) / "engine.py").write_text("stale = True\n")  # would shadow engine.mpy
    result = make("deploy", port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    firmware = sorted(p.stem for p in (ROOT / "firmware").glob("*.py") if p.name != "main.py")
    on_board = sorted(os.listdir(board.flash))
    expected = sorted([m + ".mpy" for m in firmware] + ["board.mpy", "main.py", "settings.json"])
    assert on_board == expected
    assert (Path(board.flash) / "main.py").read_bytes() == (ROOT / "firmware/main.py").read_bytes()
    for name in firmware + ["board"]:
        assert (Path(board.flash) / (name + ".mpy")).read_bytes()[:1] == b"M"  # mpy header
    # The reset ran the deployed main.py: it built the board (the LCD shows the game's title
    # screen, drawn by the real driver on the virtual SPI) and kept the settings file.
    assert wait_for(lambda: board.events[-2:] == ["hard reset (machine.reset)", "running main.py"])
    model = wait_for(
        lambda: (m := glass(board.bus)) and m.initialised and len(m.dark_pixels()) > 200 and m
    )
    assert model and not model.anomalies, model and model.state()
    assert json_contrast(board.flash) == 55


def json_contrast(flash):
    import json

    return json.loads((Path(flash) / "settings.json").read_text()).get("contrast")


def test_erase_settings_removes_only_the_settings(board):
    (Path(board.flash) / "settings.json").write_text("{}")
    (Path(board.flash) / "keep.txt").write_text("x")
    result = make("erase-settings", port=board.port)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "removed settings.json" in result.stdout
    assert sorted(os.listdir(board.flash)) == ["keep.txt"]


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
    assert not (ROOT / "build" / "deploy" / "uno").exists()
