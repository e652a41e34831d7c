"""Figures of the web page's coach (issue 21) in a real browser: the time to show the scores
beside the glass, to open the tree explorer (its code fetched) and list the empty board's moves.

    .venv/bin/python bench/bench_web_coach.py

Run by `make bench`: bench_web_coach.mjs drives headless Chromium as bench_web.py does and
reads what web/coach.js and web/explorer.js note of each answer: the ms in MicroPython (the
engine, coachtree.py, the JSON) and with the rendering. Medians and ranges of fresh pages,
moving with the machine's load (printed first). Skipped where node or Chromium is missing.
"""

import sys
from pathlib import Path

import benchkit
from bench_web import run_page
from benchkit import ROOT

SITE = ROOT / "build" / "bench-web-coach"
RUNNER = Path(__file__).with_name("bench_web_coach.mjs")

ROWS = (
    ("scores", None),
    (
        "  a game's first position, the empty board (coach.py loaded: the device's Coach is on;"
        " coach.js came with the explorer)",
        "scores_first",
    ),
    ("  after a move and the CPU's answer (7 cells free)", "scores_next"),
    ("explorer", None),
    (
        "  open, from the click: its code fetched (explorer.js with coach.js, explorer.bin),"
        " then the list below",
        "root_click",
    ),
    ("  the empty board's 9 moves (imports coachtree.py, alpha-beta's run)", "root_cold"),
    ("  the replies to X centre, expanded (8 moves)", "centre"),
)


def main():
    print("== bench_web_coach: the page's coach and tree explorer in Chromium (headless) ==")
    out = run_page("bench_web_coach", SITE, RUNNER, [])
    print("Chromium %s, %d fresh pages" % (out["chromium"], out["runs"]))
    benchkit.header("measure", "in MicroPython, median", "with rendering, median", "min", "max")
    ms = benchkit.ms
    for name, key in ROWS:
        if key is None:
            print("| **%s** | | | | |" % name)
            continue
        py, total = out.get(key + "_py"), out[key]
        py = ms(py["median"]) if py else "-"
        benchkit.row(name, py, ms(total["median"]), ms(total["min"]), ms(total["max"]))
    print(
        "scores: the oxoweb.Page.coach() call that answered (the marks and the cells the screen's"
        " coach.Coach holds: it searched the position for the frame of that step; the JSON) and"
        " the grid drawn; the explorer: coachtree.Tree's calls for the node and its list drawn"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
