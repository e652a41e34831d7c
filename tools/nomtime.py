# Deploy's first step on a board: its littlefs root remounted without modification times.
# SPDX-License-Identifier: MIT
# MicroPython code, never deployed: tools/deploy_chains.py sends this text with `mpremote exec`
# before the copy, and host_tests/mp/mp_nomtime.py runs the same functions on a RAM disk.
#
# Why: VfsLfs2 stores an 8-byte modification time (littlefs attribute LFS_ATTR_MTIME) with
# every file it writes unless mounted with mtime=False (extmod/vfs_lfsx.c, vfs_lfsx_file.c).
# littlefs finds a name by reading, CRC and all, the whole metadata log of each pair of the
# directory (lfs.c, lfs_dir_fetchmatch), and an import looks up three names per module: with
# the attributes the root's log is larger and lays out worse, so every look-up reads more (the
# emulated Pico's boot to the title: docs/benchmarks.md). The next reset mounts the root as the
# port's _boot.py does; files written without a time have none (stat() gives 0).
import os
import sys

import vfs


def port_flash():
    """(block device, progsize) of the root filesystem as this port's _boot.py mounts it, or
    None where deploy does not remount (the virtual board: the unix port)."""
    if sys.platform == "rp2":
        # ports/rp2/modules/_boot.py: vfs.VfsLfs2(rp2.Flash(), progsize=256).
        import rp2

        return rp2.Flash(), 256
    if sys.platform == "esp32":
        # ports/esp32/modules/_boot.py: vfs.mount(bdev, "/") with flashbdev.bdev (the "vfs"
        # partition, else "ffat"); the mount finds littlefs and makes VfsLfs2(bdev) with the
        # defaults (extmod/vfs.c, mp_vfs_autodetect; vfs_lfs.c: progsize 32). Not littlefs
        # (FAT): remount() below refuses and nothing changes.
        from flashbdev import bdev

        return (bdev, 32) if bdev else None
    return None


def remount(bdev, progsize, point="/"):
    """Mount the littlefs on bdev at point with mtime=False in place of the VfsLfs2 there and
    chdir to it; True if it did. False (nothing changed) if no VfsLfs2 of that size is there;
    OSError (nothing changed) if bdev holds no littlefs."""
    there = [fs for fs, at in vfs.mount() if at == point]
    if not there or type(there[0]) is not vfs.VfsLfs2:
        return False
    new = vfs.VfsLfs2(bdev, progsize=progsize, mtime=False)  # mounting only reads the flash
    if new.statvfs("/")[:4] != os.statvfs(point)[:4]:  # another filesystem than the root's
        return False
    vfs.umount(point)
    try:
        vfs.mount(new, point)
    except Exception:
        # As the port mounts it, as a reset would.
        vfs.mount(vfs.VfsLfs2(bdev, progsize=progsize), point)
        raise
    os.chdir(point)
    return True


def drop_mtime(names):
    """Remove each of names (in the current directory) that has a modification time: a file
    rewritten in place keeps its attributes (littlefs only writes those given at open), and
    mpremote's cp skips a file whose content is unchanged, so only a new file has none."""
    for name in names:
        try:
            if os.stat(name)[8]:
                os.remove(name)
        except OSError:
            pass


def main(names):
    """What deploy runs: remount the root without modification times where the port allows,
    and clear the way for names, the files it is about to copy."""
    flash = port_flash()
    if flash is None:
        return
    try:
        done = remount(flash[0], flash[1])
    except OSError as err:
        print("files keep modification times: root not remounted (%s)" % err)
        return
    if done:
        drop_mtime(names)
        print("root remounted without modification times until the reset")
