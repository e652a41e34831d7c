"""The hosted CI runs what the README says runs every check; the release builds what
docs/commands.md says it builds."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command():
    block = re.search(
        r"## The two commands\n\n```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S
    )
    return next(
        line.split("#")[0].strip() for line in block.group(1).splitlines() if "test" in line
    )


def test_ci_runs_the_readmes_test_command_on_every_push_and_pull_request():
    ci = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text())
    events = ci[True]  # YAML 1.1 reads the key `on` as true
    assert "push" in events and "pull_request" in events
    runs = [step.get("run") for job in ci["jobs"].values() for step in job["steps"]]
    assert readme_test_command() == "make test" and "make test" in runs


def test_release_builds_micropython_from_a_full_commit_the_docs_name():
    release = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text())
    commit = release["env"]["MICROPYTHON_COMMIT"]
    assert re.fullmatch(r"[0-9a-f]{40}", commit)
    checkouts = [
        step["with"]
        for job in release["jobs"].values()
        for step in job["steps"]
        if step.get("uses", "").startswith("actions/checkout@")
        and "repository" in step.get("with", {})
    ]
    assert len(checkouts) == 2  # one per board's MicroPython build
    for checkout in checkouts:
        assert checkout["repository"] == "micropython/micropython"
        assert checkout["ref"] == "${{ env.MICROPYTHON_COMMIT }}"
    docs = (ROOT / "docs" / "commands.md").read_text()
    assert commit in docs and release["env"]["MICROPYTHON_TAG"] in docs
    assert release["jobs"]["micropython-esp32"]["container"].split(":")[1] in docs
