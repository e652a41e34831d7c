"""pytest plugin: each `test_*` check of a browser check module is a pytest item of its own.

A check module, host_tests/web/<class name>.mjs, exports `async function test_<name>(t)`
functions that drive Debian's Chromium through playwright-core (host_tests/web/runner.mjs says
what `t` holds). A test module declares it with a class named as the file:

    import webcheck

    class web_page(webcheck.Checks):
        site = webcheck.fixture("web_site")  # the folder served over http (required)
        timeout = 30                         # seconds per check, unless it sets test_x.timeout

Then host_tests/test_x.py::web_page::test_<name> is an item for every `export [async]
function test_<name>` at the start of a line of the file (read, not run); `-k` or the node id
selects, and a failure shows that check's output only: what it logged, the console errors, page
errors and failed requests that failed it, and the path of a screenshot of its pages (in the
class's pytest tmp folder). Other attributes: `checks` (another file than the class's .mjs, read
at collection), `total` (seconds for the whole run) and `without` (checks not collected);
`site` is a path or webcheck.fixture(name, *parts), that fixture's value joined with parts.

This module is the browser's launcher only (checkitems.py makes the items and runs the process:
one runner, one Chromium, per class). Where node, npm or Chromium is missing, the checks skip
with a line saying how to get it; with CI set they fail instead.
"""

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

import checkitems
import pytest
import webtools

pytest_plugins = ("checkitems",)

WEB = Path(__file__).resolve().parent / "web"
RUNNER = WEB / "runner.mjs"
fixture = checkitems.fixture  # a value for site: fixture(name, *parts)
CHECK = re.compile(r"^export\s+(?:async\s+)?function\s*\*?\s*(test_\w+)\s*\(", re.MULTILINE)


class Checks(checkitems.Declaration):
    """Base of a class that declares one browser check module (see the module docstring): the
    launcher of its checks."""

    checks = None
    site = None
    timeout = 30
    total = 270  # below pytest-timeout's 300 s, so a hung run is reported as this
    who = "the browser run"
    section = "browser"

    @classmethod
    def file(cls):
        return cls.checks or WEB / (cls.__name__ + ".mjs")

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
        if cls.site is None:
            raise pytest.UsageError("%s: say which folder to serve: site = ..." % label)
        site = checkitems.resolve(cls.site, request, label)
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


@pytest.fixture(scope="session")
def web_chromium():
    """The Chromium the checks launch, with web/node_modules installed (npm ci if stale).
    Where node, npm or Chromium is missing: skip saying how to get it; with CI set, fail."""
    checkitems.require(webtools.unavailable(), "the browser checks")
    webtools.ensure_node_modules()
    return webtools.chromium_path()
