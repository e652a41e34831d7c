"""Check, before `make` creates .venv, that this Python can: 3.11 or newer, venv and ensurepip.

Run by the system Python (no dependencies). Debian and Ubuntu ship ensurepip in a separate
package (python3-venv, or python3.X-venv for a given version), without which `python3 -m venv`
fails half-way; this says which package to install instead. Exits 1 with the reason.
"""

import importlib.util
import sys

MINIMUM = (3, 11)


def problems(version=sys.version_info, find_spec=importlib.util.find_spec):
    """What stops this Python from making the project's virtualenv, as sentences (none: fine)."""
    found = []
    if tuple(version[:2]) < MINIMUM:
        found.append(
            "oxo5110 needs Python %d.%d or newer; this is %d.%d (%s). Install a newer python3 "
            "and point make at it, e.g. `make test PYTHON=python3.11`."
            % (MINIMUM + (version[0], version[1], sys.executable))
        )
    missing = [name for name in ("venv", "ensurepip") if find_spec(name) is None]
    if missing:
        found.append(
            "this Python (%s) has no %s module, so `python3 -m venv` cannot make .venv. "
            "On Debian/Ubuntu install it with `sudo apt install python3-venv` (or "
            "python%d.%d-venv for this version), then run the command again."
            % (sys.executable, " or ".join(missing), version[0], version[1])
        )
    return found


def main():
    found = problems()
    for sentence in found:
        print("oxo5110 set-up: " + sentence, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
