"""Boot `make firmware BOARD=esp32`'s image in Espressif's QEMU and check what QEMU can show.

    python tools/espqemu.py build/image/oxo5110-esp32.bin   (qemu-system-xtensa on PATH:
                                                            ESP-IDF's idf_tools.py install
                                                            qemu-xtensa, then export.sh)

Espressif's QEMU never completes a hardware SPI transfer, so the game would stop at its first
frame: the flash gets a filesystem holding a main.py of checks instead, which the frozen main
runs in place of the game (frozen/main.py), as it would a user's. The checks: MicroPython's
banner names v1.28.0; every frozen game module imports (from the firmware: nothing else is on
the filesystem); the engine answers a move from the empty board; settings.json is written by
the game's Settings and read back. Release workflow only (ESP-IDF's container).
"""

import subprocess
import sys
import time
from pathlib import Path

import espimage
import layout
import lfsimage

DONE = "oxo5110-qemu: done"
CHECKS = """\
import sys
print("oxo5110-qemu: banner", sys.version, sys.implementation._machine)
names = %r
for name in names:
    __import__(name)
print("oxo5110-qemu: imported", len(names), "frozen modules")
import engine
print("oxo5110-qemu: move", engine.best_move(0, engine.X), engine.last_nodes(), "nodes")
import settings
s = settings.Settings.load("settings.json")
s.set("contrast", 51)
s.save()
print("oxo5110-qemu: settings", settings.Settings.load("settings.json").get("contrast"))
print("%s")
"""


def flash_image(firmware):
    """4 MiB of flash from 0: the image at 0x1000 and a filesystem with the checks' main.py."""
    offset, size = espimage.filesystem_range(firmware, what="the firmware")
    names = [p.stem for p in layout.sources(main=False)]
    main = (CHECKS % (names + ["board"], DONE)).encode()
    fs = lfsimage.build([("main.py", main)], size, lfsimage.PROG_SIZE["esp32"])
    merged = espimage.merge(firmware, offset, fs.data)
    flash = b"\xff" * espimage.FIRMWARE_OFFSET + merged
    return flash.ljust(espimage.FLASH_SIZE, b"\xff")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    firmware = Path(argv[0]).read_bytes()
    flash = Path(argv[0]).with_suffix(".qemu-flash")
    flash.write_bytes(flash_image(firmware))
    qemu = [
        "qemu-system-xtensa", "-nographic", "-machine", "esp32",
        "-drive", "file=%s,if=mtd,format=raw" % flash,
    ]  # fmt: skip
    proc = subprocess.Popen(qemu, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen, deadline = [], time.monotonic() + 180
    try:
        for line in proc.stdout:
            print(line, end="")
            seen.append(line.strip())
            if DONE in line or time.monotonic() > deadline:
                break
    finally:
        proc.kill()
    said = {line.split()[1]: line for line in seen if line.startswith("oxo5110-qemu:")}
    wanted = {
        "banner": "v1.28.0" in said.get("banner", ""),
        "imported": "imported" in said,
        "move": said.get("move", "").split()[2:3] == ["4"],  # the centre
        "settings": said.get("settings", "").endswith(" 51"),
    }
    failed = [name for name, ok in wanted.items() if not ok]
    if failed or not any(DONE in line for line in seen):
        print("espqemu: failed: %s" % ", ".join(failed or ["no end of the checks"]))
        return 1
    print("espqemu: banner, %s, move %s, settings written" % (
        said["imported"].split(":", 1)[1].strip(), said["move"].split()[2]))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
