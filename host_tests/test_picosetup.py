"""What the Pico lab says it lacks (testbed/picosetup.py), checked without the lab: the
test_pico files skip with that line (and fail with it under CI)."""

import os
import re

import picosetup


def test_a_default_frozen_image_older_than_its_sources_is_not_booted(tmp_path, monkeypatch):
    # A build/image/oxo5110-pico.uf2 left from before a firmware change would fail the golden
    # frames without saying why.
    bootrom, image = tmp_path / "bootrom.ts", tmp_path / "oxo5110-pico.uf2"
    bootrom.write_text("")
    image.write_bytes(b"")
    monkeypatch.setattr(picosetup.webtools, "node_problem", lambda: None)
    monkeypatch.setenv("RP2040_BOOTROM", str(bootrom))
    monkeypatch.delenv("PICO_FIRMWARE", raising=False)
    monkeypatch.setattr(picosetup, "FROZEN", image)
    sources = [
        f for d in ("firmware", "frozen", "boards") for f in (picosetup.ROOT / d).rglob("*.py")
    ]
    newest = max(f.stat().st_mtime for f in sources)
    os.utime(image, (newest - 10, newest - 10))
    said = picosetup.problem("frozen")
    line = r"no Pico firmware to boot: PICO_FIRMWARE=%s is older than (\S+) \(make firmware "
    found = re.fullmatch(line % re.escape(str(image)) + r"BOARD=pico builds it\)", said)
    assert found and (picosetup.ROOT / found.group(1)) in sources, said
    os.utime(image, (newest + 10, newest + 10))
    assert picosetup.problem("frozen") is None
    monkeypatch.setenv("PICO_FIRMWARE", str(image))  # one named is taken as given, however old
    os.utime(image, (0, 0))
    assert picosetup.problem("frozen") is None
