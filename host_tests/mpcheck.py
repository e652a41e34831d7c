"""The one way the tests run a MicroPython script: each `test_*` function is a pytest item.

A script in host_tests/mp/ defines `test_*` functions (a check fails by raising; mptest.check
is an assert that optimisation keeps) and ends with `mptest.run(globals())`. A test module
declares it with a class whose name is the script's (lowercase is deliberate: the node id names
the file):

    import mpcheck

    class mp_power(mpcheck.Script):
        heapsize = "256k"                      # -X heapsize (default 16k)
        paths = (mpcheck.fixture("hostboard"),)  # extra MICROPYPATH entries, first on the path
        args = (mpcheck.TMPDIR,)               # sys.argv[1:]; TMPDIR is a fresh folder

That is all: pytest collects host_tests/test_power.py::mp_power::test_<name> for every
`test_*` function defined at the top level of host_tests/mp/mp_power.py (read with `ast`, not
run), `-k test_<name>` or the node id selects one, and a failure shows that check's output and
MicroPython traceback only. Other class attributes: `script` (another file than
host_tests/mp/<class name>.py, e.g. for two configurations of one script: then the class may
have another name), `runner` (a file run instead of `script`, which then only names the
checks), `timeout` (seconds for the whole run) and `without` (checks not collected, e.g. those
the script removes in this configuration). Entries of paths, args and runner may be
`mpcheck.fixture(name, *parts)`: that fixture's value (joined with parts); the path ends with
the `mp_path` fixture's (conftest.py: the firmware as deployed, host_tests/mp, the test bed).
Classes whose name starts with "_" are bases, not collected.

Host-side assertions on what a script prints (figures, golden screens, a recording replayed
into a CPython model) are test methods of the class that take the `mp_output` fixture: the whole
stdout of a run of every check (a str), and `mp_output.check(name)`, what that check printed
(failing the method if that check did not pass). Anything the script can check itself, it does.

One MicroPython process runs every selected check of a class, at the first of its items; the
others read their verdict from that run. The selection goes to the script in the environment
variable MPTEST_ONLY, which mptest.run honours; the script answers in the protocol of
checkitems.py (RUN / PASS / FAIL / SUMMARY lines), which parses it. With pytest-xdist (`-n`) the
items of one class go to one worker; other tests are spread one by one, as with `--dist load`
(so two long runs of one script are two classes, as test_app.py's fuzz seeds). Where the port
is missing the checks skip, saying why; under CI they fail.

Nothing else in host_tests starts `micropython` for a test script: the virtual board
(testbed/virtualboard.py) and the simulator (tools/simulator.py) run the firmware itself, as
the products they are.
"""

import ast
import os
import subprocess
from pathlib import Path

import checkitems
import mpyrun
import pytest

pytest_plugins = ("checkitems",)

MP = Path(__file__).resolve().parent / "mp"
ENV = "MPTEST_ONLY"
fixture = checkitems.fixture  # a value for paths, args or runner: fixture(name, *parts)
TMPDIR = checkitems.TMPDIR  # in args or paths: a fresh folder for the run


class Script:
    """Base of a class that declares one MicroPython script run (see the module docstring)."""

    script = None
    runner = None
    heapsize = "16k"
    paths = ()
    args = ()
    timeout = 280  # below pytest-timeout's 300 s, so a hung script is reported as this
    without = ()


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


def require_port():
    """Skip the test where the MicroPython unix port is missing, saying why; fail it under CI."""
    if mpyrun.micropython_path() is None:
        if os.environ.get("CI"):
            pytest.fail(mpyrun.UNAVAILABLE + " - CI must run the MicroPython checks")
        pytest.skip(mpyrun.UNAVAILABLE)


class Run(checkitems.Run):
    """One MicroPython process and what it said about each check (mptest's lines)."""

    who = "MicroPython"
    missing = (
        "the script ran to its end without running this check: does it end with "
        "mptest.run(globals()), which runs the checks %s names?" % ENV
    )


class ScriptClass(checkitems.CheckClass):
    """A Script subclass: its MicroPython checks, then its host-side test methods."""

    section = "MicroPython"
    declares = Script

    def source(self):
        return self.obj.script or MP / (self.obj.__name__ + ".py")

    def find_checks(self, path):
        return checks_in(path)

    def launch(self, request, names):
        cls = self.obj
        require_port()

        def value(v):
            return checkitems.resolve(v, request, cls.__name__)

        script = value(cls.runner) if cls.runner is not None else self.script_path
        args = [value(a) for a in cls.args]
        paths = [value(p) for p in cls.paths] + list(request.getfixturevalue("mp_path"))
        self.about = "under MicroPython (-X heapsize=%s, %d check%s in this run)" % (
            cls.heapsize,
            len(names),
            "" if len(names) == 1 else "s",
        )
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(ENV, " ".join(names))  # the micropython process inherits it
            try:
                result = mpyrun.run(
                    script, args, paths=paths, heapsize=cls.heapsize, timeout=cls.timeout
                )
                return Run(result.stdout, result.stderr, result.returncode)
            except subprocess.TimeoutExpired as exc:
                stdout, stderr = checkitems.text(exc.stdout), checkitems.text(exc.stderr)
                return Run(stdout, stderr, -1, timed_out=exc.timeout)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    return ScriptClass.declared(collector, name, obj)


class Output(str):
    """The whole stdout of a run of every check (a str), and what each check printed."""

    def __new__(cls, run):
        output = super().__new__(cls, run.stdout)
        output.run = run
        return output

    def check(self, name):
        """What check `name` printed (between its RUN and PASS lines); fails the host-side test
        if that check did not pass, since its output would be cut short."""
        if self.run.verdict.get(name) != "PASS":
            pytest.fail("the check %s did not pass: see its own item" % name, pytrace=False)
        lines = self.run.output[name]
        return "\n".join(lines[: lines.index("PASS " + name)])


@pytest.fixture
def mp_output(request):
    """For a host-side test method of a Script class: the Output of a run of every check."""
    node = request.node.getparent(ScriptClass)
    if node is None:
        raise pytest.UsageError("mp_output is for test methods of an mpcheck.Script class")
    run = node.run(request)
    if not run.completed:
        pytest.fail("%s:\n%s\n%s" % (run.ended(), run.stdout, run.stderr), pytrace=False)
    return Output(run)
