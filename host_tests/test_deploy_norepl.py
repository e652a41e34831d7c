"""deploy on a port it cannot use (no MicroPython REPL, held by another program, not a serial
port, no permission) or to a board of another MicroPython port than BOARD's: one line saying
why, no traceback."""

import errno
import os
import threading

import boardport
import deploy
import pytest
import serial


def deploy_on(port, capsys):
    code = deploy.main(["deploy", "--board", "pico", "--port", port, "--wait", "0.1"])
    said = capsys.readouterr()
    assert said.out == "" and said.err.count("\n") == 1, said.err
    assert "Traceback" not in said.err
    return code, said.err


@pytest.fixture
def pty():
    """(controller fd, the device's path): a serial port that exists and opens."""
    controller, device = os.openpty()
    yield controller, os.ttyname(device)
    os.close(device)
    os.close(controller)


def test_a_silent_port_ends_in_one_line_pointing_to_install(pty, capsys):
    code, err = deploy_on(pty[1], capsys)  # nothing answers on it
    assert code == 1
    assert err.startswith("deploy: no MicroPython REPL answers on /dev/pts/")
    assert "See Install in README.md" in err


def test_a_port_another_program_holds_is_named_in_use(pty, capsys):
    # mpremote (make repl), Thonny and serial monitors open the port exclusively.
    port = pty[1]
    holder = serial.Serial(port, exclusive=True)
    try:
        code, err = deploy_on(port, capsys)
    finally:
        holder.close()
    assert code != 0
    assert err == (
        "deploy: %s is in use by another program (make repl, Thonny, a serial monitor?): "
        "close it and try again\n" % port
    )


@pytest.mark.parametrize("port", ["/dev/null", "/dev/zero", "README.md", "/tmp"])
def test_a_port_that_is_not_a_serial_device_says_where_boards_appear(port, capsys):
    code, err = deploy_on(port, capsys)
    assert code != 0
    assert err.startswith("deploy: %s is not a serial port (" % port), err
    assert "/dev/ttyACM0" in err and "/dev/ttyUSB0" in err
    assert "`.venv/bin/mpremote connect list`" in err
    assert "dialout" not in err


@pytest.mark.parametrize("code", [errno.EACCES, errno.EPERM])
def test_only_a_permission_error_points_to_the_dialout_group(code, tmp_path):
    port = tmp_path / "ttyACM0"  # a port that is there, and refuses to open with `code`
    port.touch()
    said = boardport.port_problem(str(port), OSError(code, os.strerror(code)), 1)
    assert said.endswith("(Linux: is your user in the dialout group?)")
    said = boardport.port_problem(str(port), OSError(errno.EIO, os.strerror(errno.EIO)), 1)
    assert said == "cannot open %s: %s" % (port, os.strerror(errno.EIO))


def rp2_at_its_repl(controller):
    """Serve a Pico's MicroPython REPL on a pty's controller side: a prompt after Ctrl-B, and
    the answer to sys.platform after its echo, as a Pico's friendly REPL sends them."""
    heard = b""
    while True:
        try:
            heard += os.read(controller, 256)
        except OSError:  # the test closed the pty
            return
        if b"\x02" in heard:
            heard = heard.split(b"\x02", 1)[1]
            os.write(
                controller, b"\r\nMicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico\r\n>>> "
            )
        if b"print(sys.platform)\r" in heard:
            heard = b""
            os.write(controller, b"import sys; print(sys.platform)\r\nrp2\r\n>>> ")


@pytest.mark.parametrize("target", ["deploy", "run", "mip"])
def test_a_board_file_for_another_port_is_refused_naming_both(target, pty, capsys, monkeypatch):
    def copy(*args):
        raise AssertionError("it went on to mpremote")

    monkeypatch.setattr(deploy, "commands", copy)
    threading.Thread(target=rp2_at_its_repl, args=(pty[0],), daemon=True).start()
    code = deploy.main([target, "--board", "esp32", "--port", pty[1]])
    said = capsys.readouterr()
    assert code == 2 and said.out == ""
    assert said.err == (
        "%s: board file esp32.py is for esp32; the board at %s runs rp2: use BOARD=pico\n"
        % (target, pty[1])
    )
