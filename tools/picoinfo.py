"""The filesystem range a MicroPython rp2 firmware declares in its binary info.

pico-sdk's binary info (src/common/pico_binary_info/include/pico/binary_info/defs.h and
structure.h): within the first 256 bytes after the 256-byte boot2 stage sits a header
    BINARY_INFO_MARKER_START, __binary_info_start, __binary_info_end, mapping table,
    BINARY_INFO_MARKER_END
and [start, end) is an array of 32-bit pointers to entries, each beginning with a 16-bit type
and a 16-bit tag. Since 1.23 MicroPython's ports/rp2/rp2_flash.c declares its filesystem as
    bi_decl(bi_block_device(BINARY_INFO_TAG_MICROPYTHON, "MicroPython",
                            XIP_BASE + MICROPY_HW_FLASH_STORAGE_BASE,
                            MICROPY_HW_FLASH_STORAGE_BYTES, NULL, flags))
(v1.28 adds a second one, "ROMFS", when the board has a ROMFS: the name tells them apart).
Pointers into RAM are translated with the mapping table (pico-sdk's picotool does the same).
"""

import struct

import uf2

XIP_BASE = 0x10000000  # RP2040 datasheet 2.2: flash is mapped (execute in place) from here
BOOT2_SIZE = 0x100  # the second-stage boot loader at the start of flash
MARKER_START = 0x7188EBF2
MARKER_END = 0xE71AA390
TYPE_BLOCK_DEVICE = 7
TAG_MICROPYTHON = ord("M") | ord("P") << 8  # BINARY_INFO_MAKE_TAG('M', 'P'), mpconfigport.h
FILESYSTEM_NAME = b"MicroPython"
BLOCK_DEVICE = struct.Struct("<HHIIIIH")  # type, tag, name, address, size, extra, flags
WORD = struct.Struct("<I")


class Memory:
    """The bytes a UF2's blocks put at each address: RP2040 blocks are whole flash pages."""

    def __init__(self, blocks):
        self.pages = {b.address: b.payload for b in blocks if len(b.payload) == uf2.PAGE}

    def read(self, address, size):
        out = bytearray()
        while len(out) < size:
            at = address + len(out)
            page = self.pages.get(at - at % uf2.PAGE)
            if page is None:
                raise LookupError("no block holds address 0x%08x" % at)
            out += page[at % uf2.PAGE :][: size - len(out)]
        return bytes(out)

    def word(self, address):
        return WORD.unpack(self.read(address, WORD.size))[0]

    def string(self, address, limit=64):
        text = b""
        while len(text) < limit and (byte := self.read(address + len(text), 1)) != b"\x00":
            text += byte
        return text


def _header(memory):
    """(entries start, entries end, mapping table) of the binary info header, or None."""
    first = XIP_BASE + BOOT2_SIZE
    for at in range(first, first + 256, WORD.size):
        try:
            if memory.word(at) == MARKER_START and memory.word(at + 16) == MARKER_END:
                return memory.word(at + 4), memory.word(at + 8), memory.word(at + 12)
        except LookupError:
            return None
    return None


def _mapper(memory, table):
    """A function giving, for a runtime address, where its bytes are in the flash image:
    the table's (source, dest start, dest end) rows copy flash to RAM at boot."""
    rows = []
    try:
        while memory.word(table):
            rows.append((memory.word(table), memory.word(table + 4), memory.word(table + 8)))
            table += 12
    except LookupError:
        pass

    def to_flash(address):
        for source, start, end in rows:
            if start <= address < end:
                return source + address - start
        return address

    return to_flash


def filesystem_range(blocks):
    """(address, size) of the filesystem a MicroPython UF2 declares, or None if it declares
    none (MicroPython before 1.23, or not MicroPython)."""
    memory = Memory(blocks)
    header = _header(memory)
    if header is None:
        return None
    start, end, table = header
    to_flash = _mapper(memory, table)
    for pointer in range(start, end, WORD.size):
        try:
            entry = to_flash(memory.word(to_flash(pointer)))
            kind, tag, name, address, size, _extra, _flags = BLOCK_DEVICE.unpack(
                memory.read(entry, BLOCK_DEVICE.size)
            )
            if (kind, tag) != (TYPE_BLOCK_DEVICE, TAG_MICROPYTHON):
                continue
            if memory.string(to_flash(name)) == FILESYSTEM_NAME:
                return address, size
        except (LookupError, struct.error):
            continue  # an entry that is not in the file, or shorter than a block device's
    return None


DECLARED_SINCE = "1.23"  # the first MicroPython whose rp2 builds declare their filesystem


def checked_range(blocks, what):
    """(address, size) of the filesystem the UF2 blocks declare; ValueError if they declare
    none, or one off a 4 KB flash sector or over their own code."""
    declared = filesystem_range(blocks)
    if declared is None:
        raise ValueError(
            "%s declares no filesystem range in its binary info: use MicroPython %s or later "
            "for RP2040 boards" % (what, DECLARED_SINCE)
        )
    address, size = declared
    inside = [b.address for b in blocks if address <= b.address < address + size]
    if address % 4096 or inside:
        raise ValueError(
            "%s does not match: it declares its filesystem at 0x%08X..0x%08X, %s"
            % (what, address, address + size, "but its own code is there (0x%08X)" % inside[0]
               if inside else "not on a 4 KB flash sector")
        )  # fmt: skip
    return declared
