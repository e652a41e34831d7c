"""tools/webtools.py: what the browser checks lack and how to get it, and npm ci when stale.
(That each message names the packages the README's set-up names: test_workflows.py.)"""

import os
import shutil

import pytest
import webtools


def fake_tools(tmp_path, monkeypatch, node_version):
    """A PATH with only a `node` that says `node_version` and an `npm` that notes its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "node").write_text("#!/bin/sh\necho %s\n" % node_version)
    (bin_dir / "npm").write_text('#!/bin/sh\necho "$@" >> "%s"\n' % (tmp_path / "npm.log"))
    for tool in ("node", "npm"):
        (bin_dir / tool).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    return tmp_path / "npm.log"


def test_a_node_older_than_playwright_needs_is_named(tmp_path, monkeypatch):
    fake_tools(tmp_path, monkeypatch, "v18.19.0")
    assert webtools.node_problem() == (
        "Node.js v18.19.0 is too old: playwright-core needs Node.js 20 or newer "
        "(Debian 13's nodejs package has it)"
    )
    fake_tools(tmp_path / "new", monkeypatch, "v20.20.2")
    assert webtools.node_problem() is None


def test_without_chromium_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(webtools, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert webtools.chromium_path() is None
    monkeypatch.setattr(webtools, "node_problem", lambda: None)
    assert webtools.unavailable() == webtools.NO_CHROMIUM


def test_npm_ci_runs_when_the_lockfile_is_newer_than_the_install(tmp_path, monkeypatch):
    web = tmp_path / "web"
    (web / "node_modules").mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(webtools.WEB / name, web / name)
    npm_log = fake_tools(tmp_path, monkeypatch, "v20.20.2")

    assert webtools.ensure_node_modules(web) is True
    assert webtools.ensure_node_modules(web) is False  # fresh: npm is not asked again
    assert npm_log.read_text().splitlines() == ["ci --no-audit --no-fund"]
    later = (web / "node_modules" / ".installed").stat().st_mtime + 10
    os.utime(web / "package-lock.json", (later, later))
    assert webtools.ensure_node_modules(web) is True
    assert npm_log.read_text().splitlines() == ["ci --no-audit --no-fund"] * 2


@pytest.mark.parametrize("ci", ["true", ""])
def test_prepare_says_what_the_browser_checks_lack_and_still_lets_make_test_go_on(
    tmp_path, monkeypatch, capsys, ci
):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CI", ci)
    assert webtools.main(["prepare"]) == 0
    verdict = "will FAIL (CI must run them)" if ci else "will be SKIPPED"
    assert capsys.readouterr().out == "oxo5110: the browser checks %s: %s\n" % (
        verdict,
        webtools.NO_NODE,
    )
    assert webtools.main(["install"]) == 1  # make's rule for web/node_modules stops
    assert capsys.readouterr().err == "oxo5110 set-up: %s\n" % webtools.NO_NODE
    with pytest.raises(RuntimeError, match="Node.js and npm are not installed"):
        webtools.ensure_node_modules()
