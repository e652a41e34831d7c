"""The set-up check that runs before `make` creates .venv (tools/check_python.py)."""

import shutil
import subprocess
import sys

import check_python
from conftest import ROOT

# A Debian/Ubuntu python3 without the python3-venv package: its stdlib has no ensurepip
# (the package holds /usr/lib/python3.X/ensurepip/), so find_spec("ensurepip") is None.
NO_ENSUREPIP = (
    "import sys, importlib.util as u\n"
    "real = u.find_spec\n"
    "u.find_spec = lambda name, *a: None if name == 'ensurepip' else real(name, *a)\n"
    "sys.argv = sys.argv[1:]\n"
    "if sys.argv[:2] == ['-m', 'venv']:\n"
    "    sys.exit('venv must not be tried: the check runs first')\n"
    "exec(compile(open(sys.argv[0]).read(), sys.argv[0], 'exec'))\n"
)


def test_this_python_passes():
    assert check_python.problems() == []


def test_missing_ensurepip_names_the_debian_package():
    found = check_python.problems(
        (3, 11, 2), lambda name: None if name == "ensurepip" else object()
    )
    assert len(found) == 1
    assert "ensurepip" in found[0] and "sudo apt install python3-venv" in found[0]
    assert "python3.11-venv" in found[0]


def test_old_python_is_refused_with_the_version():
    found = check_python.problems((3, 9, 2), lambda name: object())
    assert len(found) == 1 and "3.11 or newer" in found[0] and "this is 3.9" in found[0]


def test_make_stops_before_venv_and_says_what_to_install(tmp_path):
    python = tmp_path / "python3"
    python.write_text('#!/bin/sh\nexec %s -c "$SCRIPT" "$@"\n' % sys.executable)
    python.chmod(0o755)
    venv = tmp_path / "venv"
    result = subprocess.run(
        [shutil.which("make"), "-C", str(ROOT), "test", "PYTHON=%s" % python, "VENV=%s" % venv],
        env={"PATH": "/usr/bin:/bin", "SCRIPT": NO_ENSUREPIP},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "sudo apt install python3-venv" in result.stderr, result.stderr + result.stdout
    assert not venv.exists()
