"""The hosted CI runs what the README says runs every check."""

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
