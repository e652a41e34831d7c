"""UF2 files: read their blocks, write flash contents as one run of numbered blocks.

The format is Microsoft's (github.com/microsoft/uf2, README.md "File format"): 512-byte blocks,
each a 32-byte header of little-endian words, up to 476 bytes of data, and a closing magic.
No maintained package writes it as the RP2040 boot ROM wants it: esptool's UF2Writer numbers
the blocks of each file it adds from 0 again, where the boot ROM counts one run, 0 .. n-1, over
the whole file, and takes a download as complete only when every number has come.
"""

import struct
from typing import NamedTuple

MAGIC_START0 = 0x0A324655  # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_FAMILY_ID_PRESENT = 0x00002000  # the header's last word is a family id, not a file size
BLOCK_SIZE = 512
DATA_SIZE = 476
HEADER = struct.Struct("<8I")  # magic0, magic1, flags, address, size, number, count, family
END = struct.Struct("<I")

RP2040_FAMILY = 0xE48BFF56  # microsoft/uf2 utils/uf2families.json: "RP2040"
PAGE = 256  # the RP2040 boot ROM takes 256-byte payloads at 256-aligned addresses: a flash page
FAMILY_NAMES = {
    RP2040_FAMILY: "RP2040",
    0xE48BFF57: "RP2XXX_ABSOLUTE",
    0xE48BFF58: "RP2XXX_DATA",
    0xE48BFF59: "RP2350_ARM_S",
    0xE48BFF5A: "RP2350_RISCV",
    0xE48BFF5B: "RP2350_ARM_NS",
    0x1C5F21B0: "ESP32",
    0xBFDD4EEE: "ESP32S2",
    0xC47E5767: "ESP32S3",
}


class UF2Error(ValueError):
    """Not a UF2 file, or one this project cannot use: the message says which and why."""


class Block(NamedTuple):
    """One block's meaning; its number and the block count are the file's, set on writing."""

    address: int
    payload: bytes
    flags: int = FLAG_FAMILY_ID_PRESENT
    family: int = RP2040_FAMILY  # the header's last word: a file size without the family flag


def family_name(family):
    return FAMILY_NAMES.get(family, "unknown")


def read_blocks(data, what="the file"):
    """Every block of a UF2 file's bytes, in file order; UF2Error if any is not a UF2 block."""
    if not data or len(data) % BLOCK_SIZE:
        raise UF2Error(
            "%s is not a UF2 file (%d bytes, not a whole number of %d-byte blocks)"
            % (what, len(data), BLOCK_SIZE)
        )
    blocks = []
    for start in range(0, len(data), BLOCK_SIZE):
        raw = data[start : start + BLOCK_SIZE]
        magic0, magic1, flags, address, size, _number, _count, family = HEADER.unpack_from(raw)
        (magic_end,) = END.unpack_from(raw, BLOCK_SIZE - END.size)
        if (magic0, magic1, magic_end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error(
                "%s is not a UF2 file (block %d has no UF2 magic numbers)"
                % (what, start // BLOCK_SIZE)
            )
        if size > DATA_SIZE:
            raise UF2Error("%s: block %d claims %d bytes of data" % (what, start // 512, size))
        payload = bytes(raw[HEADER.size : HEADER.size + size])
        blocks.append(Block(address, payload, flags, family))
    return blocks


def pages(address, data, family=RP2040_FAMILY):
    """Blocks holding `data` from `address` on, PAGE bytes each (the last padded with 0xFF,
    what erased flash reads)."""
    if address % PAGE:
        raise ValueError("address 0x%08x is not on a %d-byte page" % (address, PAGE))
    return [
        Block(address + at, bytes(data[at : at + PAGE]).ljust(PAGE, b"\xff"), family=family)
        for at in range(0, len(data), PAGE)
    ]


def write(blocks):
    """The bytes of a UF2 file of `blocks`, numbered 0 .. n-1 with n in every block."""
    out = bytearray()
    count = len(blocks)
    for number, block in enumerate(blocks):
        where = (block.flags, block.address, len(block.payload), number, count, block.family)
        out += HEADER.pack(MAGIC_START0, MAGIC_START1, *where)
        out += block.payload.ljust(DATA_SIZE, b"\x00")
        out += END.pack(MAGIC_END)
    return bytes(out)
