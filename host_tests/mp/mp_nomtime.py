# tools/nomtime.py (deploy's remount without modification times) on a Pico-shaped RAM flash.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=8m paths=tools args={deployed}
# (8m: two 1408 KB RAM flashes and a third for the redeploy.)
# Argument: the deployed files' folder (the `deployed` fixture: what `make deploy BOARD=pico`
# copies). bench/bench_layout_mp.py imports it for the figures (so it runs its checks as main).
import os
import sys

import mptest
import nomtime
import ramdisk
import vfs
from mptest import check

SOURCE = sys.argv[1]
MNT = "/flash"
# deploy_chains.deploy_commands copies the modules, then board.mpy, then main.py.
ORDER = sorted(n for n in os.listdir(SOURCE) if n.endswith(".mpy") and n != "board.mpy")
ORDER += ["board.mpy", "main.py"]
CHUNK = 256  # mpremote's transport fs_writefile writes a file in w() calls of 256 bytes


def as_boot(disk):
    """The filesystem as ports/rp2/modules/_boot.py mounts it: modification times on."""
    vfs.mount(vfs.VfsLfs2(disk, progsize=ramdisk.PICO_PROGSIZE), MNT)
    os.chdir(MNT)


def unmount():
    os.chdir("/")
    vfs.umount(MNT)


def copy(names):
    """mpremote's `fs cp` of each name into the current directory."""
    for name in names:
        with open(SOURCE + "/" + name, "rb") as src:
            data = src.read()
        f = open(name, "wb")
        for at in range(0, len(data), CHUNK):
            f.write(data[at : at + CHUNK])
        f.close()


def deploy(disk, remount):
    """One `make deploy` onto disk as the board mounted it, through deploy's remount or not."""
    as_boot(disk)
    if remount:
        check(nomtime.remount(disk, ramdisk.PICO_PROGSIZE, MNT), "the remount did not apply")
        nomtime.drop_mtime(ORDER)
    copy(ORDER)
    unmount()


def fresh():
    disk = ramdisk.RAMDisk(ramdisk.PICO_BLOCK, ramdisk.PICO_BLOCKS)
    vfs.VfsLfs2.mkfs(disk, progsize=ramdisk.PICO_PROGSIZE)
    return disk


def mtimes(disk):
    """{name: st_mtime}: VfsLfs2's stat() gives 0 for a file without the attribute
    (extmod/vfs_lfsx.c, MP_VFS_LFSx(stat): lfs2_getattr(LFS_ATTR_MTIME))."""
    as_boot(disk)
    out = {}
    for name in ORDER:
        out[name] = os.stat(name)[8]
    unmount()
    return out


WITH = fresh()
deploy(WITH, remount=False)
WITHOUT = fresh()
deploy(WITHOUT, remount=True)


def test_the_remounted_deploy_writes_no_modification_times_and_every_file_whole():
    plain = mtimes(WITH)
    check(all(plain.values()), "the plain deploy has files without mtime: %r" % plain)
    clean = mtimes(WITHOUT)
    check(not any(clean.values()), "files with an mtime after the remount: %r" % clean)
    as_boot(WITHOUT)  # after a reset, as the port's _boot.py mounts it
    for name in ORDER:
        with open(name, "rb") as f, open(SOURCE + "/" + name, "rb") as src:
            check(f.read() == src.read(), name + " differs")
    unmount()


def test_a_redeploy_over_modification_times_leaves_none():
    # A board deployed before: rewriting a file in place keeps its attributes, and mpremote
    # skips an unchanged file, so drop_mtime removes the ones that have one first.
    disk = fresh()
    deploy(disk, remount=False)
    deploy(disk, remount=True)
    left = mtimes(disk)
    check(not any(left.values()), "files with an mtime after the redeploy: %r" % left)


def test_the_remount_leaves_another_filesystem_alone():
    as_boot(WITH)
    there = [fs for fs, at in vfs.mount() if at == MNT]
    other = fresh()  # a littlefs of the same size but another device: its statvfs differs
    check(not nomtime.remount(other, ramdisk.PICO_PROGSIZE, MNT), "remounted another littlefs")
    fat = ramdisk.RAMDisk(512, 64)
    vfs.VfsFat.mkfs(fat)
    try:
        nomtime.remount(fat, ramdisk.PICO_PROGSIZE, MNT)
        check(False, "remounted a FAT device as littlefs")
    except OSError:
        pass
    check([fs for fs, at in vfs.mount() if at == MNT] == there, "the mount changed")
    unmount()


def test_deploy_does_not_remount_on_the_unix_port():
    # The virtual board is the unix port: main() leaves its filesystem as it is.
    before = vfs.mount()
    nomtime.main(ORDER)
    check(vfs.mount() == before, "main() changed the mounts on %s" % sys.platform)


if __name__ == "__main__":
    mptest.run(globals())
