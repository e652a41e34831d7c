"""Run one benchmark and keep what it printed as its section of docs/figures.md (`make bench`).

    .venv/bin/python bench/figures.py bench/bench_engine.py [its arguments]

The benchmark's output goes to the terminal as it comes and, if it exits 0, replaces that
benchmark's section of the figures file (the others stay), with when and on what it ran: the
figures the docs quote are these, never numbers typed in by hand. A failed run leaves the file
as it was and exits with the benchmark's status.
"""

import argparse
import ast
import datetime
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures.md"

HEADER = """\
# Figures from `make bench`

Written by `bench/figures.py`, one section per benchmark, each replaced when `make bench` (or
`.venv/bin/python bench/figures.py bench/<name>.py`) runs it again: do not edit by hand.
[benchmarks.md](benchmarks.md) says what each figure measures and how to read it.
"""

# A section is everything between its two markers, named by the benchmark's file.
SECTION = re.compile(r"<!-- (bench_\w+\.py) -->\n.*?<!-- /\1 -->\n", re.S)


def purpose(script):
    """The first paragraph of a benchmark's docstring, on one line."""
    doc = ast.get_docstring(ast.parse(script.read_text()))
    return " ".join(doc.split("\n\n")[0].split())


def machine():
    """What the figures ran on: they move with it (and with the load, for times)."""
    return "%s %s, %d cores, load %.2f (1 min), CPython %s" % (
        platform.system(),
        platform.machine(),
        os.cpu_count() or 0,
        os.getloadavg()[0],
        platform.python_version(),
    )


def section(script, args, output, when):
    name, command = script.name, " ".join(["bench/" + script.name, *args])
    output = output.rstrip("\n")
    return (
        f"<!-- {name} -->\n## {name}\n\n{purpose(script)}\n\n`{command}`, {when}, on {machine()}:"
        f"\n\n```text\n{output}\n```\n<!-- /{name} -->\n"
    )


def merge(text, name, new):
    """The figures file with `name`'s section replaced by `new` (sections kept in name order)."""
    sections = {m.group(1): m.group(0) for m in SECTION.finditer(text)}
    sections[name] = new
    return HEADER + "".join("\n" + sections[key] for key in sorted(sections))


def run(script, args):
    """Run the benchmark, echoing its standard output as it comes; (status, output)."""
    with subprocess.Popen(
        [sys.executable, str(script), *args], stdout=subprocess.PIPE, text=True, cwd=ROOT
    ) as proc:
        lines = []
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
    return proc.returncode, "".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("script", type=Path, help="a bench/bench_*.py file")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="passed to the benchmark")
    parser.add_argument("--figures", type=Path, default=FIGURES, help="the file to update")
    opts = parser.parse_args(argv)
    script = opts.script.resolve()
    status, output = run(script, opts.args)
    if status != 0:
        print(
            "figures: %s failed (status %d); %s left as it was"
            % (script.name, status, opts.figures),
            file=sys.stderr,
        )
        return status
    when = datetime.date.today().isoformat()
    old = opts.figures.read_text() if opts.figures.exists() else ""
    opts.figures.write_text(merge(old, script.name, section(script, opts.args, output, when)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
