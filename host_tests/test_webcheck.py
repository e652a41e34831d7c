"""The browser checks' runner and the webcheck plugin: each check of a .mjs module is a pytest
item, run in a fresh browser context, failed by its page's console errors, page errors, failed
requests and its timeout. (Serving what Chromium needs, t.newPage and webcheck's launch are held
by test_web.py's own checks; the items made of what the process says, by test_mpcheck.py.)
One runner run here (one Chromium) runs a small check module against a small site."""

import json
import re
import subprocess
import time
from pathlib import Path

import checkitems
import pytest
import webcheck
import webtools

HEAD = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">'
SITE = {
    "index.html": HEAD + '<title>ok</title><p id="out">waiting</p><script type="module">'
    'import { word } from "./mod.mjs"; document.getElementById("out").textContent = word;'
    "</script>",
    "mod.mjs": 'export const word = "module ran";\n',
    "noisy.html": HEAD + '<script>console.error("boom from the page")</script>',
    "throws.html": HEAD + '<script>throw new Error("thrown by the page")</script>',
    "missing.html": HEAD + '<img src="nothere.png">',
}

# Each check notes its name in LOG (the module notes its import), so a test sees what ran, in
# which order and in how many processes.
CHECKS = """
import fs from "node:fs";

const LOG = %s;
const note = (word) => fs.appendFileSync(LOG, word + "\\n");
note("import");

// First: the checks after it run all the same.
export async function test_hangs(t) {
  note("test_hangs");
  t.log("about to wait for ever");
  await new Promise(() => {});
}
test_hangs.timeout = 0.2;

export async function test_passes(t) {
  note("test_passes");
  await t.page.goto(t.url("index.html"));
  await t.page.waitForFunction(() => document.getElementById("out").textContent !== "waiting");
  t.log("the page says", await t.page.textContent("#out"));
}

export async function test_console_error(t) {
  note("test_console_error");
  await t.page.goto(t.url("noisy.html"));
}

export async function test_page_error(t) {
  note("test_page_error");
  await t.page.goto(t.url("throws.html"));
}

export async function test_missing_file(t) {
  note("test_missing_file");
  await t.page.goto(t.url("missing.html"));
}

export async function test_deselected(t) {
  note("test_deselected");
}
"""

# Every check but test_deselected, in the file's order.
ORDER = re.findall(r"^export async function (test_\w+)", CHECKS, re.M)[:-1]


@pytest.fixture(scope="class")
def inner(web_chromium, tmp_path_factory):
    """The runner's run of every check but test_deselected, its log and its screenshots' folder."""
    root = tmp_path_factory.mktemp("webinfra")
    (root / "site").mkdir()
    for name, text in SITE.items():
        (root / "site" / name).write_text(text)
    log, checks, shots = root / "log.txt", root / "web_infra.mjs", root / "shots"
    checks.write_text(CHECKS % json.dumps(str(log)))
    cmd = ["node", webcheck.RUNNER, "--site", root / "site", "--checks", checks]
    cmd += ["--only", " ".join(ORDER), "--shots", shots, "--chromium", web_chromium]
    run = checkitems.run_process(cmd, None, 200, "the browser run")
    run.ran = log.read_text().split() if log.exists() else []
    run.checks, run.shots = checks, shots
    return run


class TestOneBrowserRun:
    """What the inner session reported. A class, so that pytest-xdist gives its tests to one
    worker and the inner session runs once."""

    def test_one_process_runs_the_selected_checks_in_their_order(self, inner):
        assert inner.ran == ["import"] + ORDER, inner.stdout + inner.stderr
        assert list(webcheck.Checks.find_checks(inner.checks)) == ORDER + ["test_deselected"]

    def test_a_passing_check_passes_and_what_it_logged_is_in_the_report(self, inner):
        # That each check starts with fresh localStorage: test_web.py's web_coach, whose
        # test_the_grid_follows_the_coach_setting (the coach off) runs after a check that
        # turns it on.
        assert inner.report("test_passes") is None, inner.stdout
        assert "the page says module ran" in "\n".join(inner.output["test_passes"])

    @pytest.mark.parametrize(
        "name, reason, shown",
        [
            (
                "test_console_error",
                r"console\.error: boom from the page \(http://127\.0\.0\.1:\d+/noisy\.html:1\)",
                "",
            ),
            ("test_page_error", r"page error: Error: thrown by the page\b.*", "throws.html:1:"),
            ("test_missing_file", r"HTTP 404: GET http://127\.0\.0\.1:\d+/nothere\.png", ""),
            (
                "test_hangs",
                r"check timed out after 0\.2 s \(set test_hangs\.timeout for more\)",
                "about to wait for ever",  # what it logged before
            ),
        ],
    )
    def test_a_failing_check_fails_with_its_reason_and_output(self, inner, name, reason, shown):
        said, lines = inner.report(name) or ("passed", [])
        assert re.fullmatch(reason, said), said
        assert shown in "\n".join(lines)  # the page's stack; what the check logged

    def test_a_failed_check_leaves_a_screenshot_named_in_its_report(self, inner):
        lines = inner.report("test_console_error")[1]
        shots = [re.fullmatch(r"screenshot: (\S+\.png) \((.*)\)", line) for line in lines]
        shots = [shot.groups() for shot in shots if shot]
        assert len(shots) == 1 and shots[0][1].endswith("/noisy.html"), inner.stdout
        png = Path(shots[0][0])
        assert png.name == "test_console_error.png" and png.parent == inner.shots
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_run_stopped_past_its_bound_closes_chromium_in_the_check_it_was_in(
    web_chromium, tmp_path
):
    # checkitems.run_process stops a run past its class's `total` with checkitems.stop (SIGTERM):
    # the runner then closes Chromium and exits 143 at once (killed, it would say -9), the later
    # checks not run. Stopped here once test_hangs (it would wait a minute) has begun.
    log = tmp_path / "log.txt"
    checks = tmp_path / "web_infra.mjs"
    checks.write_text((CHECKS % json.dumps(str(log))).replace("timeout = 0.2", "timeout = 60"))
    cmd = ["node", webcheck.RUNNER, "--site", tmp_path, "--checks", checks]
    cmd += ["--only", "test_hangs test_passes", "--chromium", web_chromium]
    proc = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (log.exists() and "test_hangs" in log.read_text()):
        assert time.monotonic() < deadline and proc.poll() is None, proc.stdout.read()
        time.sleep(0.05)
    stdout, _ = checkitems.stop(proc)
    assert proc.returncode == 143, stdout
    assert "test_passes" not in log.read_text()


@pytest.mark.parametrize(
    "ci, outcome, how",
    [
        ("true", pytest.fail.Exception, "CI must run the browser checks"),
        ("", pytest.skip.Exception, "sudo apt-get install chromium"),
    ],
)
def test_without_chromium_the_checks_skip_saying_how_to_get_it_and_fail_under_ci(
    monkeypatch, ci, outcome, how
):
    # That every check of a class then skips (fails under CI) and none runs is checkitems.py's,
    # held by test_mpcheck.py's test_without_micropython_checks_skip_and_fail_under_ci.
    monkeypatch.setattr(webtools, "chromium_path", lambda: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="Chromium is not installed.*" + how):
        webcheck.chromium()
