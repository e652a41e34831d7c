"""pytest plugin: each `test_*` check of a browser check module is a pytest item of its own.

A check module, host_tests/web/<class name>.mjs, exports `async function test_<name>(t)`
functions that drive Chromium through playwright-core (runner.mjs says what `t` holds). A test
module declares it with a class named as the file:

    class web_page(webcheck.Checks):
        timeout = 30  # seconds per check, unless it sets test_x.timeout

Each `export [async] function test_<name>` at the start of a line (read, not run) is then an
item; a failure shows that check's output only (what it logged, the problems that failed it, a
screenshot of its pages). The site served is the `web_site` fixture's folder. checkitems.py
makes the items and runs the process (one runner, one Chromium, per class); this module
launches it. Where node, npm or Chromium is missing the checks skip saying how to get it (the
`chromium` function); with CI set they fail.
"""

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

import checkitems
import pytest
import web_build
import webtools

pytest_plugins = ("checkitems",)

WEB = Path(__file__).resolve().parent / "web"
RUNNER = WEB / "runner.mjs"
CHECK = re.compile(r"^export\s+(?:async\s+)?function\s*\*?\s*(test_\w+)\s*\(", re.MULTILINE)


class Checks(checkitems.Declaration):
    """Base of a class that declares one browser check module (see the module docstring): the
    launcher of its checks."""

    timeout = 30
    total = 270  # below pytest-timeout's 300 s, so a hung run is reported as this
    who = "the browser run"
    section = "browser"

    @classmethod
    def file(cls):
        return WEB / (cls.__name__ + ".mjs")

    @classmethod
    def find_checks(cls, path):
        """{name: line} of every `export [async] function test_*(` in the module."""
        text = Path(path).read_text(encoding="utf-8")
        found = {}
        for match in CHECK.finditer(text):
            found.setdefault(match.group(1), text.count("\n", 0, match.start()) + 1)
        return found

    @classmethod
    @contextlib.contextmanager
    def launch(cls, request, path, names):
        chromium = request.getfixturevalue("web_chromium")
        label = cls.__name__
        site = request.getfixturevalue("web_site")
        shots = request.getfixturevalue("tmp_path_factory").mktemp(label + "_screenshots")
        cmd = ["node", RUNNER, "--site", site, "--checks", path, "--only", " ".join(names)]
        cmd += ["--shots", shots, "--timeout", cls.timeout]
        cmd += ["--chromium", chromium]
        # Playwright makes Chromium's fresh profile under TMPDIR and removes it when the browser
        # closes; this folder goes even if the runner is killed. Short: Chromium's socket there
        # must fit a unix socket path (108 bytes), which a pytest tmp folder may not.
        tmp = tempfile.mkdtemp(prefix="oxo-chromium-")
        try:
            yield cmd, dict(os.environ, TMPDIR=tmp), cls.total, "in Chromium"
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def chromium():
    """The Chromium the checks launch, with web/node_modules installed (npm ci if stale).
    Where node, npm or Chromium is missing: skip saying how to get it; with CI set, fail."""
    checkitems.require(webtools.unavailable(), "the browser checks")
    webtools.ensure_node_modules()
    return webtools.chromium_path()


@pytest.fixture(scope="session")
def web_chromium():
    return chromium()


@pytest.fixture(scope="session")
def web_site(web_chromium, tmp_path_factory):
    """The site `make web` builds (tools/web_build.py), built once into a pytest folder."""
    out = tmp_path_factory.mktemp("web") / "site"
    web_build.build(out)
    return out
