"""package.json (for `mpremote mip install`) lists exactly the firmware modules."""

import json
import tomllib
from pathlib import Path

import mip_package
from layout import source, sources

ROOT = Path(__file__).resolve().parents[1]


def test_every_firmware_module_and_nothing_else_is_listed():
    package = json.loads((ROOT / "package.json").read_text())
    targets = sorted(target for target, _ in package["urls"])
    modules = sorted(p.name for p in sources())
    assert targets == modules, "run `python tools/mip_package.py` to update package.json"


def test_each_url_points_at_its_module_in_the_repository():
    package = json.loads((ROOT / "package.json").read_text())
    for target, url in package["urls"]:
        assert ROOT / url == source(target.removesuffix(".py"))  # in its layer's folder


def test_package_json_is_what_the_generator_writes():
    # Same content, version from pyproject.toml, deps empty: the firmware needs nothing else.
    assert (ROOT / "package.json").read_text() == mip_package.expected()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert json.loads((ROOT / "package.json").read_text())["version"] == version
