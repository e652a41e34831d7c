"""The Makefile: a bare `make` is `make help`, the list of the commands a user runs."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What a user runs (README.md), each on a line of its own in the list.
COMMANDS = (
    "play test test-pico serve web bench image firmware vboard wiring clean"
    " deploy repl run erase-settings mip"
).split()


@pytest.mark.parametrize("args", [[], ["help"]], ids=["make", "make help"])
def test_make_and_make_help_list_the_commands_a_user_runs(args):
    done = subprocess.run(
        ["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "oxo5110: make TARGET (README.md and docs/commands.md say more)"
    listed = [word for line in lines[1:] for word in line.split("  ")[1].split()]
    assert set(COMMANDS) <= set(listed)
    assert all(len(line.split("  ", 2)) == 3 for line in lines[1:]), "a target with no words"
