"""Heap the firmware's code takes on a 32-bit MicroPython, next to the 64-bit unix port.

The boards are 32-bit; the unix port from PyPI is 64-bit (8-byte pointers, 32-byte GC blocks).
MicroPython's webassembly port (npm: @micropython/micropython-webassembly-pyscript) is a real
32-bit build, so importing the same mpy-cross output there shows what the code costs on a
board's heap. The package is the web page's, pinned once in web/package-lock.json and installed
into web/node_modules (tools/webtools.py). Figures only (make bench); skipped with a note when
node/npm are missing.
"""

import json
import shutil
import subprocess
import sys

import benchkit
import webtools
from benchkit import ROOT

NPM_PACKAGE = webtools.WASM_NAME
PACKAGE = webtools.WASM_PACKAGE
WORK = ROOT / "build" / "wasm32"
# Import order of a boot: the engine and the drivers, then the game and the app (a module they
# import first, as valid, is charged to them; every module is compiled, board files too).
MODULES = (
    "engine", "buttons", "pcd8544", "settings", "hardware", "glyphs", "game", "widgets", "menu",
    "power", "mainmenu", "play", "title", "app", "sound",
)  # fmt: skip

MEASURE = """
import gc, sys
sys.path.append("/fw")
gc.collect()
base = prev = gc.mem_alloc()
for name in %r:
    __import__(name)
    gc.collect()
    now = gc.mem_alloc()
    print("MOD", name, now - prev)
    prev = now
print("TOTAL", prev - base, sys.maxsize)
""" % (MODULES,)

RUNNER = """
import { loadMicroPython } from "%s";
import fs from "fs";
const mp = await loadMicroPython({ stdout: (line) => console.log(line) });
mp.FS.mkdir("/fw");
for (const f of fs.readdirSync("fw")) mp.FS.writeFile("/fw/" + f, fs.readFileSync("fw/" + f));
mp.runPython(fs.readFileSync("measure.py", "utf8"));
"""


def version():
    """The installed (pinned) version of the wasm package."""
    return json.loads((PACKAGE / "package.json").read_text())["version"]


def measure_wasm32():
    webtools.ensure_node_modules()
    shutil.rmtree(WORK, ignore_errors=True)  # also a node_modules an older bench installed here
    benchkit.firmware_mpy(WORK / "fw")
    (WORK / "measure.py").write_text(MEASURE)
    (WORK / "run.mjs").write_text(RUNNER % (PACKAGE / "micropython.mjs").as_uri())
    out = subprocess.run(
        ["node", "run.mjs"], cwd=WORK, check=True, capture_output=True, text=True
    ).stdout
    return parse(out)


def measure_unix64():
    fw = ROOT / "build" / "unix64"
    shutil.rmtree(fw, ignore_errors=True)
    benchkit.firmware_mpy(fw)
    script = fw / "measure.py"
    script.write_text(MEASURE)
    return parse(benchkit.run_mp("bench_wasm32", script, (), (fw,), "256k"))


def parse(out):
    """({module: bytes}, total bytes, sys.maxsize) from the MOD and TOTAL lines of MEASURE."""
    words = [line.split() for line in out.splitlines()]
    total, maxsize = (int(v) for v in benchkit.keyed(out)["TOTAL"])
    return {w[1]: int(w[2]) for w in words if w[:1] == ["MOD"]}, total, maxsize


def main():
    print("== firmware code on the heap: 32-bit (webassembly port) vs 64-bit (unix port) ==")
    problem = webtools.node_problem()
    if problem:
        print("skipped: the 32-bit figure needs the webassembly port from npm: " + problem)
        return 0
    try:
        wasm, wasm_total, wasm_max = measure_wasm32()
    except (webtools.WebToolsError, subprocess.CalledProcessError, OSError) as err:
        print("skipped: could not install or run %s (%s)" % (NPM_PACKAGE, err))
        return 0
    unix, unix_total, unix_max = measure_unix64()
    benchkit.header("module", "32-bit (wasm %s)" % version(), "64-bit (unix)")
    for name in MODULES:
        benchkit.row(name, "%d B" % wasm[name], "%d B" % unix[name])
    all_modules = "all (sys.maxsize %d / %d)" % (wasm_max, unix_max)
    benchkit.row(all_modules, "%d B" % wasm_total, "%d B" % unix_total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
