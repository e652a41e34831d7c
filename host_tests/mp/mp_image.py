# The images `make image` writes, mounted as the ports mount them: what deploy copies, exactly.
# (That those files boot the game: test_deploy.py, on the virtual board.)
# SPDX-License-Identifier: MIT
# Usage: micropython mp_image.py FOLDER, where FOLDER holds pico-fs.bin and esp32-fs.bin (the
# filesystem bytes of each image) and expected-<board>/ (what `make deploy` copies).
import os
import sys

import mptest
import ramdisk
from mptest import check

FOLDER = sys.argv[1]
BLOCK_SIZE = 4096  # both ports' flash block device: rp2.Flash, esp32.Partition


def mounted(name, mountpoint, **options):
    """The image file `name` on a RAM block device, mounted as the port's _boot.py mounts it."""
    with open(FOLDER + "/" + name, "rb") as f:
        disk = ramdisk.RAMDisk(BLOCK_SIZE, image=f.read())
    os.mount(os.VfsLfs2(disk, **options), mountpoint)
    return mountpoint


def read(path):
    with open(path, "rb") as f:
        return f.read()


def same_files(mountpoint, board):
    expected = FOLDER + "/expected-" + board
    names = sorted(os.listdir(expected))
    check(sorted(os.listdir(mountpoint)) == names, repr(os.listdir(mountpoint)))
    for name in names:
        check(read(mountpoint + "/" + name) == read(expected + "/" + name), name + " differs")


def test_the_pico_image_holds_what_deploy_copies():
    # ports/rp2/modules/_boot.py: vfs.VfsLfs2(rp2.Flash(), progsize=256)
    same_files(mounted("pico-fs.bin", "/pico", progsize=256), "pico")
    check(os.statvfs("/pico")[2] == 352, "rp2's 1408 KB are 352 blocks")
    os.umount("/pico")


def test_the_esp32_image_holds_what_deploy_copies():
    # ports/esp32/modules/_boot.py: vfs.mount(bdev, "/"), littlefs found with its defaults
    same_files(mounted("esp32-fs.bin", "/esp32"), "esp32")
    os.umount("/esp32")


mptest.run(globals())
