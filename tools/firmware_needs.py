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
            "MICROPYTHON_SRC is not set: give a MicroPython checkout at %s (%s), e.g. "
            "`%s` then make firmware MICROPYTHON_SRC=micropython" % (PIN_TAG, PIN, CLONE)
        )
    src = Path(given).expanduser().resolve()
    if not src.is_dir():
        raise Missing("MICROPYTHON_SRC=%s: no such folder (%s)" % (given, CLONE))
    if not (src / "py" / "mpconfig.h").is_file():
        raise Missing(
            "MICROPYTHON_SRC=%s is not a MicroPython source tree (no py/mpconfig.h)" % given
        )
    if shutil.which("git") is None:
        raise Missing("git not found: it tells the MicroPython commit (sudo apt-get install git)")
    result = subprocess.run(
        ["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or ["git rev-parse HEAD failed"])[-1]
        raise Missing(
            "MICROPYTHON_SRC=%s is not a git checkout whose commit can be read (%s): "
            "use `%s`" % (given, why, CLONE)
        )
    head = result.stdout.strip()
    if head != PIN:
        raise Missing(
            "MICROPYTHON_SRC=%s is at commit %s, not %s (%s): git -C %s checkout %s"
            % (given, head, PIN_TAG, PIN, given, PIN)
        )
    return src


def check_arm_toolchain():
    for tool, what in (("arm-none-eabi-gcc", "the Arm toolchain"), ("cmake", "cmake")):
        if shutil.which(tool) is None:
            install = APT_ARM if tool != "cmake" else "sudo apt-get install cmake"
            raise Missing("%s not found: install %s (Debian/Ubuntu: %s)" % (tool, what, install))
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
    if len(found) != 2:
        return None
    return int(found["MAJOR"]), int(found["MINOR"])


def check_esp_idf():
    idf_path = os.environ.get("IDF_PATH", "")
    setup = (
        "install ESP-IDF %s (MicroPython %s's ports/esp32/README.md) and run "
        "`. $IDF_PATH/export.sh` first" % (IDF_RECOMMENDED, PIN_TAG)
    )
    if not idf_path or shutil.which("idf.py") is None:
        raise Missing(
            "ESP-IDF not found (%s): %s"
            % ("IDF_PATH is not set" if not idf_path else "idf.py is not on PATH", setup)
        )
    version = idf_version(idf_path)
    if version not in IDF_SUPPORTED:
        raise Missing(
            "ESP-IDF at IDF_PATH=%s is %s: MicroPython %s builds with v5.3 to v5.5 (%s)"
            % (
                idf_path,
                "v%d.%d" % version if version else "of an unknown version",
                PIN_TAG,
                setup,
            )
        )
