"""The boards this firmware knows: one `boards/<name>.py` each, and the MicroPython port it runs.

Deploy refuses a board that has no file here; the type check needs the port to pick its stubs.
A board file names its port itself (`PORT = "rp2"`), so adding a board is adding one file.
"""

import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ROOT / "boards"


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


def given(name, example, boards_dir=BOARDS):
    """board_file(name) for a BOARD from a command line; with none given, ValueError naming the
    known boards and `example`, the command to type."""
    if not name:
        known = ", ".join(known_boards(boards_dir))
        raise ValueError("no BOARD given: choose one of %s, e.g. `%s`" % (known, example))
    return board_file(name, boards_dir)


def port_of(name, boards_dir=BOARDS):
    """The board file's `PORT = "<port>"` string (whose stubs type-check it), or None."""
    return constant(name, "PORT", str, boards_dir)


def constants(text):
    """{NAME: (value, the comment on its line)} of a module's top-level `NAME = literal` lines,
    const() unwrapped: read, not run (a board file imports machine; host_tests/firmwaresource.py
    reads firmware modules' tables so)."""
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.lstrip("# ")
    found = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [type(t) for t in node.targets] == [ast.Name]:
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
                value = value.args[0]
            try:
                found[node.targets[0].id] = (
                    ast.literal_eval(value),
                    comments.get(node.lineno, ""),
                )
            except ValueError:
                pass  # not a literal: `1 << 30`, a call
    return found


def constant(name, key, kind, boards_dir=BOARDS):
    """The board file's top-level `KEY = <a constant of type kind>`, or None."""
    value = constants(board_file(name, boards_dir).read_text()).get(key, (None,))[0]
    return value if type(value) is kind else None
