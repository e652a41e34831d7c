"""package.json (for `mpremote mip install`): what tools/mip_package.py writes. That it lists
every firmware module, and nothing else, at its source is test_deploy.py's
test_mip_installs_the_sources_from_this_checkout: `make mip` with it installs exactly the
firmware's sources, byte for byte, and board.py."""

import json
import tomllib
from pathlib import Path

import mip_package

ROOT = Path(__file__).resolve().parents[1]


def test_package_json_is_what_the_generator_writes_with_the_projects_version():
    text = (ROOT / "package.json").read_text()
    assert text == mip_package.expected(), "run `python tools/mip_package.py`"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert json.loads(text)["version"] == version
    assert json.loads(text)["deps"] == []  # the firmware needs nothing else
