"""The virtual board's command line: `--board NAME` (and `make vboard`) fill in its options."""

import os
import select
import shlex
import subprocess
import time
from pathlib import Path

import mpyrun
import pytest
import virtualboard_args

ROOT = Path(__file__).resolve().parents[1]


def test_board_pico_stands_in_for_a_pico_as_deployed():
    args = virtualboard_args.parse(["--board", "pico"])
    assert args.flash == ROOT / "build/virtual-pico"
    assert (args.link, args.usb_gap) == (ROOT / "build/ttyACM0", 1.5)  # native USB
    assert args.setup == "simulator_mp"
    assert args.name == "virtual pico"


def test_board_esp32_keeps_its_port_through_a_reset():
    args = virtualboard_args.parse(["--board", "esp32"])  # a USB-serial bridge
    assert (args.flash, args.link, args.usb_gap) == (
        ROOT / "build/virtual-esp32",
        ROOT / "build/ttyUSB0",
        0.0,
    )


def test_options_given_win_over_the_boards(tmp_path):
    args = virtualboard_args.parse(["--board", "pico", "--flash", str(tmp_path), "--usb-gap", "0"])
    assert (args.flash, args.usb_gap, args.link) == (tmp_path, 0.0, ROOT / "build/ttyACM0")


def test_without_board_the_options_are_the_plain_ones(tmp_path):
    args = virtualboard_args.parse(["--flash", str(tmp_path)])
    assert (args.link, args.usb_gap, args.setup) == (None, 0.0, None)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--board", "nano"], "unknown board 'nano': choose one of esp32, pico"),
        ([], "give --flash DIR (the board's filesystem) or --board NAME"),
        (["--flash", "x", "--usb-gap", "1"], "--usb-gap needs --link"),
    ],
)
def test_a_wrong_command_line_says_what_is_wrong(argv, said, capsys):
    with pytest.raises(SystemExit):
        virtualboard_args.parse(argv)
    assert said in capsys.readouterr().err


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
    return shlex.split(line)


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
        fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
        got, end = b"", time.monotonic() + 10
        while not got.endswith(b">>> ") and time.monotonic() < end:
            if select.select([fd], [], [], 1)[0]:
                got += os.read(fd, 4096)
        os.close(fd)
        assert got.endswith(b'virtual esp32\r\nType "help()" for more information.\r\n>>> ')
    finally:
        proc.terminate()
        proc.wait(10)
    assert not link.exists()  # Ctrl-C or SIGTERM: it tidies up
