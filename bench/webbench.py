# What both browser benchmarks (bench_web.py, bench_web_coach.py) do to run: the page built, the
# machine's load printed (their times move with it), their node script run on the page.
# SPDX-License-Identifier: MIT
import json
import os
import subprocess
import sys

import benchkit  # noqa: F401 - tools/ on the path
import web_build
import webtools


def run_page(name, site, script, args, timeout_s):
    """Build the page into `site` (its npm packages installed if stale) and run the node
    script on it (`--site` and args): the JSON on its last line of output. Where the page
    cannot be built (Node.js or Chromium missing is not a failure of the firmware) print
    "skipped: ..." and exit 0; where the script fails or takes over timeout_s, say why and exit
    1, so that figures.py keeps the old figures."""
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
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        sys.exit("%s: %s did not finish in %d s" % (name, script.name, timeout_s))
    if result.returncode:
        why = "failed (exit %d): %s" % (result.returncode, result.stderr.strip())
        sys.exit("%s: %s %s" % (name, script.name, why))
    return json.loads(result.stdout.strip().splitlines()[-1])
