"""Golden screens and tables: read the harness's GLASS lines and compare them with
host_tests/golden/. After an intended change, regenerate a test's goldens with
`UPDATE_GOLDEN=1 .venv/bin/python -m pytest host_tests/test_<name>.py` (never on CI) and
review the PNGs and their .txt twins, or the tables, in the diff.
"""

import os
import re
from pathlib import Path

import lcd_render
import pcd8544_model
import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
_GLASS = re.compile(r"^GLASS (\S+) ([0-9a-f]{1008}) ([01]) (\d+)$", re.M)


def snaps(stdout):
    """{name: (glass bytes, backlight bool, vop)} from the GLASS lines (the last one per name)."""
    out = {}
    for name, hexes, lit, vop in _GLASS.findall(stdout):
        out[name] = (bytes.fromhex(hexes), lit == "1", int(vop))
    return out


def updating():
    """Whether UPDATE_GOLDEN=1 asks to rewrite the goldens; never on CI, where it fails."""
    if os.environ.get("UPDATE_GOLDEN") and os.environ.get("CI"):
        pytest.fail("UPDATE_GOLDEN is for developers; CI never regenerates golden files")
    return bool(os.environ.get("UPDATE_GOLDEN"))


def same_text(path, text):
    """Whether the golden file `path` holds `text` (written first when updating())."""
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), "no golden file %s: create it with UPDATE_GOLDEN=1" % path
    return path.read_text(encoding="utf-8") == text


def check(name, snap, tmp_path):
    """Compare a snap with golden/<name>.png and .txt (create them with UPDATE_GOLDEN=1)."""
    glass, lit, vop = snap
    img = lcd_render.image(glass, scale=4, backlight=lit, vop=vop)
    png = GOLDEN / (name + ".png")
    if updating():
        png.parent.mkdir(parents=True, exist_ok=True)
        img.save(png)
    same = same_text(GOLDEN / (name + ".txt"), lcd_render.text(glass) + "\n")
    assert png.exists(), "no golden image %s: create it with UPDATE_GOLDEN=1" % png
    if not lcd_render.same_pixels(png, img) or not same:
        actual = tmp_path / (name + ".actual.png")
        actual.parent.mkdir(parents=True, exist_ok=True)  # a name may be "screens/<name>"
        img.save(actual)
        raise AssertionError(
            "screen %s differs from %s; actual: %s (UPDATE_GOLDEN=1 to accept)\n%s"
            % (name, png, actual, lcd_render.text(glass))
        )


def glass(name):
    """The 504-byte glass of a golden screen (golden/<name>.txt or golden/screens/<name>.txt),
    read from its half-block text twin (pcd8544_model.glass_text's: a character two rows, the
    index of its block their two bits, top first)."""
    path = GOLDEN / (name + ".txt")
    if not path.exists():
        path = GOLDEN / "screens" / (name + ".txt")
    rows = path.read_text(encoding="utf-8").split("\n")
    rows = [line[1:85] for line in rows if line.startswith("|")]
    assert len(rows) == 24
    out = bytearray(504)
    for r, line in enumerate(rows):
        for x, ch in enumerate(line):
            out[(r >> 2) * 84 + x] |= pcd8544_model.HALF_BLOCKS.index(ch) << (2 * r & 7)
    return out
