# The rp2 board's filesystem: mounted at power-on (_boot.py) when there is one; on a first boot
# made only once the game's first frame is on the glass (main.py).
# SPDX-License-Identifier: MIT
# The rp2 port's own modules/_boot.py (MicroPython v1.28.0) mounts the littlefs, or makes it
# (VfsLfs2.mkfs: the flash erases, ~90 ms on a Pico's W25Q16JV) before any main.py runs; here
# the same filesystem on the same flash, its making moved after the title. A power cut while
# it is made leaves a flash that does not mount: the next boot makes it again.
import rp2
import vfs

_PROGSIZE = 256  # the flash is programmed in aligned 256-byte pages (as the port's _boot.py)


def mount():
    """Mount the flash's littlefs at / unless it is; False when there is none (nothing made
    yet, or its making was cut short)."""
    if mounted():
        return True
    try:
        fs = vfs.VfsLfs2(rp2.Flash(), progsize=_PROGSIZE)
    except OSError:
        return False
    vfs.mount(fs, "/")
    return True


def release():
    """Unmount what is mounted at / (nothing if nothing is): its caches go with it."""
    if mounted():
        vfs.umount("/")


def mounted():
    """True when a filesystem is mounted at /."""
    for _fs, point in vfs.mount():
        if point == "/":
            return True
    return False


def make():
    """Mount the littlefs at /, made first when there is none."""
    if mount():
        return
    flash = rp2.Flash()
    vfs.VfsLfs2.mkfs(flash, progsize=_PROGSIZE)
    vfs.mount(vfs.VfsLfs2(flash, progsize=_PROGSIZE), "/")
