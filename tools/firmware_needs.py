"""What `make firmware` needs before it builds (tools/firmware.py): MicroPython's source at the
pinned release commit, the Arm toolchain with its C library and cmake, or ESP-IDF. Each check
raises Missing with one line saying what to install or set.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

PIN_TAG = "v1.28.0"
PIN = "e0e9fbb17ed6fd06bb76e266ae554784c9c80804"
CLONE = "git clone --branch %s https://github.com/micropython/micropython" % PIN_TAG
APT_ARM = "sudo apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi"
# v1.28.0's ports/esp32/README.md: "v5.5.1 ... also supports v5.3, v5.4, v5.4.1 and v5.4.2".
IDF_RECOMMENDED = "v5.5.1"
IDF_SUPPORTED = ((5, 3), (5, 4), (5, 5))


class Missing(Exception):
    """Something the build needs is not there: the message says what to install or set."""


def check_source(given):
    """The MicroPython checkout, checked to be one at PIN; Missing says what to do if not."""
    if not given:
        raise Missing(
            f"MICROPYTHON_SRC is not set: give a MicroPython checkout at {PIN_TAG} ({PIN}), e.g. "
            f"`{CLONE}` then make firmware MICROPYTHON_SRC=micropython"
        )
    src = Path(given).expanduser().resolve()
    if not src.is_dir():
        raise Missing(f"MICROPYTHON_SRC={given}: no such folder ({CLONE})")
    if not (src / "py" / "mpconfig.h").is_file():
        raise Missing(
            f"MICROPYTHON_SRC={given} is not a MicroPython source tree (no py/mpconfig.h)"
        )
    if shutil.which("git") is None:
        raise Missing("git not found: it tells the MicroPython commit (sudo apt-get install git)")
    result = subprocess.run(
        ["git", "-C", src, "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or ["git rev-parse HEAD failed"])[-1]
        raise Missing(
            f"MICROPYTHON_SRC={given} is not a git checkout whose commit can be read ({why}): "
            f"use `{CLONE}`"
        )
    head = result.stdout.strip()
    if head != PIN:
        raise Missing(
            f"MICROPYTHON_SRC={given} is at commit {head}, not {PIN_TAG} ({PIN}): "
            f"git -C {given} checkout {PIN}"
        )
    return src


def check_arm_toolchain():
    for tool, what, package in (
        ("arm-none-eabi-gcc", "the Arm toolchain", APT_ARM),
        ("cmake", "cmake", "sudo apt-get install cmake"),
    ):
        if shutil.which(tool) is None:
            raise Missing(f"{tool} not found: install {what} (Debian/Ubuntu: {package})")
    # Debian packs the C library apart from the compiler; without it gcc finds no libc.a.
    libc = subprocess.run(
        ["arm-none-eabi-gcc", "-print-file-name=libc.a"], capture_output=True, text=True
    ).stdout.strip()
    if not os.path.isabs(libc):
        raise Missing(
            "arm-none-eabi-gcc has no C library (libc.a): install newlib "
            "(Debian/Ubuntu: sudo apt-get install libnewlib-arm-none-eabi)"
        )


def idf_version(idf_path):
    """(major, minor) from ESP-IDF's components/esp_common/include/esp_idf_version.h, or None."""
    header = Path(idf_path) / "components" / "esp_common" / "include" / "esp_idf_version.h"
    try:
        text = header.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = dict(re.findall(r"#define ESP_IDF_VERSION_(MAJOR|MINOR)\s+(\d+)", text))
    return (int(found["MAJOR"]), int(found["MINOR"])) if len(found) == 2 else None


def check_esp_idf():
    idf_path = os.environ.get("IDF_PATH", "")
    setup = (
        f"install ESP-IDF {IDF_RECOMMENDED} (MicroPython {PIN_TAG}'s ports/esp32/README.md) and "
        "run `. $IDF_PATH/export.sh` first"
    )
    if not idf_path or shutil.which("idf.py") is None:
        why = "idf.py is not on PATH" if idf_path else "IDF_PATH is not set"
        raise Missing(f"ESP-IDF not found ({why}): {setup}")
    version = idf_version(idf_path)
    if version not in IDF_SUPPORTED:
        found = "v%d.%d" % version if version else "of an unknown version"
        raise Missing(
            f"ESP-IDF at IDF_PATH={idf_path} is {found}: MicroPython {PIN_TAG} builds with v5.3 "
            f"to v5.5 ({setup})"
        )
