"""make image (tools/image.py): the files it writes, read back by a reader written here from
the UF2 specification, mounted by the MicroPython unix port, and every bad input refused."""

import struct

import deploy_chains
import image
import mpcheck
import pytest
import uf2

# The UF2 format, from its specification (microsoft/uf2 README.md, "File format"): 512-byte
# blocks of little-endian words. What make image writes is read back here, independent of
# tools/uf2.py (which only writes the MicroPython stand-ins it is given).
UF2_HEADER = "<IIIIIIII"
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FAMILY_ID_PRESENT = 0x00002000
RP2040 = 0xE48BFF56
PICO_FS = (0x100A0000, 1408 * 1024)  # RPI_PICO, MicroPython 1.28: XIP_BASE + 0xA0000


def spec_blocks(data):
    """[(flags, address, payload, block number, block count, family)] of a UF2 file."""
    assert len(data) % 512 == 0
    out = []
    for at in range(0, len(data), 512):
        m0, m1, flags, address, size, number, count, family = struct.unpack_from(
            UF2_HEADER, data, at
        )
        (m_end,) = struct.unpack_from("<I", data, at + 508)
        assert (m0, m1, m_end) == UF2_MAGIC
        out.append((flags, address, data[at + 32 : at + 32 + size], number, count, family))
    return out


def flash_of(blocks):
    """{address: byte} of what the blocks put in flash, checking the RP2040's rules."""
    assert [b[3] for b in blocks] == list(range(len(blocks))), "numbered 0 .. n-1, no gaps"
    flash = {}
    for flags, address, payload, _number, count, family in blocks:
        assert count == len(blocks) and flags == FAMILY_ID_PRESENT and family == RP2040
        assert len(payload) == 256 and address % 256 == 0
        for i, byte in enumerate(payload):
            assert address + i not in flash, "written twice: 0x%08x" % (address + i)
            flash[address + i] = byte
    return flash


def fs_bytes(blocks, address, size):
    flash = flash_of(blocks)
    assert min(flash) <= address and max(flash) >= address + size - 1
    return bytes(flash[a] for a in range(address, address + size))


def micropython_uf2(fs_address=0x10100000, fs_size=64 * 1024, family=RP2040, info=True):
    """A MicroPython-like UF2: code from 0x10000000 with pico-sdk binary info (defs.h header
    after boot2; structure.h block device entries) declaring ROMFS and the filesystem."""
    code = bytearray(b"\x5a" * 0x2000)
    base = 0x10000000

    def at(address, data):
        code[address - base : address - base + len(data)] = data

    if info:
        entries, table = 0x10001000, 0x10001100
        at(0x10000110, struct.pack("<5I", 0x7188EBF2, entries, entries + 8, table, 0xE71AA390))
        at(entries, struct.pack("<2I", 0x10001200, 0x10001300))
        at(table, struct.pack("<I", 0))
        tag = ord("M") | ord("P") << 8
        for entry, name, address, size in (
            (0x10001200, 0x10001280, 0x10080000, 0x20000),  # "ROMFS": not the filesystem
            (0x10001300, 0x10001380, fs_address, fs_size),
        ):
            at(entry, struct.pack("<HHIIIIH", 7, tag, name, address, size, 0, 3))
        at(0x10001280, b"ROMFS\0")
        at(0x10001380, b"MicroPython\0")
    blocks = uf2.pages(base, code, family)
    return uf2.write(blocks), [(b.address, b.payload) for b in blocks]


def esp32_bin(chip=0, length=0x20000, vfs=None):
    """An ESP32_GENERIC-like image for 0x1000: an image header, the partition table at 0x8000
    (partitions-4MiBplus.csv, or a 'vfs' entry), code."""
    data = bytearray(b"\x33" * length)
    data[0:16] = struct.pack("<BBBBIBBBBH", 0xE9, 3, 2, 0x20, 0x40080000, 0xEE, 0, 0, 0, chip)
    rows = [(b"nvs", 1, 2, 0x9000, 0x6000), (b"phy_init", 1, 1, 0xF000, 0x1000)]
    rows.append((b"factory", 0, 0, 0x10000, 0x1F0000))
    if vfs:
        rows.append((b"vfs", 1, 0x81, *vfs))
    table = b"".join(
        struct.pack("<2sBBII16sI", b"\xaa\x50", k, s, o, n, label, 0) for label, k, s, o, n in rows
    )
    data[0x7000 : 0x7000 + 0xC00] = table.ljust(0xC00, b"\xff")
    return bytes(data)


@pytest.fixture
def out(tmp_path, monkeypatch):
    folder = tmp_path / "image"
    monkeypatch.setattr(image, "OUT", folder)
    return folder


def run(capsys, *argv):
    code = image.main(list(argv))
    said = capsys.readouterr()
    return code, said.out, said.err


def test_the_pico_image_is_the_filesystem_at_micropythons_address(out, capsys):
    code, said, err = run(capsys, "--board", "pico")
    assert code == 0, err
    assert [p.name for p in out.iterdir()] == ["oxo5110-pico-fs.uf2"]
    blocks = spec_blocks((out / "oxo5110-pico-fs.uf2").read_bytes())
    assert len(blocks) == PICO_FS[1] // 256
    assert [b[1] for b in blocks] == list(range(PICO_FS[0], sum(PICO_FS), 256))
    assert fs_bytes(blocks, *PICO_FS)[:8] != b"\xff" * 8
    assert "filesystem at 0x100A0000..0x10200000 (1408 KB)" in said
    # The one line a person needs next: what the board must run first, and how to flash it.
    assert (
        "image: install on a Pico (RPI_PICO) with MicroPython 1.23+ (the game needs 1.22+): hold "
        "BOOTSEL, plug it in, copy %s to the RPI-RP2 drive\n" % (out / "oxo5110-pico-fs.uf2")
    ) in said


def test_a_merged_uf2_keeps_every_micropython_block_and_uses_its_declared_range(
    out, capsys, tmp_path
):
    mp, pieces = micropython_uf2(fs_address=0x10100000, fs_size=256 * 1024)
    (tmp_path / "mp.uf2").write_bytes(mp)
    code, said, err = run(capsys, "--board", "pico", "--micropython", str(tmp_path / "mp.uf2"))
    assert code == 0, err
    merged = spec_blocks((out / "oxo5110-pico.uf2").read_bytes())
    flash_of(merged)  # one numbering, the RP2040's rules, nothing written twice
    assert [(b[1], b[2]) for b in merged[: len(pieces)]] == pieces
    alone = spec_blocks((out / "oxo5110-pico-fs.uf2").read_bytes())
    assert [(b[1], b[2]) for b in merged[len(pieces) :]] == [(b[1], b[2]) for b in alone]
    assert [b[1] for b in alone] == list(range(0x10100000, 0x10140000, 256))
    assert "filesystem at 0x10100000..0x10140000 (256 KB)" in said


def test_the_esp32_image_merges_with_esptool_and_says_how_to_flash_it(out, capsys, tmp_path):
    mp = esp32_bin()
    (tmp_path / "mp.bin").write_bytes(mp)
    code, said, err = run(capsys, "--board", "esp32", "--micropython", str(tmp_path / "mp.bin"))
    assert code == 0, err
    fs = (out / "oxo5110-esp32-fs.bin").read_bytes()
    merged = (out / "oxo5110-esp32.bin").read_bytes()
    assert len(fs) == 0x200000  # 0x200000 .. the end of a 4 MiB flash
    start = 0x200000 - 0x1000
    assert merged[: len(mp)] == mp and merged[start:] == fs
    assert set(merged[len(mp) : start]) == {0xFF}
    line = "esptool --chip esp32 --baud 460800 write-flash 0x1000 build/image/oxo5110-esp32.bin"
    assert out == image.OUT and line.replace("build/image", str(out)) in said


# (BOARD, the MICROPYTHON file's bytes: None for no file given, MISSING for a path to none,
# what the one line says)
MISSING = object()
BAD = {
    "an unknown board": ("nope", None, "image: unknown board 'nope': choose one of esp32, pico"),
    "no board": ("", None, "no BOARD given: choose one of esp32, pico, e.g. `make image "
                 "BOARD=pico`"),
    "no such file": ("pico", MISSING, "mp: no such file"),
    "not a UF2": ("pico", lambda: b"MicroPython, but text\n" * 30, "is not a UF2 file"),
    "an RP2350 UF2": ("pico", lambda: micropython_uf2(family=0xE48BFF59)[0],
                      "not for the RP2040 (family 0xe48bff56)"),
    "no binary info": ("pico", lambda: micropython_uf2(info=False)[0],
                       "declares no filesystem range"),
    "range over its code": ("pico", lambda: micropython_uf2(fs_address=0x10001000)[0],
                            "does not match"),
    "files that do not fit": ("pico", lambda: micropython_uf2(fs_size=8 * 1024)[0],
                              "do not fit a 8 KB filesystem"),
    "not an ESP32 image": ("esp32", lambda: micropython_uf2()[0], "is not an ESP32 firmware"),
    "an ESP32-S3 image": ("esp32", lambda: esp32_bin(chip=9), "for the ESP32-S3 (chip id 9)"),
    "code past the vfs": ("esp32", lambda: esp32_bin(length=0x30000, vfs=(0x20000, 0x10000)),
                          "does not match"),
    "a FAT filesystem": ("esp32", lambda: esp32_bin(vfs=(0x200000, 0x10000)).replace(
        b"vfs\0", b"ffat"), "'ffat' partition"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_and_leaves_nothing(case, out, capsys, tmp_path):
    board, data, message = BAD[case]
    argv = ["--board", board]
    if data is not None:
        argv += ["--micropython", str(tmp_path / "mp")]
        if data is not MISSING:
            (tmp_path / "mp").write_bytes(data())
    out.mkdir()
    code, said, err = run(capsys, *argv)
    assert code == 2 and said == ""
    assert err.count("\n") == 1 and err.startswith("image: ") and message in err
    assert data is None or "MICROPYTHON=" + str(tmp_path / "mp") in err
    assert list(out.iterdir()) == []


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    """pico-fs.bin (read out of the UF2 by the reader above), esp32-fs.bin, and in
    expected-pico/ and expected-esp32/ what `make deploy` copies, built by deploy itself."""
    folder = tmp_path_factory.mktemp("images")
    pico = image.make("pico")
    uf2_file = pico.files[image.OUT / "oxo5110-pico-fs.uf2"]
    (folder / "pico-fs.bin").write_bytes(fs_bytes(spec_blocks(uf2_file), *PICO_FS))
    esp32 = image.make("esp32")
    (folder / "esp32-fs.bin").write_bytes(esp32.files[image.OUT / "oxo5110-esp32-fs.bin"])
    for board in ("pico", "esp32"):
        deploy_chains.stage(board, folder / ("expected-" + board))
    return folder


class mp_image(mpcheck.Script):
    """The images mounted by the MicroPython unix port (two RAM flashes of 1408 KB and 2 MB)."""

    heapsize = "8m"
    args = (mpcheck.fixture("images"),)
