"""The virtual board answers the raw REPL byte for byte the way a MicroPython board does."""

import os
import select
import shutil
import struct

import pytest
import virtualboard
from deployrig import RAW, Line, enter_raw, powered_on, shows_title, wait_for
from serialline import SerialLine


@pytest.fixture
def line(tmp_path, boards):
    (tmp_path / "main.py").write_text("print('main says hi')\n")
    events = []
    vb = powered_on(boards(tmp_path, log=events.append))
    host = Line(vb.port)
    host.events = events
    host.until(b"main says hi\r\n")  # power-on ran main.py, output cooked as on a board
    host.until(b">>> ")
    yield host
    os.close(host.fd)


def test_raw_repl_frames_output_and_errors(line):
    enter_raw(line)
    line.send(b"x = 6\nprint(x * 7)\x04")
    assert line.until(b">") == b"OK42\n\x04\x04>"
    line.send(b"print(x)\n1/0\x04")  # globals persist between blocks, as in a board's REPL
    reply = line.until(b"\x04>")
    assert reply.startswith(b"OK6\n\x04Traceback (most recent call last):\n")
    assert reply.endswith(b"ZeroDivisionError: divide by zero\n\x04>")


def test_raw_paste_mode_with_window_flow_control(line):
    enter_raw(line)
    line.send(b"\x05A\x01")
    assert line.read(2) == b"R\x01"
    window = struct.unpack("<H", line.read(2))[0]
    assert window == virtualboard.PASTE_WINDOW
    code = b"s = '" + b"ab" * 100 + b"'\nprint(len(s))\n"  # longer than one window
    line.send(code[:window])
    assert line.read(1) == b"\x01"  # the next window may be sent
    line.send(code[window:] + b"\x04")
    assert line.until(b"\x04>") == b"\x04200\n\x04\x04>"


def test_soft_reset_gives_a_fresh_interpreter(line):
    enter_raw(line)
    line.send(b"y = 1\x04")
    line.until(b"\x04>")
    line.send(b"\x04")  # Ctrl-D on an empty raw REPL: soft reset, main.py not run
    assert line.until(RAW) == b"MPY: soft reboot\r\n" + RAW
    line.send(b"print('y' in globals())\x04")
    assert line.until(b"\x04>") == b"OKFalse\n\x04\x04>"
    line.send(b"\x02")  # back to the friendly REPL; Ctrl-D there reboots and runs main.py
    line.until(b">>> ")
    line.send(b"\x04")
    reply = line.until(b">>> ")
    assert reply.startswith(b"\r\nMPY: soft reboot\r\nmain says hi\r\nMicroPython"), reply


def test_friendly_repl_echoes_and_evaluates(line):
    line.send(b"2 + 3\r")
    assert line.until(b">>> ") == b"2 + 3\r\n5\r\n>>> "
    line.send(b"for i in range(2):\r    print(i)\r\r")
    assert line.until(b">>> ").endswith(b"0\r\n1\r\n>>> ")


def test_a_board_without_main_py_is_at_its_repl_once_booted(tmp_path, boards):
    # Nothing runs (pyexec_file_if_exists), so a Ctrl-C typed during the boot (mpremote sends
    # one as it connects) is the REPL's: it never becomes a SIGINT for a block that has just
    # ended, which killed the interpreter half ("the interpreter died").
    events = []
    vb = boards(tmp_path, log=events.append)
    host = Line(vb.port)
    host.send(b"\x03x = 6 * 7\rx\r")  # typed while it powers on
    vb.boot()
    assert vb.mode == "friendly"
    vb.thread.start()
    reply = host.until(b"42\r\n>>> ", 3)
    assert reply.endswith(b"\r\nKeyboardInterrupt\r\n>>> x = 6 * 7\r\n>>> x\r\n42\r\n>>> ")
    assert events == ["no main.py"]
    os.close(host.fd)


def test_input_that_comes_as_the_code_ends_reaches_the_repl(tmp_path, boards):
    # Until the host reads the code's end it passes serial input to the code's stdin. What
    # came in between was lost in the finished interpreter's stdin (deploy's Enter asking
    # whether main.py runs; `machine.reset()` typed at a board that had just booted); a
    # board's REPL gets it from its ring buffer. Here that window is held open.
    vb = boards(tmp_path, log=lambda msg: None)
    assert vb.mode == "off"  # not at a REPL before it has powered on
    vb.start()
    host = Line(vb.port)
    vb._execute("friendly", b"S", b"x = 6\n")
    # It has ended; the host has not read that yet.
    assert select.select([vb.interpreter.ctl_r], [], [], 5)[0]
    host.send(b"x * 7\r")
    assert select.select([vb.serial.master], [], [], 5)[0]
    vb._read_serial()  # running, as far as the host knows: to the code's stdin
    vb.thread.start()
    assert host.until(b"42\r\n>>> ", 3) == b">>> x * 7\r\n42\r\n>>> "
    os.close(host.fd)


@pytest.mark.parametrize("port", [None, "esp32"])
def test_a_board_file_runs_on_the_port_it_names(tmp_path, monkeypatch, boards, deployed, port):
    # A virtual board made with no port (deployrig's without a USB gap) or as an ESP32 (`make
    # vboard BOARD=esp32`) runs the deployed Pico firmware on the rp2 model all the same. Ctrl-C
    # ends the game through runner.stop(), whose wdt_off writes the rp2 watchdog's CTRL
    # register: the other models raised "mem32[...] is not modelled" there, over the
    # KeyboardInterrupt (issue 26, point 7).
    shutil.copytree(deployed, tmp_path / "flash")
    monkeypatch.setenv("SIMLINK_OUT", str(tmp_path / "lcd.bus"))
    vb = powered_on(
        boards(tmp_path / "flash", setup="simulator_mp", log=lambda msg: None, port=port)
    )
    vb.bus = tmp_path / "lcd.bus"
    host = Line(vb.port)
    assert wait_for(lambda: shows_title(vb))  # in the game's loop: the watchdog is armed
    host.send(b"\x03")
    said = host.until(b">>> ", 10)
    assert b"not modelled" not in said and b"KeyboardInterrupt" in said, said
    os.close(host.fd)


def test_a_second_board_on_a_port_in_use_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    # A second `make vboard BOARD=pico` took build/ttyACM0 from the first and deleted it as it
    # ended: it is refused before it touches the port.
    link = tmp_path / "ttyACM0"
    first = SerialLine(lambda msg: None, link=link)
    monkeypatch.setattr(virtualboard.VirtualBoard, "serve", lambda board: None)
    try:
        assert virtualboard.main(["--flash", str(tmp_path / "flash"), "--link", str(link)]) == 2
        assert os.readlink(link) == first.tty
    finally:
        first.close()
    refused = "virtualboard: %s is in use by another virtual board: stop it first, or give " % link
    assert capsys.readouterr().err == refused + "this one another board or --link\n"
