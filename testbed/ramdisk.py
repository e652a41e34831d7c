# A RAM block device for the MicroPython unix port: a board's flash filesystem, with cuts.
# SPDX-License-Identifier: MIT
# Mount it as littlefs (os.VfsLfs2, as on the Pico and ESP32 ports) or FAT (os.VfsFat). Every
# erase and write is logged, so a test can rebuild the flash as it was after any prefix of the
# operations - including half of one write - and mount that image: a power cut at that moment.
# With a `timing` (PICO_FLASH below) each operation also costs the time it takes on the board:
# `busy_us` adds it up, and a `clock` (the fake time.FakeClock) is moved on by it, so a save
# stalls the loop on the host as long as it would on the Pico.
import os
from collections import namedtuple

ERASED = 0xFF  # NOR flash reads 0xFF after an erase


# What each block-device operation costs on a board, in microseconds. read_call_us: CPU per
# readblocks() call, the work of littlefs and MicroPython around it; read_byte_us: per byte
# read; program_page_us: per page of page_size bytes programmed; erase_us: per block erased.
FlashTiming = namedtuple(
    "FlashTiming", ("read_call_us", "read_byte_us", "page_size", "program_page_us", "erase_us")
)


# The Pico's flash filesystem as MicroPython's rp2 port has it, on its W25Q16JV:
# - Geometry: ports/rp2/rp2_flash.c, BLOCK_SIZE_BYTES = FLASH_SECTOR_SIZE (4096); littlefs
#   with progsize=256 (ports/rp2/modules/_boot.py, "the flash requires the programming size to
#   be aligned to 256 bytes"). PICO_BLOCK and PICO_PROGSIZE below.
# - Erase: rp2_flash_ioctl(BLOCK_ERASE) -> flash_range_erase() of one 4 KB sector, interrupts
#   off: W25Q16JV datasheet (Winbond, rev. H), AC characteristics, tSE sector erase (4 KB) 45 ms
#   typical, 400 ms maximum. The model takes the typical time: with the maximum, no gap the
#   game ever leaves (a blink is 400 ms) could hold a save; a flash that slow makes a note late.
# - Program: rp2_flash_writeblocks(offset) -> flash_range_program() of the buffer, page by page:
#   tPP page program 0.4 ms typical (3 ms maximum) per 256-byte page.
# - Read: rp2_flash_readblocks() memcpy()s from XIP; the QSPI runs at clk_sys / 4 = 31.25 MHz
#   (rp2_flash_set_timing_internal(): the divisor for a 60 MHz flash, made even), quad I/O, about
#   28 clocks per 8-byte XIP line: ~0.11 us a byte (in the CPU's byte cost below).
# - CPU: measured on the emulated Pico (MicroPython v1.28.0 RPI_PICO in rp2040js, flash
#   operations timed as above, zero-wait XIP) with the files `make deploy` leaves in the root
#   directory (25 .mpy files and main.py) beside settings.json, saving a tally 45 times: a plain
#   save 17-28 ms of CPU (227-503 readblocks() calls, 28-40 KB read), every fourth one
#   compacting the root's metadata (one erase, 1573-2176 calls, 72-93 KB read) 63-82 ms of CPU
#   plus its 48 ms of flash. The same saves on this RAMDisk make exactly the same erases and
#   programs; a least-squares fit of the CPU time to its calls and bytes gives 18 us a call
#   and 0.47 us a byte read (littlefs checks a CRC over every byte it reads), within 1.3 ms of
#   every measured save. The byte cost stands in for the XIP reads too: zero-wait in the
#   emulator, a little slower on a real Pico (XIP cache misses), so a real save runs a few
#   per cent longer. Earlier, fitted without the deployed files: 240 us a call, which with
#   them predicted 359 ms - 3.2 s a save.
PICO_BLOCK = 4096
PICO_BLOCKS = 352  # 1408 KB: MICROPY_HW_FLASH_STORAGE_BYTES (ports/rp2/boards/RPI_PICO)
PICO_PROGSIZE = 256
PICO_FLASH = FlashTiming(18, 0.47, 256, 400, 45000)


class RAMDisk:
    def __init__(self, block_size=512, blocks=64, image=None, timing=None, clock=None):
        self.block_size = block_size
        self.data = bytearray(image) if image is not None else bytearray(block_size * blocks)
        self.log = None  # a list while recording: ("w", address, bytes) or ("e", block)
        self.writes = 0  # block writes and erases since creation: flash wear
        self.reads = 0  # readblocks() calls since creation: littlefs's cache fills
        self.timing = timing  # a FlashTiming, None: operations cost nothing
        self.clock = clock  # a time.FakeClock moved on by that cost, or None
        self.busy_us = 0  # the cost of every operation since creation

    def _spend(self, us):
        us = int(us)
        self.busy_us += us
        if self.clock is not None:
            self.clock.spend_us(us)

    def readblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        buf[:] = self.data[start : start + len(buf)]
        self.reads += 1
        t = self.timing
        if t is not None:
            self._spend(t.read_call_us + t.read_byte_us * len(buf))

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
        t = self.timing
        if t is not None:
            self._spend(t.program_page_us * ((len(buf) + t.page_size - 1) // t.page_size))

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
            if self.timing is not None:
                self._spend(self.timing.erase_us)
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


def mount(kind, mountpoint, disk=None, fresh=True, progsize=None):
    """Mount a RAMDisk (a new one unless given) as "lfs2" or "fat" at mountpoint; return it.
    progsize: littlefs's programming size (PICO_PROGSIZE as the rp2 port mounts it; None: the
    default, 32)."""
    if disk is None:
        disk = RAMDisk()
    cls = os.VfsLfs2 if kind == "lfs2" else os.VfsFat
    opts = {} if progsize is None else {"progsize": progsize}  # littlefs's only
    if fresh:
        cls.mkfs(disk, **opts)
    os.mount(cls(disk, **opts), mountpoint)
    return disk


def deploy_files(folder, mountpoint):
    """Copy every file of `folder` (what `make deploy` puts on a board, as the `deployed` test
    fixture or bench_saves.py stage it) into mountpoint's root: a save's cost on littlefs
    depends on what shares the root directory's metadata with settings.json."""
    for name in sorted(os.listdir(folder)):
        with open(folder + "/" + name, "rb") as src:
            data = src.read()
        with open(mountpoint + "/" + name, "wb") as dst:
            dst.write(data)


def pico_flash(blocks):
    """A RAMDisk shaped and timed as the Pico's flash (4 KB blocks, PICO_FLASH), littlefs with
    the port's progsize when mounted with mount(..., progsize=PICO_PROGSIZE)."""
    return RAMDisk(PICO_BLOCK, blocks, timing=PICO_FLASH)


def board_flash(kind, mountpoint, clock):
    """A board's flash in RAM, formatted afresh and mounted at mountpoint; returns its RAMDisk.
    One disk per kind for the process: no churn of big buffers in a long test run. "lfs2" is
    the Pico's littlefs: 4 KB blocks mounted with the rp2 port's progsize, each operation
    costing its time on `clock` (PICO_FLASH); "fat", 32 KB of 512-byte sectors, costs nothing."""
    disk = _boards.get(kind)
    if disk is None:
        disk = pico_flash(8) if kind == "lfs2" else RAMDisk(512, 64)
        _boards[kind] = disk
    mount(kind, mountpoint, disk, progsize=PICO_PROGSIZE if kind == "lfs2" else None)
    disk.writes = 0
    disk.busy_us = 0
    disk.clock = clock if kind == "lfs2" else None
    return disk


_boards = {}


class Counted:
    """A mounted filesystem (os.VfsLfs2 or os.VfsFat on a RAMDisk) that counts the paths it is
    asked to look up (stat) and to open, as a board's import asks them: MicroPython mounts a
    Python object with these methods like any VFS, and its import asks stat() of each name it
    tries on each sys.path entry ("x", then "x.py", then "x.mpy": py/builtinimport.c,
    stat_dir_or_file; extmod/vfs.c, mp_vfs_import_stat) and then open()s the file it found.
    With `keep`, `paths` lists them in order, ("stat" or "open", path relative to the mount
    point); without, stat() and open() allocate nothing (for heap figures); the other calls go
    straight to the filesystem, a bound method each.

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

    def __getattr__(self, name):
        # The rest of the VFS protocol (mount, ilistdir, remove, statvfs ...) goes straight to
        # the filesystem: MicroPython's VFS looks each method up as an attribute.
        return getattr(self.vfs, name)
