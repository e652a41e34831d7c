"""What the web page and its browser checks need (Node.js, npm, Chromium), and their npm packages.

One place says where the packages are, whether node, npm and Chromium are there and, if not, how
to get them: pytest's browser checks, the benchmarks and `make web` / `make test` all ask here.
The packages are pinned in web/package-lock.json and installed into web/node_modules by
`npm ci`, again whenever the lockfile is newer than web/node_modules/.installed.

    python3 tools/webtools.py install   # npm ci if stale; exit 1 saying what is missing
    python3 tools/webtools.py prepare   # for make test: install where node is, and say (not
                                        # fail) what the browser checks lack on this machine
"""

import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
NODE_MODULES = WEB / "node_modules"
# The MicroPython WebAssembly port (its loader micropython.mjs and micropython.wasm).
WASM_NAME = "@micropython/micropython-webassembly-pyscript"
WASM_PACKAGE = NODE_MODULES / WASM_NAME
NODE_MAJOR = 20  # playwright-core's "engines" (web/package-lock.json)
CHROMIUM = "/usr/bin/chromium"  # Debian's package; the checks launch this one

NO_NODE = (
    "Node.js and npm are not installed: the browser checks and the web page's packages need "
    "them (Debian/Ubuntu: sudo apt-get install nodejs npm)"
)
OLD_NODE = (
    "Node.js %%s is too old: playwright-core needs Node.js %d or newer (Debian 13's nodejs "
    "package has it)" % NODE_MAJOR
)
NO_CHROMIUM = (
    "Chromium is not installed: the browser checks run Debian's Chromium at %s "
    "(Debian/Ubuntu: sudo apt-get install chromium)" % CHROMIUM
)


class WebToolsError(Exception):
    """npm ci failed; the message has its output."""


def node_problem():
    """Why node/npm cannot be used here (one line saying how to get them), or None."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return NO_NODE
    version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    major = re.match(r"v(\d+)\.", version.strip())
    if major is None or int(major.group(1)) < NODE_MAJOR:
        return OLD_NODE % (version.strip() or "of unknown version")
    return None


def chromium_path():
    """The Chromium the checks launch: Debian's /usr/bin/chromium, else `chromium` on PATH."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


def unavailable():
    """The first reason the browser checks cannot run on this machine (with how to fix it), or
    None. It does not say whether web/node_modules is installed: ensure_node_modules() does."""
    return node_problem() or (NO_CHROMIUM if chromium_path() is None else None)


def stale(folder=WEB):
    """Whether folder/node_modules is missing or older than its lockfile (or package.json)."""
    marker = folder / "node_modules" / ".installed"
    if not marker.exists():
        return True
    made = marker.stat().st_mtime
    return any((folder / f).stat().st_mtime > made for f in ("package-lock.json", "package.json"))


def ensure_node_modules(folder=WEB, echo=False):
    """Install folder/node_modules (web/'s, or the Pico lab's testbed/rp2040) with `npm ci` if it
    is stale. Several processes (pytest-xdist workers) may ask at once: one installs while the
    others wait on a lock, then find it fresh. `echo` says so on stdout. Raises WebToolsError if
    npm ci fails, RuntimeError if node or npm is missing."""
    problem = node_problem()
    if problem:
        raise RuntimeError(problem)
    where = os.path.relpath(folder, ROOT)
    with open(folder / "package-lock.json", "rb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stale(folder):
            return False
        if echo:
            print("installing %s/node_modules from its lockfile (npm ci)" % where, flush=True)
        result = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        if result.returncode:
            raise WebToolsError(
                "npm ci in %s/ failed (exit %d):\n%s%s"
                % (where, result.returncode, result.stdout, result.stderr)
            )
        (folder / "node_modules" / ".installed").touch()
        return True


def main(argv):
    if argv not in (["install"], ["prepare"]):
        print("usage: webtools.py install|prepare", file=sys.stderr)
        return 2
    try:
        if argv == ["install"] or node_problem() is None:  # prepare: only where node is
            ensure_node_modules(echo=True)
    except (RuntimeError, WebToolsError) as err:
        print("oxo5110 set-up: %s" % err, file=sys.stderr)
        return 1
    problem = unavailable()
    if problem and argv == ["prepare"]:
        verdict = "will FAIL (CI must run them)" if os.environ.get("CI") else "will be SKIPPED"
        print("oxo5110: the browser checks %s: %s" % (verdict, problem))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
