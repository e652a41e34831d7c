# What both browser benchmarks (bench_web.py, bench_web_coach.py) do first: the page built, or
# why it cannot be, and the machine's load, which their times move with.
# SPDX-License-Identifier: MIT
import json
import os
import subprocess

import benchkit  # noqa: F401 - tools/ on the path
import web_build
import webtools


def site_ready(site):
    """Install the page's npm packages if stale and build the page into `site`. None when done,
    else why it could not be (the benchmark prints "skipped: ..." and exits 0: Node.js or
    Chromium missing is not a failure of the firmware)."""
    problem = webtools.unavailable()
    if problem:
        return problem
    try:
        webtools.ensure_node_modules()
        web_build.build(site)
    except (webtools.WebToolsError, RuntimeError) as err:
        return "could not install the page's npm packages or build it (%s)" % err
    return None


def load_line():
    return "machine: load %.2f (1 min) on %d cores; times move with it" % (
        os.getloadavg()[0],
        os.cpu_count(),
    )


def run_node(script, args, timeout_s):
    """Run a browser benchmark's node script with `args`: the JSON on its last line of output.
    RuntimeError if it fails or does not finish in timeout_s."""
    command = ["node", str(script), *args]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise RuntimeError("%s did not finish in %d s" % (script.name, timeout_s)) from None
    if result.returncode:
        raise RuntimeError(
            "%s failed (exit %d): %s" % (script.name, result.returncode, result.stderr.strip())
        )
    return json.loads(result.stdout.strip().splitlines()[-1])
