"""Write package.json, the manifest `mpremote mip install` reads (`make mip` installs it from
this checkout: mpremote's mip takes a local package.json and the files it names).

Every firmware module is listed as source under its own name, as a board holds them
(tools/layout.py), with a URL into its layer's folder relative to package.json; the version is
pyproject.toml's. `make test` fails when package.json is out of date: run this script to fix it.
"""

import json
import sys
import tomllib
from pathlib import Path

import layout

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "package.json"


def expected():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    urls = [[p.name, p.relative_to(ROOT).as_posix()] for p in layout.sources()]
    return json.dumps({"urls": urls, "deps": [], "version": version}, indent=2) + "\n"


def main():
    PACKAGE.write_text(expected())
    print("wrote", PACKAGE.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
