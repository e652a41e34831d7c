"""pytest plugin: each `test_*` function of a MicroPython script is a pytest item of its own.

A script in host_tests/mp/ ends with `mptest.run(globals())`. A test module declares it with a
class whose name is the script's (lowercase is deliberate: the node id names the file):

    import mpcheck

    class mp_power(mpcheck.Script):
        heapsize = "256k"                      # -X heapsize (default 16k)
        paths = (mpcheck.fixture("hostboard"),)  # extra MICROPYPATH entries, first on the path
        args = (mpcheck.TMPDIR,)               # sys.argv[1:]; TMPDIR is a fresh folder

That is all: pytest collects host_tests/test_power.py::mp_power::test_<name> for every
`test_*` function defined at the top level of host_tests/mp/mp_power.py (read with `ast`, not
run), `-k test_<name>` or the node id selects one, and a failure shows that check's output and
MicroPython traceback only. Other class attributes: `script` (another file than
host_tests/mp/<class name>.py, e.g. for two configurations of one script), `runner` (a file run
instead of `script`, which then only names the checks), `timeout` (seconds for the whole run)
and `without` (checks the script removes in this configuration). Entries of paths, args and
runner may be `mpcheck.fixture(name, *parts)`: that fixture's value (joined with parts). Classes
whose name starts with "_" are bases, not collected.

One MicroPython process runs every selected check of a class, at the first of its items; the
others read their verdict from that run. The selection goes to the script in the environment
variable MPTEST_ONLY, which mptest.run honours. Host-side methods of the class (`def
test_x(self, mp_output)`) get the whole stdout of a run of every check, for assertions on what
the script prints (figures, golden screens). With pytest-xdist (`-n`) the items of one class go
to one worker; other tests are spread one by one, as with `--dist load`.
"""

import ast
import os
import subprocess
from pathlib import Path

import pytest

MP = Path(__file__).resolve().parent / "mp"
ENV = "MPTEST_ONLY"


class Script:
    """Base of a class that declares one MicroPython script run (see the module docstring)."""

    script = None
    runner = None
    heapsize = "16k"
    paths = ()
    args = ()
    timeout = 280  # below pytest-timeout's 300 s, so a hung script is reported as this
    without = ()


class _Fixture:
    def __init__(self, name, parts):
        self.name, self.parts = name, parts

    def resolve(self, request):
        value = request.getfixturevalue(self.name)
        return Path(value).joinpath(*self.parts) if self.parts else value


def fixture(name, *parts):
    """A value for paths, args or runner: the fixture `name`, joined with `parts` if any."""
    return _Fixture(name, parts)


TMPDIR = object()  # in args or paths: a fresh folder for the run


def checks_in(path):
    """{name: line} of every test_* name bound at the top level of a script (defs, also inside
    a top-level if/try; assignments; imports), without running it."""
    found = {}
    todo = list(ast.parse(Path(path).read_text(encoding="utf-8")).body)
    while todo:
        node = todo.pop(0)
        names = []
        if isinstance(node, ast.FunctionDef):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = [a.asname or a.name for a in node.names]
        elif isinstance(node, ast.If | ast.Try):
            todo[:0] = node.body + node.orelse + getattr(node, "finalbody", [])
        for name in names:
            if name.startswith("test_"):
                found.setdefault(name, node.lineno)
    return found


class Run:
    """One MicroPython process and what it said about each check.

    mptest prints `RUN name`, the check's own output, `PASS name` or `FAIL name` and the
    traceback, and at the end `SUMMARY passed failed`."""

    def __init__(self, stdout, stderr, returncode, timed_out=None):
        self.stdout, self.stderr, self.returncode = stdout, stderr, returncode
        self.timed_out = timed_out
        self.output = {}  # name -> lines from its RUN line to the next check or the SUMMARY
        self.verdict = {}  # name -> "PASS" | "FAIL"
        self.summary = None
        self.preamble = []  # lines before the first check: the import of the script
        current = None
        for line in stdout.splitlines():
            word, _, rest = line.partition(" ")
            if word == "RUN" and rest:
                current = rest
                self.output[current] = []
                continue
            if word == "SUMMARY":
                self.summary = rest
                current = None
                continue
            if word in ("PASS", "FAIL") and rest == current:
                self.verdict[current] = word
            (self.preamble if current is None else self.output[current]).append(line)
        self.completed = self.summary is not None and timed_out is None

    def ended(self):
        """Why the process ended early, or None if it ran to its SUMMARY."""
        if self.timed_out is not None:
            return "MicroPython timed out after %s s" % self.timed_out
        if self.summary is None:
            return "MicroPython exited with code %d" % self.returncode
        return None

    def report(self, name):
        """None if check `name` passed; else (the reason in one line, the output to show)."""
        ended = self.ended()
        last = list(self.output)[-1] if self.output else None
        stopped = ended is not None and name == last  # the process died in or just after it
        if name in self.output:
            verdict = self.verdict.get(name)
            if verdict == "PASS" and not stopped:
                return None
            lines = self.output[name]
            reason = next((line for line in reversed(lines) if line.strip()), "")
            if stopped:
                where = "after" if verdict else "in"
                reason = "%s %s this check" % (ended, where)
                lines = lines + ["-- " + reason] + self.stderr.splitlines()
            return reason, lines
        if last is None:
            reason = "%s before any check ran" % (ended or "the script ran no check")
            return reason, self.preamble + self.stderr.splitlines()
        if ended is None:
            return (
                "the script ran to its end without running this check: does it end with "
                "mptest.run(globals()), which runs the checks %s names?" % ENV,
                [],
            )
        return "%s in %s, before this check" % (ended, last), self.stderr.splitlines()


class MicroPythonFailure(Exception):
    """A check failed under MicroPython; the message is its output, shown as is."""


def _text(data):
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


class ScriptClass(pytest.Class):
    """A Script subclass: its MicroPython checks, then its host-side test methods."""

    def collect(self):
        cls = self.obj
        self.script_path = Path(cls.script or MP / (cls.__name__ + ".py"))
        if not self.script_path.exists():
            raise self.CollectError("%s: no script %s" % (cls.__name__, self.script_path))
        self.lines = checks_in(self.script_path)
        self.checks = [name for name in self.lines if name not in cls.without]
        if not self.checks:
            raise self.CollectError("no test_* function in %s" % self.script_path)
        self.run_result = None
        items = [
            MicroPythonCheck.from_parent(self, name=name, callobj=_Verdict(self, name).check)
            for name in self.checks
        ]
        return items + list(super().collect())

    def selected(self):
        """The checks to run: those selected in this session, or all if a host-side test of
        this class (which reads the whole output) is selected too."""
        mine = [item for item in self.session.items if item.parent is self]
        names = [item.name for item in mine if isinstance(item, MicroPythonCheck)]
        if len(names) < len(mine):
            return list(self.checks)
        return names

    def run(self, request):
        """Run the selected checks once (the first caller does it); return the Run."""
        if self.run_result is not None:
            return self.run_result
        cls = self.obj
        micropython = request.getfixturevalue("micropython")

        def value(v):
            if v is TMPDIR:
                return request.getfixturevalue("tmp_path_factory").mktemp(cls.__name__)
            return v.resolve(request) if isinstance(v, _Fixture) else v

        script = value(cls.runner) if cls.runner is not None else self.script_path
        args = [value(a) for a in cls.args]
        paths = [value(p) for p in cls.paths]
        names = self.selected()
        self.about = "under MicroPython (-X heapsize=%s, %d check%s in this run)" % (
            cls.heapsize,
            len(names),
            "" if len(names) == 1 else "s",
        )
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(ENV, " ".join(names))  # the micropython process inherits it
            try:
                result = micropython.run(
                    script, *args, heapsize=cls.heapsize, paths=paths, timeout=cls.timeout
                )
                run = Run(result.stdout, result.stderr, result.returncode)
            except subprocess.TimeoutExpired as exc:
                stdout, stderr = _text(exc.stdout), _text(exc.stderr)
                run = Run(stdout, stderr, -1, timed_out=exc.timeout)
        self.run_result = run
        return run


class _Verdict:
    """The call of one check item: a bound method, so pytest passes it fixtures, not self."""

    def __init__(self, script, name):
        self.script, self.name = script, name

    def check(self, request):
        script = self.script
        run = script.run(request)
        head = "-- %s:%d: %s %s:" % (
            os.path.relpath(script.script_path, script.config.rootpath),
            script.lines[self.name],
            self.name,
            script.about,
        )
        failure = run.report(self.name)
        if failure is not None:
            reason, lines = failure
            raise MicroPythonFailure("\n".join([reason, head] + lines))
        # What it printed, shown for passed checks with -rP.
        request.node.add_report_section(
            "call", "MicroPython", "\n".join([head] + run.output[self.name])
        )


class MicroPythonCheck(pytest.Function):
    """One `test_*` function of a MicroPython script, its verdict read from the script's run."""

    def reportinfo(self):
        return (
            self.parent.script_path,
            self.parent.lines[self.name] - 1,
            self.nodeid.split("::", 1)[1],
        )

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, MicroPythonFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if isinstance(obj, type) and issubclass(obj, Script) and obj is not Script:
        if name.startswith("_"):
            return []
        return ScriptClass.from_parent(collector, name=name, obj=obj)
    return None


@pytest.fixture
def mp_output(request):
    """For a host-side test method of a Script class: the stdout of a run of every check."""
    node = request.node.getparent(ScriptClass)
    if node is None:
        raise pytest.UsageError("mp_output is for test methods of an mpcheck.Script class")
    run = node.run(request)
    if not run.completed:
        pytest.fail("%s:\n%s\n%s" % (run.ended(), run.stdout, run.stderr), pytrace=False)
    return run.stdout


def _scope(nodeid):
    """xdist work unit: a class (a script's checks and host tests) together, else one test."""
    parts = nodeid.split("[", 1)[0].split("::")
    return "::".join(parts[:2]) if len(parts) > 2 else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False  # collection order, as --dist load sends tests

    class ScriptScheduling(LoadScopeScheduling):
        """--dist load, except that the items of a class share a worker (and so one
        MicroPython run)."""

        def _split_scope(self, nodeid):
            return _scope(nodeid)

    return ScriptScheduling(config, log)
