"""The set-up check that runs before `make` creates .venv (tools/check_python.py), and make's
making of .venv around it."""

import os
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


def test_old_python_is_refused_with_the_version():
    found = check_python.problems((3, 9, 2), lambda name: object())
    assert len(found) == 1 and "3.11 or newer" in found[0] and "this is 3.9" in found[0]


# A python3 whose `-m venv DIR` makes only DIR/bin/python, a stand-in that logs what it is asked
# (pip install) to DIR/pip.log; anything else runs as the real Python runs it.
STAND_IN_VENV = (
    "import os, sys\n"
    "sys.argv = sys.argv[1:]\n"
    "if sys.argv[:2] == ['-m', 'venv']:\n"
    "    venv = sys.argv[2]\n"
    "    os.makedirs(venv + '/bin', exist_ok=True)\n"
    "    with open(venv + '/bin/python', 'w') as f:\n"
    "        f.write('#!/bin/sh\\necho \"$*\" >> %s/pip.log\\n' % venv)\n"
    "    os.chmod(venv + '/bin/python', 0o755)\n"
    "    sys.exit(0)\n"
    "exec(compile(open(sys.argv[0]).read(), sys.argv[0], 'exec'))\n"
)


def make(tmp_path, target, script, venv):
    """Run make `target` from the project with PYTHON a python3 that runs `script` first."""
    python = tmp_path / "python3"
    python.write_text('#!/bin/sh\nexec %s -c "$SCRIPT" "$@"\n' % sys.executable)
    python.chmod(0o755)
    return subprocess.run(
        [shutil.which("make"), "-C", str(ROOT), target, "PYTHON=%s" % python, "VENV=%s" % venv],
        env={"PATH": "/usr/bin:/bin", "SCRIPT": script},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_make_stops_before_venv_and_says_what_to_install(tmp_path):
    venv = tmp_path / "venv"
    result = make(tmp_path, "test", NO_ENSUREPIP, venv)
    assert result.returncode != 0
    assert "sudo apt install python3-venv" in result.stderr, result.stderr + result.stdout
    assert "python%d.%d-venv" % sys.version_info[:2] in result.stderr  # this version's package
    assert result.stderr.count("oxo5110 set-up:") == 1  # the one problem, not the version
    assert not venv.exists()


def test_a_venv_left_half_made_is_made_again_and_a_whole_one_is_kept(tmp_path):
    # A Ctrl-C during the first `make` (pip installing) leaves a .venv without .installed.
    # make's first step is tools/check_python.py on this Python: it must pass here.
    venv = tmp_path / "venv"
    (venv / "lib").mkdir(parents=True)
    (venv / "lib" / "half-installed").write_text("")
    stamp = venv / ".installed"
    result = make(tmp_path, str(stamp), STAND_IN_VENV, venv)
    assert result.returncode == 0, result.stderr + result.stdout
    assert result.stderr.splitlines() == [
        "oxo5110 set-up: %s was left half-made (no %s): making it again." % (venv, stamp)
    ]
    assert not (venv / "lib").exists() and stamp.exists()
    assert "-m pip install" in (venv / "pip.log").read_text()
    # A whole one (its stamp there) only older than requirements-dev.txt is updated in place.
    (venv / "lib").mkdir()
    (venv / "lib" / "installed").write_text("")
    os.utime(stamp, (0, 0))
    result = make(tmp_path, str(stamp), STAND_IN_VENV, venv)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert (venv / "lib" / "installed").exists()
    assert (venv / "pip.log").read_text().count("-m pip install") == 2
