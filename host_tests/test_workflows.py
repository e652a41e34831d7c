"""The hosted CI runs what the README says runs every check; the release builds what
docs/commands.md says it builds."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CI = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text())
RELEASE = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text())


def readme_test_command():
    block = re.search(
        r"## The two commands\n\n```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S
    )
    return next(
        line.split("#")[0].strip() for line in block.group(1).splitlines() if "test" in line
    )


def test_ci_runs_the_readmes_test_command_on_every_push_and_pull_request():
    events = CI[True]  # YAML 1.1 reads the key `on` as true
    assert "push" in events and "pull_request" in events
    runs = [step.get("run") for job in CI["jobs"].values() for step in job["steps"]]
    assert readme_test_command() == "make test" and "make test" in runs


def test_the_readme_says_what_make_test_needs_beyond_python_and_what_happens_without():
    # tools/webtools.py's lines for a machine without them, read beside the README's words.
    import webtools

    said = " ".join(
        (ROOT / "README.md").read_text().split("## The two commands")[1].split("\n## ")[0].split()
    )
    for missing in (webtools.NO_NODE, webtools.NO_CHROMIUM):
        packages = missing.split("sudo apt-get install ")[1].rstrip(")").split()
        assert all(name in said.split("sudo apt-get install ")[1] for name in packages), missing
    assert "Node.js 20+ with npm" in said and "Chromium" in said
    assert "skipped" in said and "with `CI` set they fail" in said


def test_release_builds_micropython_from_a_full_commit_the_docs_name():
    release = RELEASE
    commit = release["env"]["MICROPYTHON_COMMIT"]
    assert re.fullmatch(r"[0-9a-f]{40}", commit)
    checkouts = [
        step["with"]
        for job in release["jobs"].values()
        for step in job["steps"]
        if step.get("uses", "").startswith("actions/checkout@")
        and step.get("with", {}).get("repository") == "micropython/micropython"
    ]
    assert len(checkouts) == 2  # one per port's MicroPython build
    assert {c["ref"] for c in checkouts} == {"${{ env.MICROPYTHON_COMMIT }}"}
    docs = (ROOT / "docs" / "commands.md").read_text()
    assert commit in docs and release["env"]["MICROPYTHON_TAG"] in docs
    assert release["jobs"]["esp32"]["container"].split(":")[1] in docs


def steps_of(job):
    return [step.get("run", "") for step in job["steps"]]


def test_ci_and_the_release_build_the_frozen_pico_at_the_same_pins_and_boot_it():
    release = RELEASE
    pico = CI["jobs"]["pico"]
    assert pico["env"]["MICROPYTHON_COMMIT"] == release["env"]["MICROPYTHON_COMMIT"]
    assert pico["env"]["RP2040JS_COMMIT"] == release["env"]["RP2040JS_COMMIT"]
    assert re.fullmatch(r"[0-9a-f]{40}", release["env"]["RP2040JS_COMMIT"])
    cache = next(s for s in pico["steps"] if s.get("uses", "").startswith("actions/cache@"))
    assert "MICROPYTHON_COMMIT" in cache["with"]["key"] and "frozen/**" in cache["with"]["key"]
    for job in (pico, release["jobs"]["pico"]):
        runs = steps_of(job)
        built = next(i for i, r in enumerate(runs) if "make firmware BOARD=" in r)
        tested = next(i for i, r in enumerate(runs) if "make test-pico RP2040_BOOTROM=" in r)
        assert built < tested


def test_the_release_attaches_each_boards_image_only_after_its_checks():
    release = RELEASE
    pico = release["jobs"]["pico"]
    boards = {entry["board"] for entry in pico["strategy"]["matrix"]["include"]}
    assert boards == {"pico", "pico-w", "pico2"}
    upload = [s.get("uses", "") for s in pico["steps"]].index("actions/upload-artifact@v4")
    test = next(i for i, s in enumerate(pico["steps"]) if "make test-pico" in s.get("run", ""))
    assert test < upload  # a failed test-pico stops the job before the upload
    esp32 = release["jobs"]["esp32"]
    runs = steps_of(esp32)
    assert any("tools/espqemu.py" in r for r in runs)
    assert set(release["jobs"]["images"]["needs"]) == {"pico", "esp32"}
    attach = steps_of(release["jobs"]["images"])[-1]
    for name in ("pico", "pico-w", "pico2"):
        assert "oxo5110-%s.uf2" % name in attach
    assert "oxo5110-esp32.bin" in attach
