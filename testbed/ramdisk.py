# A RAM block device for the MicroPython unix port: a board's flash filesystem, with cuts.
# SPDX-License-Identifier: MIT
# Mount it as littlefs (os.VfsLfs2, as on the Pico and ESP32 ports) or FAT (os.VfsFat). Every
# erase and write is logged, so a test can rebuild the flash as it was after any prefix of the
# operations - including half of one write - and mount that image: a power cut at that moment.
import os

ERASED = 0xFF  # NOR flash reads 0xFF after an erase


class RAMDisk:
    def __init__(self, block_size=512, blocks=64, image=None):
        self.block_size = block_size
        self.data = bytearray(image) if image is not None else bytearray(block_size * blocks)
        self.log = None  # a list while recording: ("w", address, bytes) or ("e", block)
        self.writes = 0  # block writes and erases since creation: flash wear

    def readblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        buf[:] = self.data[start : start + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # the simple protocol: whole blocks, erase implied
            for n in range(len(buf) // self.block_size):
                self.ioctl(6, block + n)
            offset = 0
        start = block * self.block_size + offset
        self.data[start : start + len(buf)] = buf
        self.writes += 1
        if self.log is not None:
            self.log.append(("w", start, bytes(buf)))

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.data) // self.block_size
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase
            start = arg * self.block_size
            for i in range(start, start + self.block_size):
                self.data[i] = ERASED
            self.writes += 1
            if self.log is not None:
                self.log.append(("e", arg))
            return 0
        return None

    def cut_images(self, before, torn=True):
        """Yield the flash image after each prefix of the logged operations, starting from the
        image `before` (taken when logging began). With `torn` a cut can also fall inside a
        block write (half of it done) or between a block's erase and its rewrite, as on raw
        NOR flash; without, each block rewrite is atomic (as SD cards promise for a sector)."""
        image = bytearray(before)
        yield image
        log = self.log
        for n in range(len(log)):
            entry = log[n]
            if entry[0] == "w":
                start, data = entry[1], entry[2]
                half = len(data) // 2
                if half and torn:
                    image[start : start + half] = data[:half]
                    yield image
                image[start : start + len(data)] = data
                yield image
            else:
                start = entry[1] * self.block_size
                for i in range(start, start + self.block_size):
                    image[i] = ERASED
                rewrite = n + 1 < len(log) and log[n + 1][0] == "w" and log[n + 1][1] == start
                if torn or not rewrite:
                    yield image


def mount(kind, mountpoint, disk=None, fresh=True):
    """Mount a RAMDisk (a new one unless given) as "lfs2" or "fat" at mountpoint; return it."""
    if disk is None:
        disk = RAMDisk()
    cls = os.VfsLfs2 if kind == "lfs2" else os.VfsFat
    if fresh:
        cls.mkfs(disk)
    os.mount(cls(disk), mountpoint)
    return disk


class Counted:
    """A mounted filesystem (os.VfsLfs2 or os.VfsFat on a RAMDisk) that counts the paths it is
    asked to look up (stat) and to open, as a board's import asks them: MicroPython mounts a
    Python object with these methods like any VFS, and its import asks stat() of each name it
    tries on each sys.path entry ("x", then "x.py", then "x.mpy": py/builtinimport.c,
    stat_dir_or_file; extmod/vfs.c, mp_vfs_import_stat) and then open()s the file it found.
    With `keep`, `paths` lists them in order, ("stat" or "open", path relative to the mount
    point); without, nothing is allocated per call (for heap figures).

        fs = ramdisk.Counted(os.VfsLfs2(disk))
        os.mount(fs, "/flash")
    """

    def __init__(self, vfs, keep=False):
        self.vfs = vfs
        self.lookups = 0  # stat() calls
        self.opens = 0  # open() calls
        self.paths = [] if keep else None

    def reset(self):
        self.lookups = self.opens = 0
        if self.paths is not None:
            self.paths = []

    def mount(self, readonly, mkfs):
        return self.vfs.mount(readonly, mkfs)

    def umount(self):
        return self.vfs.umount()

    def stat(self, path):
        self.lookups += 1
        if self.paths is not None:
            self.paths.append(("stat", path))
        return self.vfs.stat(path)

    def open(self, path, mode):
        self.opens += 1
        if self.paths is not None:
            self.paths.append(("open", path))
        return self.vfs.open(path, mode)

    def ilistdir(self, path):
        return self.vfs.ilistdir(path)

    def chdir(self, path):
        return self.vfs.chdir(path)

    def getcwd(self):
        return self.vfs.getcwd()

    def mkdir(self, path):
        return self.vfs.mkdir(path)

    def remove(self, path):
        return self.vfs.remove(path)

    def rename(self, old, new):
        return self.vfs.rename(old, new)

    def rmdir(self, path):
        return self.vfs.rmdir(path)

    def statvfs(self, path):
        return self.vfs.statvfs(path)
