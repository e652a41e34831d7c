"""`make firmware` (tools/firmware.py): every bad input ends in one line, non-zero, with nothing
written in build/image; no real build here (fake tools on a PATH of their own)."""

import os
import stat
import sys
from pathlib import Path

import pytest
from firmware_needs import PIN

import firmware


def tool(folder, name, script):
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def rig(tmp_path, monkeypatch):
    """A fake MicroPython tree at the pin (a fake git says so), a PATH holding only `bin`, and
    build/image and build/firmware in tmp_path, build/image holding a previous image."""
    src = tmp_path / "micropython"
    (src / "py").mkdir(parents=True)
    (src / "py" / "mpconfig.h").write_text("")
    for port, board in (("rp2", "RPI_PICO"), ("esp32", "ESP32_GENERIC")):
        (src / "ports" / port / "boards" / board).mkdir(parents=True)
    (src / "mpy-cross" / "build").mkdir(parents=True)
    (src / "mpy-cross" / "build" / "mpy-cross").write_text("")
    for name, known in firmware.RP2_SUBMODULES + firmware.ESP32_SUBMODULES:
        (src / name / known).parent.mkdir(parents=True, exist_ok=True)
        (src / name / known).write_text("")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool(bin_dir, "git", "echo %s\n" % PIN)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.delenv("IDF_PATH", raising=False)
    out = tmp_path / "image"
    out.mkdir()
    (out / "oxo5110-pico.uf2").write_bytes(b"previous")
    monkeypatch.setattr(firmware, "OUT", out)
    monkeypatch.setattr(firmware, "WORK", tmp_path / "work")
    return src, bin_dir, out


def fails(capsys, out, *argv):
    """Run the tool; check it failed with one line and left build/image as it was: the line."""
    assert firmware.main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("firmware: "), captured.err
    assert sorted(p.name for p in out.iterdir()) == ["oxo5110-pico.uf2"]
    assert (out / "oxo5110-pico.uf2").read_bytes() == b"previous"
    return lines[0]


def arm(bin_dir):
    tool(bin_dir, "arm-none-eabi-gcc", 'echo "$(dirname "$0")/libc.a"\n')
    tool(bin_dir, "cmake", "exit 0\n")


OTHER = "0123456789abcdef0123456789abcdef01234567"
NOT_GIT = "echo 'fatal: not a git repository' >&2\nexit 128\n"
NO_LIBC = {"arm-none-eabi-gcc": "echo libc.a\n"}  # what gcc says when it has no libc.a
OLD_IDF = {"IDF_PATH": "4.4"}  # an ESP-IDF 4.4 at IDF_PATH
# Each refusal: (BOARD, MICROPYTHON_SRC: "src" the rig's whole tree at the pin, "" none, or a
# folder of tmp_path; fake tools added to the rig's PATH (which has git only); the line's
# words). "no-tinyusb" is the rig's tree without lib/tinyusb.
REFUSALS = {
    "an unknown board": ("pico3", "src", {}, ("unknown BOARD=pico3", "pico|pico-w|pico2|esp32")),
    "no board": ("", "src", {}, ("no BOARD given",)),
    "no source": ("pico", "", {}, ("MICROPYTHON_SRC is not set", PIN, "git clone")),
    "no such folder": ("pico", "nowhere", {}, ("no such folder",)),
    "not micropython": ("pico", ".", {}, ("not a MicroPython source tree",)),
    "another commit": ("pico", "src", {"git": "echo %s\n" % OTHER},
                       ("is at commit %s, not v1.28.0" % OTHER, "checkout " + PIN)),
    "no git checkout": ("pico", "src", {"git": NOT_GIT},
                        ("not a git checkout", "fatal: not a git repository")),
    "the pico w's submodules": ("pico-w", "src", {}, ("RPI_PICO_W", "submodules",
                                "lacks the submodules lib/cyw43-driver, lib/lwip, lib/btstack")),
    "a submodule": ("pico", "no-tinyusb", {},
                    ("lacks the submodule lib/tinyusb that RPI_PICO needs",)),
    "no arm gcc": ("pico", "src", {}, ("arm-none-eabi-gcc not found", "gcc-arm-none-eabi")),
    "no cmake": ("pico", "src", NO_LIBC, ("cmake not found",)),
    "no newlib": ("pico", "src", {**NO_LIBC, "cmake": "exit 0\n"}, ("libnewlib-arm-none-eabi",)),
    "no esp-idf": ("esp32", "src", {}, ("ESP-IDF not found (IDF_PATH is not set)", "v5.5.1")),
    "no idf.py": ("esp32", "src", OLD_IDF, ("idf.py is not on PATH",)),
    "an old esp-idf": ("esp32", "src", {**OLD_IDF, "idf.py": "exit 0\n"},
                       ("is v4.4: MicroPython v1.28.0 builds with v5.3 to v5.5",)),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSALS)
def test_each_missing_thing_is_one_line_saying_what_to_do(case, rig, capsys, monkeypatch):
    board, given, tools, said = REFUSALS[case]
    src, bin_dir, out = rig
    for name, script in tools.items():
        if name != "IDF_PATH":
            tool(bin_dir, name, script)
    if "IDF_PATH" in tools:
        major, minor = tools["IDF_PATH"].split(".")
        idf = src.parent / "esp-idf"
        header = idf / "components" / "esp_common" / "include" / "esp_idf_version.h"
        header.parent.mkdir(parents=True)
        header.write_text(
            "#define ESP_IDF_VERSION_MAJOR   %s\n#define ESP_IDF_VERSION_MINOR   %s\n"
            % (major, minor)
        )
        monkeypatch.setenv("IDF_PATH", str(idf))
    if given == "no-tinyusb":
        (src / "lib" / "tinyusb" / "src" / "tusb.h").unlink()
    where = str(src) if given in ("src", "no-tinyusb") else given and str(src.parent / given)
    line = fails(capsys, out, "--board", board, "--src", where)
    assert all(words in line for words in said), line


def test_a_failed_compile_points_at_its_log(rig, capsys, tmp_path):
    src, bin_dir, out = rig
    arm(bin_dir)
    tool(bin_dir, "cmake", 'case "$*" in *--build*) echo "oops.c:1: error: boom"; exit 2;; esac\n')
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "the compile of RPI_PICO failed (exit 2)" in line
    assert "work/pico/build.log" in line and "oops.c:1: error: boom" in line


def test_a_build_whose_firmware_declares_no_filesystem_writes_nothing(rig, capsys):
    src, bin_dir, out = rig
    arm(bin_dir)
    # cmake "builds" a firmware.bin without binary info (the PATH has no shell tools).
    fake = bin_dir / "cmake"
    fake.write_text(
        "#!%s\nimport os, sys\nif '--build' in sys.argv:\n"
        "    b = sys.argv[sys.argv.index('--build') + 1]\n"
        "    open(os.path.join(b, 'firmware.bin'), 'wb').write(bytes(1024))\n"
        "else:\n    os.makedirs(sys.argv[sys.argv.index('-B') + 1])\n" % sys.executable
    )
    fake.chmod(0o755)
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "declares no filesystem range" in line


def test_the_boards_and_their_files():
    assert {k: v.out for k, v in firmware.IMAGES.items()} == {
        "pico": "oxo5110-pico.uf2",
        "pico-w": "oxo5110-pico-w.uf2",
        "pico2": "oxo5110-pico2.uf2",
        "esp32": "oxo5110-esp32.bin",
    }
    assert {v.board_file for k, v in firmware.IMAGES.items() if k.startswith("pico")} == {"pico"}


def test_the_rp2_build_keeps_the_board_and_manifest_cmake_needs(tmp_path):
    src = tmp_path / "mp"
    (src / "mpy-cross" / "build").mkdir(parents=True)
    (src / "mpy-cross" / "build" / "mpy-cross").write_text("")
    commands = firmware.build_commands(src, firmware.IMAGES["pico"], Path("/m.py"), tmp_path)
    [configure] = [argv for what, argv, _cwd in commands if what == "cmake"]
    assert "-DMICROPY_FROZEN_MANIFEST=/m.py" in configure and "-DPICO_NO_PICOTOOL=1" in configure
    assert "-DMICROPY_BOARD=RPI_PICO" in configure
    commands = firmware.build_commands(src, firmware.IMAGES["pico2"], Path("/m.py"), tmp_path)
    [configure] = [argv for what, argv, _cwd in commands if what == "cmake"]
    assert "-DPICO_NO_PICOTOOL=1" not in configure  # the RP2350's UF2 is picotool's


def test_the_makefile_target_exits_non_zero_with_the_tools_line_last(tmp_path):
    import subprocess

    root = Path(firmware.ROOT)
    env = dict(os.environ, MICROPYTHON_SRC="")
    done = subprocess.run(
        ["make", "-s", "firmware", "BOARD=pico"], cwd=root, capture_output=True, text=True, env=env
    )
    assert done.returncode != 0
    meaningful = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert meaningful == [meaningful[-1]] and "MICROPYTHON_SRC is not set" in meaningful[-1]
