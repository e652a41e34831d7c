"""pytest plugin: each `test_*` check of a browser check module is a pytest item of its own.

A check module, host_tests/web/<class name>.mjs, exports `async function test_<name>(t)`
functions that drive Debian's Chromium through playwright-core (host_tests/web/runner.mjs says
what `t` holds). A test module declares it with a class named as the file:

    import webcheck

    class web_page(webcheck.Checks):
        site = webcheck.fixture("web_site")  # the folder served over http (required)
        timeout = 30                         # seconds per check, unless it sets test_x.timeout

Then host_tests/test_x.py::web_page::test_<name> is an item for every `export async function
test_<name>` (or `export function`) at the start of a line of the file (read, not run); `-k`
or the node id selects, and a failure shows that check's output only: what it logged, the
console errors, page errors and failed requests that failed it, and the path of a screenshot
of its pages (in the class's pytest tmp folder). Other class attributes: `checks` (another file
than host_tests/web/<class name>.mjs, a path: it is read at collection), `total` (seconds for
the whole run) and `without` (checks not collected). `site` may be a path or
webcheck.fixture(name, *parts): that fixture's value (joined with parts).

One Chromium runs every selected check of a class, each in a fresh context (so fresh
localStorage) and page, at the first of its items; the others read their verdict from that run
(checkitems, shared with mpcheck: the same items, scheduling and RUN/PASS/FAIL protocol,
which runner.mjs speaks). Where node, npm or Chromium is missing, the checks skip with a line
saying how to get it; with CI set they fail instead.

A plugin of its own beside mpcheck, not a kind of mpcheck.Script: its checks are JavaScript
functions run by node in Chromium against a served folder, found by their `export` lines, with
a per-check timeout and screenshots; nothing of MicroPython's path, heap or arguments applies.
"""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import checkitems
import pytest
import webtools

pytest_plugins = ("checkitems",)

WEB = Path(__file__).resolve().parent / "web"
RUNNER = WEB / "runner.mjs"
fixture = checkitems.fixture  # a value for site: fixture(name, *parts)
GRACE = 30  # seconds past `total` before pytest stops a runner that did not stop itself


class Checks:
    """Base of a class that declares one browser check module (see the module docstring)."""

    checks = None
    site = None
    timeout = 30
    total = 240  # below pytest-timeout's 300 s, with GRACE
    without = ()


CHECK = re.compile(r"^export\s+(?:async\s+)?function\s*\*?\s*(test_\w+)\s*\(", re.MULTILINE)


def checks_in(path):
    """{name: line} of every `export [async] function test_*(` in a check module."""
    text = Path(path).read_text(encoding="utf-8")
    found = {}
    for match in CHECK.finditer(text):
        found.setdefault(match.group(1), text.count("\n", 0, match.start()) + 1)
    return found


class Run(checkitems.Run):
    """The runner's process and what it said about each check."""

    who = "the browser run"
    missing = "the browser run ended without running this check"


class ChecksClass(checkitems.CheckClass):
    """A Checks subclass: its browser checks, then its host-side test methods."""

    section = "browser"
    declares = Checks

    def source(self):
        return self.obj.checks or WEB / (self.obj.__name__ + ".mjs")

    def find_checks(self, path):
        return checks_in(path)

    def launch(self, request, names):
        cls = self.obj
        chromium = request.getfixturevalue("web_chromium")
        label = cls.__name__
        if cls.site is None:
            raise pytest.UsageError("%s: say which folder to serve: site = ..." % label)
        site = checkitems.resolve(cls.site, request, label)
        shots = request.getfixturevalue("tmp_path_factory").mktemp(label + "_screenshots")
        cmd = ["node", RUNNER, "--site", site, "--checks", self.script_path]
        cmd += ["--only", " ".join(names)]
        cmd += ["--shots", shots, "--timeout", cls.timeout, "--total", cls.total]
        cmd += ["--chromium", chromium]
        self.about = "in Chromium (%d check%s in this run)" % (
            len(names),
            "" if len(names) == 1 else "s",
        )
        # Playwright makes Chromium's fresh profile under TMPDIR and removes it when the browser
        # closes; this folder goes even if the runner is killed. Short: Chromium's socket there
        # must fit a unix socket path (108 bytes), which a pytest tmp folder may not.
        tmp = tempfile.mkdtemp(prefix="oxo-chromium-")
        try:
            return _run([str(c) for c in cmd], dict(os.environ, TMPDIR=tmp), cls.total + GRACE)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(cmd, env, timeout):
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stdout, stderr = _stop(proc)
        return Run(checkitems.text(stdout), checkitems.text(stderr), -1, timed_out=timeout)
    except BaseException:  # pytest-timeout, Ctrl-C: Chromium must not outlive the session
        _stop(proc)
        raise
    return Run(stdout, stderr, proc.returncode)


def _stop(proc):
    proc.terminate()  # Playwright closes Chromium (and removes its profile) on SIGTERM
    try:
        return proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    return ChecksClass.declared(collector, name, obj)


@pytest.fixture(scope="session")
def web_chromium():
    """The Chromium the checks launch, with web/node_modules installed (npm ci if stale).
    Where node, npm or Chromium is missing: skip saying how to get it; with CI set, fail."""
    problem = webtools.unavailable()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(problem + " - CI must run the browser checks", pytrace=False)
        pytest.skip(problem)
    webtools.ensure_node_modules()
    return webtools.chromium_path()
