"""The README and docs/: every link and picture resolves, and the README points where the tools
say it does (its Install section, the developers' docs)."""

import re
from pathlib import Path

import image
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target), ![alt](target) and <img src="target">; a target ends at a space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img\s[^>]*src=\"([^\"]+)\"")
# Pages of the repository on GitHub, outside its files: the README links the latest release.
GITHUB_PAGES = ("releases/latest",)


def targets(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # code blocks link nothing
    return [a or b for a, b in LINK.findall(text)]


def anchors(page):
    """GitHub's anchors of a Markdown page's headings: lower case, punctuation dropped."""
    out = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def broken(page):
    out = []
    for target in targets(page):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.is_relative_to(ROOT):
            if not path.endswith(GITHUB_PAGES):
                out.append(target)
        elif not where.exists():
            out.append(target)
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            out.append(target)
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_picture_resolves(page):
    assert targets(page), "no links found: the pattern is wrong"
    assert broken(page) == []


def test_the_readme_has_the_install_section_deploy_points_to_and_links_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert "\n## Install\n" in readme  # tools/boardport.py: "See Install in README.md"
    assert "(docs/README.md)" in readme
    indexed = set(re.findall(r"\]\((\w+\.md)\)", (ROOT / "docs" / "README.md").read_text()))
    assert indexed == {p.name for p in PAGES if p.parent.name == "docs"} - {"README.md"}


def test_the_figures_file_is_make_benchs():
    figures = (ROOT / "docs" / "figures.md").read_text()
    made = set(re.findall(r"^<!-- (bench_\w+\.py) -->$", figures, re.M))
    benches = {p.name for p in (ROOT / "bench").glob("bench_*.py")}
    assert made == {name for name in benches if not name.endswith("_mp.py")}


def test_the_micropython_versions_are_the_ones_make_image_says():
    # One story: the game's own need, and each filesystem-only image's layout, as image.py
    # prints them when it says how to install an image.
    readme = " ".join((ROOT / "README.md").read_text().split())  # as if unwrapped
    commands = " ".join((ROOT / "docs" / "commands.md").read_text().split())
    assert "the game needs %s or newer" % image.GAME_NEEDS in readme
    assert "runs on MicroPython %s or newer" % image.GAME_NEEDS in commands
    for port, name in (("rp2", "a Pico's"), ("esp32", "an ESP32's")):
        assert "%s from %s" % (name, image.NEEDS[port]) in readme
        assert " %s " % image.NEEDS[port] in commands


def test_the_virtual_board_commands_in_the_readme_run_as_written():
    readme = " ".join((ROOT / "README.md").read_text().split())
    for command in ("deploy BOARD=pico", "run BOARD=pico", "repl"):
        assert "`make %s PORT=build/ttyACM0`" % command in readme
