"""One file to flash: the firmware as a filesystem image, alone or with MicroPython.

    make image BOARD=pico                        build/image/oxo5110-pico-fs.uf2
    make image BOARD=pico MICROPYTHON=mp.uf2     + build/image/oxo5110-pico.uf2 (both in one)
    make image BOARD=esp32                       build/image/oxo5110-esp32-fs.bin
    make image BOARD=esp32 MICROPYTHON=mp.bin    + build/image/oxo5110-esp32.bin, and the
                                                 `esptool write-flash` line that installs it

The filesystem holds what `make deploy` copies (deploy_chains.build_deploy) as littlefs2 of
the port's geometry (tools/lfsimage.py), where the port mounts it: on rp2 (RPI_PICO, 1.28) the
last 1408 KB of the 2 MB flash (rp2_flash.c: 0xA0000 from XIP_BASE) or the range a given
MicroPython UF2 declares (tools/picoinfo.py); on esp32 from the partition table
(tools/espimage.py). Nothing is written unless all is right, and each file whole. The game
runs on GAME_NEEDS or newer; a filesystem-only image needs the layout it is made for (NEEDS).
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import boardlist
import deploy_chains
import espimage
import lfsimage
import picoinfo
import uf2
from wholefile import shown, write_whole

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "image"
GAME_NEEDS = "1.22"
# Filesystem-only images: rp2's first to declare its range; esp32's first whose table puts
# the filesystem where the image goes.
NEEDS = {"rp2": picoinfo.DECLARED_SINCE, "esp32": "1.26"}
PICO_FS_OFFSET = 0xA0000
PICO_FS_SIZE = 1408 * 1024


class Made(NamedTuple):
    """What was written: {path: bytes}, the filesystem image, and lines to print."""

    files: dict
    fs: lfsimage.Image
    notes: list


def deploy_files(board):
    """[(name on the board, bytes)]: what `make deploy` copies, compiled as deploy compiles it."""
    with tempfile.TemporaryDirectory(prefix="oxo5110-image-") as folder:
        mpys, board_mpy, main_py = deploy_chains.build_deploy(board, Path(folder))
        return [(p.name, p.read_bytes()) for p in mpys + [board_mpy, main_py]]


def _where(address, size):
    return "0x%08X..0x%08X (%d KB)" % (address, address + size, size // 1024)


def _filesystem(files, size, prog_size, whose):
    try:
        return lfsimage.build(files, size, prog_size)
    except ValueError as err:
        raise ValueError("%s (the one of %s)" % (err, whose)) from None


def pico(board, files, micropython=None, name="the MICROPYTHON file"):
    address, size = picoinfo.XIP_BASE + PICO_FS_OFFSET, PICO_FS_SIZE
    firmware = None
    if micropython is not None:
        firmware = uf2.read_blocks(micropython, name)
        families = {b.family for b in firmware if b.flags & uf2.FLAG_FAMILY_ID_PRESENT}
        if families != {uf2.RP2040_FAMILY}:
            chips = ", ".join("0x%08x (%s)" % (f, uf2.family_name(f)) for f in sorted(families))
            raise uf2.UF2Error(
                "%s is a UF2 for %s, not for the RP2040 (family 0x%08x)"
                % (name, chips or "no chip family", uf2.RP2040_FAMILY)
            )
        address, size = picoinfo.checked_range(firmware, name)
    fs = _filesystem(files, size, lfsimage.PROG_SIZE["rp2"], name if firmware else "RPI_PICO")
    fs_blocks = uf2.pages(address, fs.data)
    fs_path = OUT / ("oxo5110-%s-fs.uf2" % board)
    made = {fs_path: uf2.write(fs_blocks)}
    notes = ["filesystem at %s" % _where(address, size)]
    if firmware is None:
        notes.append(
            "install on a Pico (RPI_PICO) with MicroPython %s+ (the game needs %s+): hold "
            "BOOTSEL, plug it in, copy %s to the RPI-RP2 drive"
            % (NEEDS["rp2"], GAME_NEEDS, shown(fs_path))
        )
    else:
        # MicroPython's blocks first and unchanged (address, flags, family, payload), then the
        # filesystem's; one numbering over all of them.
        made[OUT / ("oxo5110-%s.uf2" % board)] = uf2.write(firmware + fs_blocks)
    return Made(made, fs, notes)


def esp32(board, files, micropython=None, name="the MICROPYTHON file"):
    offset, size = espimage.DEFAULT_START, espimage.FLASH_SIZE - espimage.DEFAULT_START
    if micropython is not None:
        espimage.check_firmware(micropython, name)
        offset, size = espimage.filesystem_range(micropython, what=name)
    whose = name if micropython else "ESP32_GENERIC"
    fs = _filesystem(files, size, lfsimage.PROG_SIZE["esp32"], whose)
    fs_path = OUT / ("oxo5110-%s-fs.bin" % board)
    made = {fs_path: fs.data}
    notes = ["filesystem at flash 0x%X, %d KB (4 MiB flash)" % (offset, size // 1024)]
    if micropython is None:
        notes.append(
            "install on MicroPython %s+ (the game needs %s+): esptool --chip esp32 "
            "write-flash 0x%X %s" % (NEEDS["esp32"], GAME_NEEDS, offset, shown(fs_path))
        )
    else:
        merged = OUT / ("oxo5110-%s.bin" % board)
        made[merged] = espimage.merge(micropython, offset, fs.data)
        notes.append("install: " + espimage.write_flash_line(shown(merged)))
    return Made(made, fs, notes)


LAYOUTS = {"rp2": pico, "esp32": esp32}


def make(board, micropython=None, name="the MICROPYTHON file"):
    """Build (nothing written) the images for board: a Made. ValueError with one line if
    anything is wrong."""
    boardlist.given(board, "make image BOARD=pico")  # ValueError naming the known boards
    port = boardlist.port_of(board)
    layout = LAYOUTS.get(port)
    if layout is None:
        made_for = " and ".join(LAYOUTS)
        raise ValueError(f"board {board!r} runs on port {port!r}: images are made for {made_for}")
    return layout(board, deploy_files(board), micropython, name)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="", help="a boards/<name>.py name: pico, esp32")
    parser.add_argument("--micropython", default="", help="a MicroPython .uf2 (rp2) / .bin")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        micropython = None
        if args.micropython:
            source = Path(args.micropython)
            if not source.is_file():
                raise ValueError(f"MICROPYTHON={args.micropython}: no such file")
            micropython = source.read_bytes()
        made = make(args.board, micropython, "MICROPYTHON=%s" % args.micropython)
    except ValueError as err:
        print("image: %s" % err, file=sys.stderr)
        return 2
    for path, data in made.files.items():
        write_whole(path, data)
    names = ", ".join("%s (%d KB)" % (shown(p), len(d) // 1024) for p, d in made.files.items())
    free, whole = made.fs.free_bytes // 1024, made.fs.block_count * 4
    print(f"image: {names}; {free} KB of {whole} KB free; {time.monotonic() - start:.1f} s")
    for note in made.notes:
        print("image: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
