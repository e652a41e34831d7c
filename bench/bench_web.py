"""Figures of the web page (`make web`'s site) in a real browser: what a first visit downloads
before its first frame and after, navigation to the first frame (and the main thread's CPU time
in it), press to redraw, the main thread while idle, MicroPython's heap.

    .venv/bin/python bench/bench_web.py [--screenshot docs/web-page.png]

Run by `make bench`: bench_web.mjs drives headless Chromium over host_tests/web/browser.mjs's
server, with `Cache-Control: max-age=600` as GitHub Pages sends it. Medians and ranges of
several runs, moving with the machine's load (printed first; the CPU time to the first frame
moves least). Skipped where node or Chromium is missing. --screenshot also saves the page
mid-game (450 CSS px wide at scale 2, its <main>, 256 colours) for the README.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import benchkit
import web_build
import webtools
from benchkit import ROOT

SITE = ROOT / "build" / "bench-web"
RUNNER = Path(__file__).with_name("bench_web.mjs")
# A page script stops itself at 100 s (pagedriver.mjs TOTAL_MS); this is the backstop.
TIMEOUT_S = 150


def run_page(name, site, script, args):
    """Build the page into `site` (its npm packages installed if stale), print the machine's
    load (the times move with it) and run the node script on it (`--site` and args): the JSON
    on its last line of output; bench_web_coach.py runs its own so. Where the page cannot be
    built (Node.js or Chromium missing is not a failure of the firmware) print "skipped: ..."
    and exit 0; where the script fails or takes over TIMEOUT_S, say why and exit 1, so that
    figures.py keeps the old figures."""
    problem = webtools.unavailable()
    try:
        if not problem:
            webtools.ensure_node_modules()
            web_build.build(site)
    except (webtools.WebToolsError, RuntimeError) as err:
        problem = "could not install the page's npm packages or build it (%s)" % err
    if problem:
        print("skipped: " + problem)
        sys.exit(0)
    load = os.getloadavg()[0], os.cpu_count()
    print("machine: load %.2f (1 min) on %d cores; times move with it" % load)
    command = ["node", str(script), "--site", str(site), *args]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        sys.exit("%s: %s did not finish in %d s" % (name, script.name, TIMEOUT_S))
    if result.returncode:
        why = "failed (exit %d): %s" % (result.returncode, result.stderr.strip())
        sys.exit("%s: %s %s" % (name, script.name, why))
    return json.loads(result.stdout.strip().splitlines()[-1])


def gzipped(data):
    """Bytes after gzip -9 (what a static host that compresses would send; no file name)."""
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def kb(size):
    return "%.1f KB" % (size / 1024)


def page_heapsize():
    """The heapsize oxo.js asks MicroPython for, in bytes (None if it cannot be read)."""
    found = re.search(r"const HEAP = (\d+) \* 1024;", (web_build.WEB / "oxo.js").read_text())
    return int(found.group(1)) * 1024 if found else None


def save_screenshot(raw, out):
    """The browser's PNG, reduced to 256 colours (the page has few; a third of the bytes)."""
    from PIL import Image

    with Image.open(raw) as im:
        small = im.convert("RGB").quantize(256, Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out.parent.mkdir(parents=True, exist_ok=True)
    small.save(out, optimize=True)
    return small.size


def print_bytes(site, visit, reload):
    print("First visit: what the page downloads (gzip -9: what a static host that compresses")
    print("sends; the local server sends it raw), before its first frame and after")
    benchkit.header("file", "raw", "gzip -9")
    order = web_build.PAGE_FILES + web_build.PORT_FILES + tuple(n for n, _ in web_build.BUNDLES)
    files = [r["path"].lstrip("/") for r in visit if r["status"] == 200]
    files.sort(key=lambda name: (order.index(name) if name in order else len(order), name))
    # What Chromium fetches before the first frame: test_web.py's web_page holds it is this.
    before = set(web_build.first_frame_files(site))
    sizes = {}  # name: (raw, gzip -9) bytes, of every file of the site
    for path in site.iterdir():
        data = path.read_bytes()
        sizes[path.name] = len(data), gzipped(data)

    def total(label, names):
        benchkit.row(label, *(kb(sum(sizes[n][k] for n in names)) for k in (0, 1)))

    for part, names in (
        ("until the first frame", [n for n in files if n in before]),
        ("after it", [n for n in files if n not in before]),
    ):
        for name in names:
            benchkit.row(name, *map(kb, sizes[name]))
        total("**%s**, %d" % (part, len(names)), names)
    total("all %d" % len(files), files)
    later = [n for n in order if n in sizes and n not in files]
    said = ", ".join("%s %s (%s gzip -9)" % (n, *map(kb, sizes[n])) for n in later)
    print("fetched when first used, not in a first visit: %s" % said)
    favicons = sum(1 for r in visit if r["path"] == "/favicon.ico")
    icon = "none (the page names a data: icon, so Chromium asks for none)"
    print(
        "requests until the first frame and 0.5 s after the whole game is in (the server's"
        " log): %d, favicon %s" % (len(visit), "included (%d)" % favicons if favicons else icon)
    )
    asked = ", ".join(r["path"].lstrip("/") for r in reload) or "nothing"
    print("a reload asks for %d (%s); the rest comes from the HTTP cache" % (len(reload), asked))


def print_times(cold, warm, cpu, press):
    benchkit.header("measure", "median", "p90", "min", "max", "n")
    rows = [
        ("navigation to first frame, cold (fresh context, empty cache)", cold),
        ("  the main thread's CPU time in it (its tasks' thread time in a trace)", cpu),
        ("navigation to first frame, reload (warm HTTP cache)", warm),
        ("press to redraw: keydown to the next frame drawn", press["frame"]),
        ("  of which the wait for the step that polls the pin", press["wait"]),
        ("  of which that step and the frame (firmware, model, canvas)", press["after_step"]),
    ]
    ms = benchkit.ms
    for name, s in rows:
        p90 = ms(s["p90"]) if s["n"] >= 20 else "-"  # of 7 runs, the 90th percentile is the max
        benchkit.row(name, ms(s["median"]), p90, ms(s["min"]), ms(s["max"]), s["n"])
    print(
        "press: NEXT on the main menu (the highlight moves on its down edge) through oxo.js's"
        " key handler, 0.5-9.5 ms after a step (evenly: a hand presses anywhere between two"
        " polls); its level reaches the pin at once (median %.1f ms), the firmware sees it at"
        " its next 10 ms poll, and that step drew the frame in %d of %d presses (%d drew none)"
        % (press["level"]["median"], press["first_step"], press["n"], press["missed"])
    )


def print_idle(out):
    benchkit.header("idle", "main thread busy", "steps/s", "frames/s", "over")
    for name, key in (
        ('title ("press key" blinks)', "idle_title"),
        ("game, player to move", "idle_game"),
    ):
        s = out[key]
        busy, steps, frames = 100 * s["busy"], s["steps_per_s"], s["frames_per_s"]
        benchkit.row(
            name, "%.1f %%" % busy, "%.0f" % steps, "%.1f" % frames, "%.1f s" % s["seconds"]
        )
    steps = out["steps"]
    print(
        "busy: CDP Performance.getMetrics TaskDuration over wall time (the renderer's main"
        " thread); one step takes %.2f ms without a frame, %.1f ms with one (means over %d and"
        " %d on the title and the menu)"
        % (steps["idle_ms"], steps["frame_ms"], steps["idle_n"], steps["frame_n"])
    )


def print_heap(heap):
    live, asked, total = heap["live"], page_heapsize(), heap["total"]
    asked = "%d KB" % (asked // 1024) if asked else "?"
    total = "%.1f KB" % (total / 1024) if total else "?"
    kbs = live["min"] / 1024, live["max"] / 1024
    print(
        "heap in MicroPython while playing (gc.mem_alloc() after gc.collect(), %d samples"
        " 0.2 s apart): %.1f-%.1f KB; heapsize the page asks for %s, the heap now %s (the"
        " port adds to it when it is full)" % (live["n"], *kbs, asked, total)
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--screenshot", type=Path, help="also save the page's picture here")
    args = parser.parse_args(argv)

    print("== bench_web: the web page in Chromium (headless), served from 127.0.0.1 ==")
    with benchkit.workdir() as tmp:
        raw_png = tmp / "shot.png"
        shot = ["--screenshot", str(raw_png)] if args.screenshot else []
        out = run_page("bench_web", SITE, RUNNER, shot)
        if args.screenshot:
            width, height = save_screenshot(raw_png, args.screenshot)

    print("Chromium %s, viewport %dx%d" % (out["chromium"], *out["viewport"].values()))
    print_bytes(SITE, out["first_visit"], out["reload_requests"])
    print()
    print_times(out["cold"], out["reload"], out["cold_cpu"], out["press"])
    print()
    print_idle(out)
    print()
    print_heap(out["heap"])
    if args.screenshot:
        print(
            "screenshot: %s, %dx%d px, %.0f KB"
            % (args.screenshot, width, height, args.screenshot.stat().st_size / 1024)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
