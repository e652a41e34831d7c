"""deploy on a port where no MicroPython REPL answers: one line pointing to Install."""

import os

import deploy


def test_a_silent_port_ends_in_one_line_pointing_to_install(capsys):
    controller, device = os.openpty()  # a serial port that exists, opens and never answers
    try:
        code = deploy.main(["deploy", "--board", "pico", "--port", os.ttyname(device)])
    finally:
        os.close(device)
        os.close(controller)
    said = capsys.readouterr()
    assert code == 1 and said.out == ""
    assert said.err.count("\n") == 1, said.err
    assert said.err.startswith("deploy: no MicroPython REPL answers on /dev/pts/")
    assert "See Install in README.md" in said.err and "Traceback" not in said.err
