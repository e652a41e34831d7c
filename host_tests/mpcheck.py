"""The one way the tests run a MicroPython script: each `test_*` function is a pytest item.

A script in host_tests/mp/ defines `test_*` functions (a check fails by raising; mptest.check
is an assert that optimisation keeps), ends with `mptest.run(globals())` and declares how it
runs in comment lines that pytest reads (with `ast`: the script is not run to collect it):

    # mpcheck: heapsize=256k paths={hostboard} args={tmp},1000

Each `def test_*` at its top level is an item mp_x.py::test_<name> (`-k` or the node id selects
one; a failure shows that check's output and MicroPython traceback only). The words are
`key=value`, lists split by commas, no spaces:

    heapsize  -X heapsize (default 16k)
    paths     MICROPYPATH entries before the `mp_path` fixture's: a folder of the repository
              or {fixture}
    args      sys.argv[1:]: words as they are, {tmp} (a fresh folder) or {fixture}
    without   checks not collected (those the script removes in this run)
    runner    a file run instead of the script, which then only names the checks

{name} is that fixture's value, {name}/a/b that joined with a/b. `# mpcheck <run>: ...` declares
another run (items mp_x.py::<run>::test_<name>, in a process and on an xdist worker of its own);
lines of one run add up. A script without a `# mpcheck` line is a helper, not collected.

A script whose output the host checks too (golden screens, a recording replayed into a CPython
model) is declared instead by a class named as the script in a test module, with those checks
as its methods:

    class mp_sound(mpcheck.Script):
        heapsize = "512k"
        paths = (mpcheck.fixture("hostboard"),)

        def test_sound_matches_its_golden_table(self, mp_output): ...

Its attributes are the keys above (TMPDIR for {tmp}, fixture(name, *parts) for {name}/parts),
`script` (default host_tests/mp/<class name>.py) and `timeout` (seconds, default 280); "_..."
classes are bases. `mp_output` is the stdout of a run of every check, `mp_output.check(name)`
what that check printed (failing if it did not pass). Anything the script can check itself, it
does. This module is only the launcher (checkitems.py makes the items and runs the process):
nothing else in host_tests starts `micropython` for a test script.
"""

import ast
import contextlib
import re
from pathlib import Path

import checkitems
import mpyrun
import pytest

pytest_plugins = ("checkitems",)

MP = Path(__file__).resolve().parent / "mp"
ENV = "MPTEST_ONLY"
fixture = checkitems.fixture  # a value for paths, args or runner: fixture(name, *parts)
TMPDIR = checkitems.TMPDIR  # in args or paths: a fresh folder for the run


def require_port():
    """Skip the test where the MicroPython unix port is missing, saying why; fail it under CI."""
    checkitems.require(
        mpyrun.micropython_path() is None and mpyrun.UNAVAILABLE, "the MicroPython checks"
    )


class Script(checkitems.Declaration):
    """Base of a class that declares one MicroPython script run (see the module docstring):
    the launcher of its checks."""

    script = None
    runner = None
    heapsize = "16k"
    paths = ()
    args = ()
    timeout = 280  # below pytest-timeout's 300 s, so a hung script is reported as this
    who = section = "MicroPython"

    @classmethod
    def file(cls):
        return cls.script or MP / (cls.__name__ + ".py")

    @classmethod
    def find_checks(cls, path):
        return checks_in(path)

    @classmethod
    @contextlib.contextmanager
    def launch(cls, request, path, names):
        require_port()

        def value(v):
            return checkitems.resolve(v, request, cls.__name__)

        script = value(cls.runner) if cls.runner is not None else path
        paths = [value(p) for p in cls.paths] + list(request.getfixturevalue("mp_path"))
        args = [script] + [value(a) for a in cls.args]
        cmd, env = mpyrun.command(args, paths, cls.heapsize)
        env[ENV] = " ".join(names)
        yield cmd, env, cls.timeout, "under MicroPython -X heapsize=" + cls.heapsize


def checks_in(path):
    """{name: line} of every test_* function defined at the top level of a script, without
    running it."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    return {
        node.name: node.lineno
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


DECLARES = re.compile(r"^# mpcheck(?: (\w+))?: *(.*)$", re.MULTILINE)
FIXTURE = re.compile(r"\{(\w+)\}(/\S+)?")
KEYS = ("heapsize", "paths", "args", "without", "runner")


def _value(word, root):
    """A word of paths=, args= or runner= as a Script attribute's value; a path is in the
    repository (`root`) when `root` is given."""
    if word == "{tmp}":
        return TMPDIR
    match = FIXTURE.fullmatch(word)
    if match:
        return fixture(match.group(1), *(match.group(2) or "").split("/")[1:])
    return root / word if root else word


def declarations(path, root):
    """{run name ("" for the script's own run): a Script subclass} from the `# mpcheck` lines
    of a script (see the module docstring), paths in the repository, `root`. Raises ValueError
    for a word that is not a known key=value, or a key given twice in one run."""
    found = {}
    for match in DECLARES.finditer(Path(path).read_text(encoding="utf-8")):
        attrs = found.setdefault(match.group(1) or "", {})
        for word in match.group(2).split():
            key, _, text = word.partition("=")
            if key not in KEYS or key in attrs or not text:
                raise ValueError(
                    "%s: %r in %r: each run takes each of %s once, as key=value"
                    % (path, word, match.group(0), ", ".join(KEYS))
                )
            if key == "heapsize":
                attrs[key] = text
            elif key == "runner":
                attrs[key] = _value(text, root)
            else:
                attrs[key] = tuple(_value(w, key == "paths" and root) for w in text.split(","))
    stem = Path(path).stem
    for attrs in found.values():
        attrs["script"] = Path(path)
    return {
        name: type(stem + ("_" + name if name else ""), (Script,), attrs)
        for name, attrs in found.items()
    }


class ScriptFile(checkitems.CheckOwner, pytest.File):
    """host_tests/mp/mp_x.py with `# mpcheck` lines: the checks of its own run, then a ScriptRun
    for each run it names."""

    def collect(self):
        try:
            self.runs = declarations(self.path, self.config.rootpath)
        except ValueError as exc:
            raise self.CollectError(str(exc)) from None
        self.declaration = self.runs.get("")
        own = self.check_items() if self.declaration is not None else []
        return own + [ScriptRun.from_parent(self, name=name) for name in self.runs if name]


class ScriptRun(checkitems.CheckOwner, pytest.Collector):
    """A run that a script names, `# mpcheck <name>: ...`: its checks."""

    def collect(self):
        self.declaration = self.parent.runs[self.name]
        return self.check_items()


def declares_runs(path):
    """Whether a file is a script that declares its runs: mp_*.py with a `# mpcheck` line."""
    if not (path.name.startswith("mp_") and path.suffix == ".py"):
        return False
    with open(path, encoding="utf-8") as f:
        return DECLARES.search(f.read()) is not None


def pytest_collect_file(file_path, parent):
    # A file named on the command line goes to pytest's python plugin, whatever its name: that
    # asks pytest_pycollect_makemodule below, which must not import the script under CPython.
    if not parent.session.isinitpath(file_path) and declares_runs(file_path):
        return ScriptFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if declares_runs(module_path):
        return ScriptFile.from_parent(parent, path=module_path)
    return None


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
    node = request.node.getparent(checkitems.CheckClass)
    if node is None or not issubclass(node.obj, Script):
        raise pytest.UsageError("mp_output is for test methods of an mpcheck.Script class")
    run = node.run(request)
    if not run.completed:
        pytest.fail("%s:\n%s\n%s" % (run.ended(), run.stdout, run.stderr), pytrace=False)
    return Output(run)
