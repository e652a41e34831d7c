"""The README and docs/: every link and picture resolves, and the README points where the tools
say it does (its Install section, the developers' docs)."""

import re
from pathlib import Path

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
