# What `make firmware` freezes into MicroPython: the port's own modules (on the Pico and Pico 2
# with this folder's _boot.py), the game, the main.py beside this file and the board as `board`.
# SPDX-License-Identifier: MIT
# MicroPython's manifest API (its docs/reference/manifest.rst): freeze, module, include and
# options are globals given by its tools/makemanifest.py. One manifest for every board, here
# rather than under boards/ (every .py there is a board file: tools/boardlist.py).
# tools/firmware.py writes the build's own manifest, which includes this one with
#   board= the folder holding the board file copied as board.py (a manifest freezes a file
#          under its own name, and the game imports `board`);
#   port=  the manifest the MicroPython board freezes when built alone: the port's, or the
#          board's own (RPI_PICO_W's adds networking and Bluetooth);
#   rp2_boot=True: that manifest is the rp2 port's, to be frozen with this folder's _boot.py
#          in place of the port's.
# ruff: noqa: F821
import os

options.defaults(board=None, port="$(PORT_DIR)/boards/manifest.py", rp2_boot=False)
if options.board is None:
    raise ValueError("give board=<the folder of board.py>, as tools/firmware.py does")

# First the port's modules. The settings and scores live on the port's filesystem, which its
# _boot.py mounts at every boot, or makes at the first (VfsLfs2.mkfs: on a Pico two 4 KB sector
# erases, ~90 ms, before main.py and the title): so it stays on the ESP32 and the Pico W.
if options.rp2_boot:
    # The rp2 port's manifest, ports/rp2/boards/manifest.py of MicroPython v1.28.0, line for
    # line but for its modules/_boot.py (_boot_fat.py serves only boards with a FAT USB drive):
    # this folder's _boot.py mounts the same littlefs and, on a first boot, leaves its making
    # to main.py, after the title (flashfs.py).
    freeze("$(PORT_DIR)/modules", ("_boot_fat.py", "rp2.py"))
    include("$(MPY_DIR)/extmod/asyncio")
    require("onewire")
    require("ds18x20")
    require("dht")
    require("neopixel")
    module("_boot.py", opt=3)
    module("flashfs.py", opt=3)
else:
    include(options.port)
# Every game module as `make deploy` compiles it (opt=3: mpy-cross -O3, no line numbers), from
# firmware/ and each layer's folder in it (tools/layout.py), each frozen under its own name as a
# board holds them, but firmware/main.py: a frozen main.py would always run, so this folder's
# main.py takes its place.
GAME = "../firmware"  # relative to this file: makemanifest runs it in its folder
for folder in [GAME] + [GAME + "/" + n for n in sorted(os.listdir(GAME))]:
    if os.path.isdir(folder):
        names = sorted(n for n in os.listdir(folder) if n.endswith(".py") and n != "main.py")
        freeze(folder, names, opt=3)
module("main.py", opt=3)
module("board.py", base_path=options.board, opt=3)
