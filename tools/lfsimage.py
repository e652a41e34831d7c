"""A littlefs2 filesystem image holding given files, as MicroPython's VfsLfs2 mounts it.

Made with PyPI's littlefs-python (pinned in requirements-dev.txt). The geometry must be the
port's own: its block size and exactly its block count (littlefs refuses to mount a superblock
whose block count differs from the device's, and both ports' _boot.py then format a fresh,
empty filesystem without a word), and the disk version of the littlefs MicroPython carries.
"""

from typing import NamedTuple

import littlefs
from littlefs.errors import LittleFSError

BLOCK_SIZE = 4096  # rp2_flash.c: FLASH_SECTOR_SIZE; esp32_partition.c: NATIVE_BLOCK_SIZE_BYTES
READ_SIZE = 32  # VfsLfs2's default readsize (extmod/vfs_lfs.c)
# MicroPython 1.28's lib/littlefs is v2.11, which writes on-disk version 2.1 (LFS2_DISK_VERSION)
DISK_VERSION = 0x00020001
NO_SPACE = -28  # LFS_ERR_NOSPC
# What each port's _boot.py mounts with: rp2 progsize=256, the flash page; esp32 VfsLfs2's
# default (extmod/vfs_lfs.c).
PROG_SIZE = {"rp2": 256, "esp32": 32}


class Image(NamedTuple):
    data: bytes
    used_blocks: int
    block_count: int

    @property
    def free_bytes(self):
        return (self.block_count - self.used_blocks) * BLOCK_SIZE


def build(files, size, prog_size):
    """The filesystem image of `size` bytes holding files, a list of (name, bytes).
    prog_size is what the port's _boot.py mounts with (PROG_SIZE).
    ValueError when they do not fit."""
    if size % BLOCK_SIZE or size < 2 * BLOCK_SIZE:
        raise ValueError("a filesystem of %d bytes is not 2 or more 4 KB blocks" % size)
    fs = littlefs.LittleFS(
        block_size=BLOCK_SIZE,
        block_count=size // BLOCK_SIZE,
        read_size=READ_SIZE,
        prog_size=prog_size,
        disk_version=DISK_VERSION,
    )
    try:
        for name, data in files:
            with fs.open(name, "wb") as f:
                f.write(data)
    except LittleFSError as err:
        if err.code != NO_SPACE:
            raise
        total = sum(len(data) for _, data in files)
        raise ValueError(
            "the %d files (%d KB) do not fit a %d KB filesystem"
            % (len(files), round(total / 1024), size // 1024)
        ) from None
    used = fs.used_block_count
    fs.unmount()
    return Image(bytes(fs.context.buffer), used, size // BLOCK_SIZE)
