"""The virtual board's command line: `--board NAME` (and `make vboard`) fill in its options."""

import os
import shlex
import subprocess
from pathlib import Path

import mpyrun
import pytest
import virtualboard_args
from deployrig import Line

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
PICO = dict(flash=BUILD / "virtual-pico", link=BUILD / "ttyACM0", usb_gap=1.5, port="rp2")


@pytest.mark.parametrize(
    ("argv", "options"),
    [
        # A Pico as deployed: native USB, its port away 1.5 s after a reset.
        (["--board", "pico"], dict(PICO, setup="simulator_mp", name="virtual pico")),
        # An ESP32 board behind a USB-serial bridge keeps its port through a reset.
        (
            ["--board", "esp32"],
            dict(flash=BUILD / "virtual-esp32", link=BUILD / "ttyUSB0", usb_gap=0.0, port="esp32"),
        ),
        # Options given win over the board's.
        (
            ["--board", "pico", "--flash", "f", "--usb-gap", "0"],
            dict(PICO, flash=Path("f"), usb_gap=0),
        ),
        (["--flash", "f"], dict(link=None, usb_gap=0.0, setup=None, port=None)),
    ],
    ids=["pico", "esp32", "given-win", "no-board"],
)
def test_board_fills_in_the_options_not_given(argv, options):
    args = vars(virtualboard_args.parse(argv))
    assert {key: args[key] for key in options} == options


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--board", "nano"], "unknown board 'nano': choose one of esp32, pico"),
        ([], "give --flash DIR (the board's filesystem) or --board NAME"),
        (["--flash", "x", "--usb-gap", "1"], "--usb-gap needs --link"),
    ],
)
def test_a_wrong_command_line_says_what_is_wrong(argv, said, capsys):
    with pytest.raises(SystemExit) as stop:
        virtualboard_args.parse(argv)
    err = capsys.readouterr().err
    assert said in err and stop.value.code == 2
    if argv[:1] == ["--board"]:  # make vboard BOARD=...: one line
        assert err == "virtualboard: %s (a board is a file boards/<name>.py)\n" % said, err


def vboard_command(*make_args):
    """The command `make vboard` runs (make -n prints it without running it)."""
    result = subprocess.run(
        ["make", "-n", "--no-print-directory", "vboard", *make_args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    [line] = [line for line in result.stdout.splitlines() if "virtualboard.py" in line]
    words = shlex.split(line)
    # In make's place, as make serve (test_web_build): a terminal's Ctrl-C is the board's alone,
    # with no "make: *** Interrupt" after its own words.
    assert words[0] == "exec", line
    return words[1:]


def test_make_vboard_stands_in_for_the_board_asked_for_a_pico_by_default(tmp_path):
    if mpyrun.micropython_path() is None:
        pytest.skip(mpyrun.UNAVAILABLE)
    assert vboard_command()[-2:] == ["--board", "pico"]
    command = vboard_command("BOARD=esp32")
    assert command[-2:] == ["--board", "esp32"]
    # Run as make would, but with its flash and port in tmp_path rather than the checkout's.
    link = tmp_path / "ttyUSB0"
    proc = subprocess.Popen(
        command + ["--flash", str(tmp_path / "flash"), "--link", str(link)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == str(link)
        said = proc.stderr.readline()
        assert "virtual esp32 (Ctrl-C stops it)" in said, said
        assert "make deploy BOARD=esp32 PORT=" + os.path.relpath(link, ROOT) in said
        line = Line(link)
        got = line.until(b">>> ")
        os.close(line.fd)
        assert got.endswith(b'virtual esp32\r\nType "help()" for more information.\r\n>>> ')
    finally:
        proc.terminate()
        proc.wait(10)
    assert not link.exists()  # Ctrl-C or SIGTERM: it tidies up


def test_the_cable_is_the_boards_link_uart_on_a_port_and_a_wrong_one_says_what_is_allowed(
    capsys,
):
    args = virtualboard_args.parse(["--board", "esp32", "--cable", "5110"])
    assert args.cable == {"SIMLINK_CABLE": "5110 2"}  # boards/esp32.py's LINK_UART
    assert virtualboard_args.parse(["--board", "pico"]).cable is None
    with pytest.raises(SystemExit) as stop:
        virtualboard_args.parse(["--board", "pico", "--cable", "99999"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert (
        err.startswith(
            "virtualboard: LINK (--cable) is a TCP port on this machine from 1024 to 32767"
        )
        and err.count("\n") == 1
    ), err
    with pytest.raises(SystemExit):
        virtualboard_args.parse(["--flash", "f", "--cable", "5110"])
    assert "--cable needs --board" in capsys.readouterr().err
    assert vboard_command("LINK=5110")[-2:] == ["--cable", "5110"]
