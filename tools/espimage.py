"""ESP32 firmware images: check one is MicroPython for the ESP32, find where its filesystem
goes, and merge it with a filesystem image using esptool's merge-bin (PyPI esptool, pinned).

ESP-IDF's image header (components/bootloader_support/include/esp_app_format.h,
esp_image_header_t): byte 0 is the magic 0xE9, bytes 12-13 the chip id (ESP_CHIP_ID_ESP32 = 0).
MicroPython's ESP32_GENERIC .bin starts with the bootloader and goes to flash offset 0x1000
(micropython.org's install line: `write_flash 0x1000`); its partition table is at flash 0x8000
(ESP-IDF's CONFIG_PARTITION_TABLE_OFFSET), 32-byte entries (ESP-IDF gen_esp32part.py): magic
0xAA50, type, subtype, offset, size, 16-byte label, flags.

Where the filesystem is: a table's "vfs" entry; since 1.26.0 (MicroPython commit 6201e77999)
ESP32_GENERIC's table has none, and ports/esp32/main.c boardctrl_startup() registers one from
the end of the last partition to the end of the flash (ports/esp32/README.md).
"""

import struct
import tempfile
from pathlib import Path

from esptool.cmds import merge_bin

FIRMWARE_OFFSET = 0x1000
TABLE_OFFSET = 0x8000
TABLE_SIZE = 0xC00  # ESP-IDF: the table and its MD5 fit in 3 KB
ENTRY = struct.Struct("<2sBBII16sI")
ENTRY_MAGIC = b"\xaa\x50"
IMAGE_MAGIC = 0xE9
CHIP_ID_AT = 12
CHIP_NAMES = {0: "ESP32", 2: "ESP32-S2", 5: "ESP32-C3", 9: "ESP32-S3", 12: "ESP32-C2",
              13: "ESP32-C6", 16: "ESP32-H2", 18: "ESP32-P4"}  # fmt: skip
ESP32 = 0
FLASH_SIZE = 4 * 1024 * 1024  # an ESP32-DevKitC's WROOM-32: 4 MiB
# partitions-4MiBplus.csv (v1.28): factory app at 0x10000, 0x1F0000 long; nothing after it
DEFAULT_START = 0x200000


class ImageError(ValueError):
    """Not an ESP32 MicroPython image, or one whose filesystem range does not work."""


def check_firmware(data, what="the file"):
    """Raise ImageError unless data is an ESP32 image meant for flash offset 0x1000."""
    if len(data) < TABLE_OFFSET or data[0] != IMAGE_MAGIC:
        raise ImageError(
            "%s is not an ESP32 firmware image (no 0x%02X image header at its start; "
            "use MicroPython's ESP32_GENERIC .bin, the one written at 0x1000)"
            % (what, IMAGE_MAGIC)
        )
    (chip,) = struct.unpack_from("<H", data, CHIP_ID_AT)
    if chip != ESP32:
        raise ImageError(
            "%s is firmware for the %s (chip id %d), not the ESP32 (chip id 0)"
            % (what, CHIP_NAMES.get(chip, "unknown chip"), chip)
        )


def partitions(data):
    """{label: (offset, size)} of the partition table in an image written at 0x1000."""
    table = data[TABLE_OFFSET - FIRMWARE_OFFSET :][:TABLE_SIZE]
    found = {}
    for at in range(0, len(table) - ENTRY.size + 1, ENTRY.size):
        magic, _kind, _subtype, offset, size, label, _flags = ENTRY.unpack_from(table, at)
        if magic != ENTRY_MAGIC:
            break
        found[label.rstrip(b"\x00").decode(errors="replace")] = (offset, size)
    return found


def filesystem_range(data, flash_size=FLASH_SIZE, what="the file"):
    """(flash offset, size) of the filesystem MicroPython mounts, from the image's table."""
    table = partitions(data)
    if not table:
        raise ImageError("%s has no partition table at 0x%X" % (what, TABLE_OFFSET))
    if "ffat" in table:
        raise ImageError("%s keeps a FAT filesystem (an 'ffat' partition), not littlefs" % what)
    if "vfs" in table:
        start, size = table["vfs"]
    else:
        start = max(offset + size for offset, size in table.values())
        size = flash_size - start
    end_of_code = FIRMWARE_OFFSET + len(data)
    if size <= 0 or start % 4096 or end_of_code > start:
        raise ImageError(
            "%s does not match: its filesystem would be 0x%X..0x%X, but the image runs to 0x%X "
            "on a %d MiB flash"
            % (what, start, start + max(size, 0), end_of_code, flash_size >> 20)
        )
    return start, size


def merge(firmware, fs_offset, fs_image):
    """One image for flash offset 0x1000: the firmware's bytes, 0xFF up to the filesystem,
    the filesystem (esptool's merge-bin, raw format)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "merged.bin"
        merge_bin(
            [(FIRMWARE_OFFSET, firmware), (fs_offset, fs_image)],
            "esp32",
            output=str(out),
            target_offset=FIRMWARE_OFFSET,
        )
        return out.read_bytes()


def write_flash_line(path):
    return "esptool --chip esp32 --baud 460800 write-flash 0x%X %s" % (FIRMWARE_OFFSET, path)
