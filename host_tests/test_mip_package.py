"""package.json (for `mpremote mip install`) lists exactly the firmware modules."""

import json
import tomllib
from pathlib import Path

import mip_package
from layout import source, sources

ROOT = Path(__file__).resolve().parents[1]


def test_package_json_is_what_the_generator_writes():
    assert (ROOT / "package.json").read_text() == mip_package.expected(), (
        "run `python tools/mip_package.py` to update package.json"
    )


def test_every_firmware_module_is_listed_from_its_layer_with_the_projects_version():
    package = json.loads(mip_package.expected())
    assert sorted(target for target, _ in package["urls"]) == sorted(p.name for p in sources())
    for target, url in package["urls"]:
        assert ROOT / url == source(target.removesuffix(".py"))  # in its layer's folder
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert package["version"] == version and package["deps"] == []  # the firmware needs no more
