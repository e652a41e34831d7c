# What `make firmware` freezes into MicroPython: the port's own modules, the game, the main.py
# beside this file and the board file as `board`.
# SPDX-License-Identifier: MIT
# MicroPython's manifest API (its docs/reference/manifest.rst): freeze, module, include and
# options are globals given by its tools/makemanifest.py. One manifest for every board, here
# rather than under boards/ (every .py there is a board file: tools/boardlist.py).
# tools/firmware.py writes the build's own manifest, which includes this one with
#   board= the folder holding the board file copied as board.py (a manifest freezes a file
#          under its own name, and the game imports `board`);
#   port=  the manifest the MicroPython board freezes when built alone: the port's, or the
#          board's own (RPI_PICO_W's adds networking and Bluetooth).
# ruff: noqa: F821
import os

options.defaults(board=None, port="$(PORT_DIR)/boards/manifest.py")
if options.board is None:
    raise ValueError("give board=<the folder of board.py>, as tools/firmware.py does")

# First the port's: its _boot.py mounts the filesystem, or makes it at the first boot, and the
# settings and scores live there.
include(options.port)
# Every game module as `make deploy` compiles it (opt=3: mpy-cross -O3, no line numbers), but
# firmware/main.py: a frozen main.py would always run, so this folder's main.py takes its place.
GAME = "../firmware"  # relative to this file: makemanifest runs it in its folder
freeze(GAME, [n for n in sorted(os.listdir(GAME)) if n.endswith(".py") and n != "main.py"], opt=3)
module("main.py", opt=3)
module("board.py", base_path=options.board, opt=3)
