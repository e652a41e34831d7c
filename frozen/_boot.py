# What the rp2 port runs first at every boot (ports/rp2/main.c, pyexec_frozen_module), in place
# of the port's own modules/_boot.py: the filesystem mounted when there is one, and when there
# is none (a first boot) nothing more: main.py has it made after the game's first frame.
# SPDX-License-Identifier: MIT
import flashfs

flashfs.mount()
del flashfs  # it stays in sys.modules: main.py takes it from there, no look-up on the flash
