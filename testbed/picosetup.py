"""What the Pico lab (testbed/picolab.py) needs, where it is, and one line when it is not.

- rp2040js, pinned in testbed/rp2040/package-lock.json, installed into testbed/rp2040/node_modules
  by `npm ci` whenever the lockfile is newer than its stamp (tools/webtools.py, which installs
  the page's packages the same way); Node.js 20+ and npm.
- The RP2040 boot ROM, never part of the project: RP2040_BOOTROM=<a 16 KB binary, or
  rp2040js's demo/bootrom.ts>, by default build/rp2040/bootrom.ts.
- The firmware under test: PICO_FIRMWARE=<the frozen image, .uf2 or .bin>, by default
  build/image/oxo5110-pico.uf2 (`make firmware BOARD=pico`), and PICO_MICROPYTHON=<a stock
  RPI_PICO MicroPython, .uf2 or .bin>, by default build/micropython/pico/firmware.uf2, which
  runs with deploy's files on a littlefs image (tools/image.py).
"""

import os
from pathlib import Path

import webtools

ROOT = Path(__file__).resolve().parents[1]
# Not testbed/pico: on a MicroPython path that holds testbed/, a folder named as the board file
# is a namespace package that shadows boards/pico.py.
LAB = ROOT / "testbed" / "rp2040"
SCRIPT = LAB / "lab.mjs"
BOOTROM = ROOT / "build" / "rp2040" / "bootrom.ts"
FROZEN = ROOT / "build" / "image" / "oxo5110-pico.uf2"
STOCK = ROOT / "build" / "micropython" / "pico" / "firmware.uf2"
# rp2040js's own copy of the B1 boot ROM, as a TypeScript array (its repository at 1.3.3; built
# from github.com/raspberrypi/pico-bootrom at 00a4a19114195e20fb817bdfbca1165e157eef37).
BOOTROM_URL = (
    "https://raw.githubusercontent.com/wokwi/rp2040js/"
    "7701ee065f50a04380f81361befd754810cb9e28/demo/bootrom.ts"
)
NO_BOOTROM = (
    "no RP2040 boot ROM at %s: set RP2040_BOOTROM=<file> to rp2040js's demo/bootrom.ts ("
    + BOOTROM_URL
    + ") or a 16 KB pico-bootrom build (github.com/raspberrypi/pico-bootrom)"
)


def bootrom():
    """The boot ROM's path (RP2040_BOOTROM, else the default), whether or not it exists."""
    return Path(os.environ.get("RP2040_BOOTROM") or BOOTROM)


def firmwares():
    """{"frozen": path, "stock": path}: the two firmwares under test, as configured."""
    return {
        "frozen": Path(os.environ.get("PICO_FIRMWARE") or FROZEN),
        "stock": Path(os.environ.get("PICO_MICROPYTHON") or STOCK),
    }


def problem(kind=None):
    """Why the lab cannot run here (one line that says how to fix it), or None. `kind`
    ("frozen"/"stock") asks about that firmware too; None about either."""
    node = webtools.node_problem()
    if node:
        return node
    if not bootrom().is_file():
        return NO_BOOTROM % bootrom()
    paths = firmwares()
    wanted = [kind] if kind else list(paths)
    why = {k: "is missing" for k in wanted if not paths[k].is_file()}
    newer = _newer_source(paths["frozen"]) if "frozen" in wanted and not why else None
    if newer:  # the default image, left by an earlier build: its goldens would not match
        why["frozen"] = "is older than %s" % newer.relative_to(ROOT)
    if len(why) == len(wanted):
        return "no Pico firmware to boot: %s" % "; ".join(
            "%s=%s %s (%s)" % (_VAR[k], paths[k], why[k], _HOW[k]) for k in why
        )
    return None


def _newer_source(image):
    """A firmware, frozen or board source newer than `image` when it is the default one (an
    image PICO_FIRMWARE names is taken as given), else None."""
    if os.environ.get("PICO_FIRMWARE"):
        return None
    built = image.stat().st_mtime
    sources = (f for d in ("firmware", "frozen", "boards") for f in (ROOT / d).rglob("*.py"))
    return next((f for f in sources if f.stat().st_mtime > built), None)


_VAR = {"frozen": "PICO_FIRMWARE", "stock": "PICO_MICROPYTHON"}
_HOW = {
    "frozen": "make firmware BOARD=pico builds it",  # again, when older than the sources
    "stock": "a stock RPI_PICO MicroPython .uf2 or .bin",
}


def deploy_image():
    """The littlefs image holding what `make deploy` copies to a Pico (tools/image.py), for
    stock MicroPython: bytes to write at the filesystem's offset."""
    import image

    return image.pico("pico", image.deploy_files("pico")).fs.data
