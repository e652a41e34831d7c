"""MicroPython with the game frozen in: the one file a person flashes (`make firmware`).

    make firmware BOARD=pico     build/image/oxo5110-pico.uf2     RPI_PICO
    make firmware BOARD=pico-w   build/image/oxo5110-pico-w.uf2   RPI_PICO_W (the Pico's pins)
    make firmware BOARD=pico2    build/image/oxo5110-pico2.uf2    RPI_PICO2 (the Pico's pins)
    make firmware BOARD=esp32    build/image/oxo5110-esp32.bin    ESP32_GENERIC, for 0x1000

`--stock` builds the same MicroPython without the game, as micropython.org publishes it, into
build/micropython/<board>/ (`make test-pico` boots it with deploy's files: the stock route).

MICROPYTHON_SRC: a MicroPython checkout at PIN with its board's submodules, built in
build/firmware/<board>/ (its build.log there) with frozen/manifest.py. Anything missing ends in
one line saying what to install or set; the image is written whole, after a build that succeeded.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import boardlist
import picoinfo
import uf2
from firmware_needs import (
    PIN_TAG,
    Missing,
    check_arm_toolchain,
    check_esp_idf,
    check_source,
)
from wholefile import shown, write_whole

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "image"
STOCK = ROOT / "build" / "micropython"  # --stock: what micropython.org would give, per board
WORK = ROOT / "build" / "firmware"
MANIFEST = ROOT / "frozen" / "manifest.py"

# The submodules each board's build reads (ports/rp2/CMakeLists.txt and py/mkrules.cmake's
# GIT_SUBMODULES; extmod/extmod.cmake for lwip and btree), each with a file that shows it is
# there: an uninitialised submodule is an empty folder.
RP2_SUBMODULES = (
    ("lib/pico-sdk", "pico_sdk_init.cmake"),
    ("lib/tinyusb", "src/tusb.h"),
    ("lib/mbedtls", "include/mbedtls/version.h"),
    ("lib/micropython-lib", "README.md"),  # the port's manifest requires modules from it
)
PICO_W_SUBMODULES = (
    ("lib/cyw43-driver", "src/cyw43.h"),
    ("lib/lwip", "src/include/lwip/init.h"),
    ("lib/btstack", "src/btstack.h"),
)
ESP32_SUBMODULES = (
    ("lib/berkeley-db-1.xx", "README"),
    ("lib/micropython-lib", "README.md"),
)


class Image(NamedTuple):
    """One firmware file: the board file it carries, and the MicroPython board it is built as."""

    board_file: str  # boards/<name>.py
    micropython: str  # the MicroPython board (ports/<port>/boards/<name>)
    out: str  # its name under build/image
    submodules: tuple
    # The pico-sdk makes UF2 files with picotool, which is not always at hand; for the RP2040
    # uf2.py does it from firmware.bin. For the RP2350 picotool also adds the block that works
    # around the boot ROM's erratum RP2350-E10 (pico-sdk tools/CMakeLists.txt, --abs-block):
    # that image is left to picotool, which the pico-sdk fetches (its own version, 2.2.0).
    uf2_from_bin: bool = True


IMAGES = {
    "pico": Image("pico", "RPI_PICO", "oxo5110-pico.uf2", RP2_SUBMODULES),
    "pico-w": Image(
        "pico", "RPI_PICO_W", "oxo5110-pico-w.uf2", RP2_SUBMODULES + PICO_W_SUBMODULES
    ),
    "pico2": Image("pico", "RPI_PICO2", "oxo5110-pico2.uf2", RP2_SUBMODULES, uf2_from_bin=False),
    "esp32": Image("esp32", "ESP32_GENERIC", "oxo5110-esp32.bin", ESP32_SUBMODULES),
}


def check_board(name):
    if name not in IMAGES:
        said = "unknown BOARD=%s" % name if name else "no BOARD given"
        raise Missing(
            "%s: use BOARD=%s (e.g. make firmware BOARD=pico)" % (said, "|".join(IMAGES))
        )
    return IMAGES[name]


def check_submodules(src, image, given):
    lacking = [name for name, known in image.submodules if not (src / name / known).is_file()]
    if lacking:
        s = "s" if len(lacking) > 1 else ""
        raise Missing(
            f"MICROPYTHON_SRC={given} lacks the submodule{s} {', '.join(lacking)} that "
            f"{image.micropython} needs: make -C {shown(port_dir(src, image))} "
            f"BOARD={image.micropython} submodules"
        )


def port_name(image):
    return boardlist.port_of(image.board_file)


def port_dir(src, image):
    return src / "ports" / port_name(image)


def port_manifest(src, image):
    """The manifest the MicroPython board freezes when built alone (ports/rp2/CMakeLists.txt,
    ports/esp32/CMakeLists.txt: the board's manifest.py if its mpconfigboard.cmake names one,
    as RPI_PICO_W's does, else the port's boards/manifest.py)."""
    if (port_dir(src, image) / "boards" / image.micropython / "manifest.py").is_file():
        return "$(BOARD_DIR)/manifest.py"
    return "$(PORT_DIR)/boards/manifest.py"


def stage(src, image, work, stock=False):
    """work/ made afresh with board/board.py and the build's manifest.py; return the latter.
    `stock`: the manifest is the MicroPython board's own, without the game."""
    if work.exists():
        shutil.rmtree(work)
    (work / "board").mkdir(parents=True)
    port = port_manifest(src, image)
    manifest = work / "manifest.py"
    text = "include(%r)\n" % port
    if not stock:
        shutil.copyfile(boardlist.board_file(image.board_file), work / "board" / "board.py")
        text = (
            f"# Written by tools/firmware.py for {image.out} ({image.micropython}): the "
            "project's manifest with this board.\n"
            f"include({str(MANIFEST)!r}, board={str(work / 'board')!r}, port={port!r}, "
            f"rp2_boot={rp2_boot(image, port)!r})\n"
        )
    manifest.write_text(text, encoding="utf-8")
    return manifest


def rp2_boot(image, port):
    """True when the build freezes frozen/_boot.py, which makes a first boot's filesystem after
    the title, in place of the rp2 port's: an rp2 board built with the port's own manifest,
    which frozen/manifest.py restates without its _boot.py. A board with a manifest of its own
    (RPI_PICO_W: networking and Bluetooth on top) keeps the port's _boot.py."""
    return port_name(image) == "rp2" and port == "$(PORT_DIR)/boards/manifest.py"


def build_commands(src, image, manifest, build):
    """[(what, argv, cwd)] that build MicroPython into `build`; its firmware file is then
    build/firmware.uf2 where picotool makes it, else build/firmware.bin."""
    commands = []
    if not (src / "mpy-cross" / "build" / "mpy-cross").is_file():
        commands.append(("mpy-cross", ["make", "-C", str(src / "mpy-cross")], src))
    port = port_dir(src, image)
    if port_name(image) == "rp2":
        # What ports/rp2/Makefile runs, with cmake called directly: on make's command line
        # CMAKE_ARGS would replace the Makefile's own (the board and the frozen manifest).
        configure = [
            "cmake", "-S", str(port), "-B", str(build), "-DPICO_BUILD_DOCS=0",
            "-DMICROPY_BOARD=" + image.micropython,
            "-DMICROPY_BOARD_DIR=" + str(port / "boards" / image.micropython),
            "-DMICROPY_FROZEN_MANIFEST=" + str(manifest),
        ]  # fmt: skip
        if image.uf2_from_bin:
            configure.append("-DPICO_NO_PICOTOOL=1")
        commands.append(("cmake", configure, port))
        jobs = str(os.cpu_count() or 1)
        commands.append(("the compile", ["cmake", "--build", str(build), "-j", jobs], port))
    else:
        # ports/esp32/Makefile passes FROZEN_MANIFEST to idf.py itself, then makeimg.py merges
        # the bootloader, partition table and app into firmware.bin, for flash offset 0x1000.
        make = [
            "make", "-C", str(port), "BOARD=" + image.micropython, "BUILD=" + str(build),
            "FROZEN_MANIFEST=" + str(manifest),
        ]  # fmt: skip
        commands.append(("the compile", make, port))
    return commands


def last_error(log):
    """The last line of the log that says error, for the one line a failure ends in."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    errors = [line.strip() for line in lines if re.search(r"error", line, re.I)]
    return (errors or [line.strip() for line in lines if line.strip()] or [""])[-1][:160]


def run_build(src, image, work, stock=False):
    """Build MicroPython with the game frozen in (`stock`: without it); return the firmware
    file's bytes and the build's log."""
    manifest = stage(src, image, work, stock)
    build = work / "micropython"
    log = work / "build.log"
    with log.open("w", encoding="utf-8") as out:
        for what, argv, cwd in build_commands(src, image, manifest, build):
            out.write("$ %s\n" % " ".join(argv))
            out.flush()
            code = subprocess.run(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode
            if code != 0:
                out.close()
                raise Missing(
                    f"{what} of {image.micropython} failed (exit {code}): see {shown(log)} "
                    f"(last error: {last_error(log)})"
                )
    picotool = port_name(image) == "rp2" and not image.uf2_from_bin
    produced = build / ("firmware.uf2" if picotool else "firmware.bin")
    if not produced.is_file():
        raise Missing(f"the {image.micropython} build made no {produced.name}: see {shown(log)}")
    return produced.read_bytes(), log


def build_image(board, source, stock=False):
    """(path written, its bytes, lines to print); Missing with one line when anything is
    wrong. Nothing is written before the build succeeded. `stock`: MicroPython alone."""
    image = check_board(board)
    src = check_source(source)
    check_submodules(src, image, source)
    rp2 = port_name(image) == "rp2"
    if rp2:
        check_arm_toolchain()
    else:
        check_esp_idf()
    firmware, log = run_build(src, image, WORK / (board + "-stock" if stock else board), stock)
    built = "alone (stock)" if stock else "with the game frozen in"
    notes = [
        f"MicroPython {PIN_TAG} {image.micropython} {built}: firmware {len(firmware)} bytes; "
        f"log {shown(log)}"
    ]
    data = firmware
    if rp2 and image.uf2_from_bin:
        # The RP2040 UF2 of firmware.bin (flash from XIP_BASE), checked as `make image` checks
        # a MicroPython UF2: it declares its filesystem, on a sector, clear of its own code.
        blocks = uf2.pages(picoinfo.XIP_BASE, firmware)
        try:
            address, size = picoinfo.checked_range(blocks, "the built firmware")
        except ValueError as err:
            raise Missing(str(err)) from None
        data = uf2.write(blocks)
        notes.append(f"filesystem at 0x{address:08X}, {size // 1024} KB (made at the first boot)")
    out = OUT / image.out
    if stock:
        out = STOCK / board / ("firmware" + Path(image.out).suffix)
    return out, data, notes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="", help="|".join(IMAGES))
    parser.add_argument(
        "--src", default=os.environ.get("MICROPYTHON_SRC", ""), help="MICROPYTHON_SRC"
    )
    parser.add_argument(
        "--stock", action="store_true", help="MicroPython without the game, into build/micropython"
    )
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        path, data, notes = build_image(args.board, args.src, args.stock)
    except Missing as err:
        print("firmware: %s" % err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("firmware: stopped; build/image is as it was", file=sys.stderr)
        return 130
    write_whole(path, data)
    print(
        "firmware: %s (%d KB), %.0f s" % (shown(path), len(data) // 1024, time.monotonic() - start)
    )
    for note in notes:
        print("firmware: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
