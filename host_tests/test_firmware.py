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


def test_a_wrong_or_missing_board_says_which_are_allowed(rig, capsys):
    src, _bin, out = rig
    line = fails(capsys, out, "--board", "pico3", "--src", str(src))
    assert "unknown BOARD=pico3" in line and "pico|pico-w|pico2|esp32" in line
    assert "no BOARD given" in fails(capsys, out, "--board", "", "--src", str(src))


def test_no_micropython_src_says_what_to_set(rig, capsys):
    _src, _bin, out = rig
    line = fails(capsys, out, "--board", "pico", "--src", "")
    assert "MICROPYTHON_SRC is not set" in line and PIN in line and "git clone" in line


def test_a_source_that_is_not_there_or_not_micropython(rig, capsys, tmp_path):
    _src, _bin, out = rig
    line = fails(capsys, out, "--board", "pico", "--src", str(tmp_path / "nowhere"))
    assert "no such folder" in line
    line = fails(capsys, out, "--board", "pico", "--src", str(tmp_path))
    assert "not a MicroPython source tree" in line


def test_a_source_at_another_commit_says_which(rig, capsys):
    src, bin_dir, out = rig
    tool(bin_dir, "git", "echo 0123456789abcdef0123456789abcdef01234567\n")
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "is at commit 0123456789abcdef0123456789abcdef01234567, not v1.28.0" in line
    assert "checkout " + PIN in line


def test_a_source_that_is_no_git_checkout(rig, capsys):
    src, bin_dir, out = rig
    tool(bin_dir, "git", "echo 'fatal: not a git repository' >&2\nexit 128\n")
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "not a git checkout" in line and "fatal: not a git repository" in line


def test_missing_submodules_are_named_with_the_command_that_fetches_them(rig, capsys):
    src, _bin, out = rig
    line = fails(capsys, out, "--board", "pico-w", "--src", str(src))
    assert "lacks the submodules lib/cyw43-driver, lib/lwip, lib/btstack" in line
    assert "RPI_PICO_W" in line and "submodules" in line
    (src / "lib" / "tinyusb" / "src" / "tusb.h").unlink()
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "lacks the submodule lib/tinyusb that RPI_PICO needs" in line


def test_a_missing_arm_toolchain_cmake_or_newlib_says_what_to_install(rig, capsys):
    src, bin_dir, out = rig
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "arm-none-eabi-gcc not found" in line and "gcc-arm-none-eabi" in line
    tool(bin_dir, "arm-none-eabi-gcc", "echo libc.a\n")  # what gcc says when it has none
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "cmake not found" in line
    tool(bin_dir, "cmake", "exit 0\n")
    line = fails(capsys, out, "--board", "pico", "--src", str(src))
    assert "libnewlib-arm-none-eabi" in line


def test_a_missing_or_wrong_esp_idf_says_which_version(rig, capsys, monkeypatch, tmp_path):
    src, bin_dir, out = rig
    line = fails(capsys, out, "--board", "esp32", "--src", str(src))
    assert "ESP-IDF not found (IDF_PATH is not set)" in line and "v5.5.1" in line
    idf = tmp_path / "esp-idf"
    header = idf / "components" / "esp_common" / "include" / "esp_idf_version.h"
    header.parent.mkdir(parents=True)
    header.write_text("#define ESP_IDF_VERSION_MAJOR   4\n#define ESP_IDF_VERSION_MINOR   4\n")
    monkeypatch.setenv("IDF_PATH", str(idf))
    assert "idf.py is not on PATH" in fails(capsys, out, "--board", "esp32", "--src", str(src))
    tool(bin_dir, "idf.py", "exit 0\n")
    line = fails(capsys, out, "--board", "esp32", "--src", str(src))
    assert "is v4.4: MicroPython v1.28.0 builds with v5.3 to v5.5" in line


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
