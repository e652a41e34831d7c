"""The boards this firmware knows: one `boards/<name>.py` each, and the MicroPython port it runs.

Deploy refuses a board that has no file here; the type check needs the port to pick its stubs.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ROOT / "boards"

# Board file name -> MicroPython port whose stubs (`.venv/stubs/<port>`) type-check it.
PORT_OF_BOARD = {"pico": "rp2", "esp32": "esp32"}


def known_boards(boards_dir=BOARDS):
    """Names of the board files under boards/, sorted."""
    return sorted(p.stem for p in Path(boards_dir).glob("*.py") if not p.stem.startswith("_"))


def board_file(name, boards_dir=BOARDS):
    """Path of boards/<name>.py; ValueError naming the known boards when there is none."""
    known = known_boards(boards_dir)
    if name not in known:
        raise ValueError(
            "unknown board %r: choose one of %s (a board is a file boards/<name>.py)"
            % (name, ", ".join(known) or "(none: boards/ is empty)")
        )
    return Path(boards_dir) / (name + ".py")
