"""pytest items for checks that another process runs, and the protocol it speaks: the one
bridge of mpcheck (MicroPython scripts) and webcheck (browser checks), which give only their
launchers.

A file of checks is declared by a subclass of a plugin's Declaration (mpcheck.Script,
webcheck.Checks), or collected by a plugin itself (mpcheck: a script's own `# mpcheck:` runs).
Its collector (a CheckOwner) finds the `test_*` names in the file without running it, makes
each one an item, and at the first of them runs one process for every selected check; each item
reads its verdict and lines from that run. Under pytest-xdist (`-n`) the items of one class, or
of one run of a script, share a worker (so one process); other tests are spread one by one, as
with `--dist load`. Where the process cannot start, its checks skip saying why; under CI they
fail.

The protocol, spoken by host_tests/mp/mptest.py and host_tests/web/runner.mjs and parsed here
only (Run): told which checks to run, the process prints for each in turn

    RUN <name>
    ... what the check printed ...
    PASS <name>                      or    FAIL <name>
                                           ... why (a traceback, the problems seen) ...
                                           <the reason, in one line: the last non-blank line>

and at the end `SUMMARY <passed> <failed>`, exiting non-zero if any failed. A check asked for
that the file lacks fails by name. Lines before the first RUN are the preamble, shown if the
process dies before any check; a process that dies or times out fails the check it was in and
every check after it, each saying so.
"""

import os
import subprocess
from pathlib import Path

import pytest


class Declaration:
    """Base of a plugin's class of declarations: one file of checks and the process that runs
    them. The plugin's base (a direct subclass) is the launcher: it gives `file()`,
    `find_checks(path)` and `launch(...)`, `who` and `section`; its own subclasses are the
    declarations, collected from test modules (but those named "_...", which are bases)."""

    without = ()  # checks of the file not collected
    who = "the process"  # names the process in a reason: "MicroPython timed out after 5 s"
    section = "checks"  # the title of a passed check's output in the report (-rP)

    @classmethod
    def file(cls):
        """The file of checks."""
        raise NotImplementedError

    @classmethod
    def find_checks(cls, path):
        """{name: line} of every check in the file, without running it."""
        raise NotImplementedError

    @classmethod
    def launch(cls, request, path, names):
        """A context manager: (command, environment, seconds before the process is stopped,
        what the run is: "in Chromium") for a run of checks `names` of file `path`. Skips (by
        require) where the process cannot start; cleans up when the process has ended."""
        raise NotImplementedError


def require(problem, what):
    """Skip the test if there is a `problem` (why the process cannot start, how to get it);
    under CI fail it instead, since CI must run `what`."""
    if problem:
        if os.environ.get("CI"):
            pytest.fail("%s - CI must run %s" % (problem, what), pytrace=False)
        pytest.skip(problem)


class _Fixture:
    def __init__(self, name, parts):
        self.name, self.parts = name, parts

    def resolve(self, request):
        value = request.getfixturevalue(self.name)
        return Path(value).joinpath(*self.parts) if self.parts else value


def fixture(name, *parts):
    """A value for a class attribute: the fixture `name`, joined with `parts` if any."""
    return _Fixture(name, parts)


TMPDIR = object()  # as a value: a fresh folder for the run


def resolve(value, request, label):
    """A class attribute's value for this run: fixture() and TMPDIR resolved."""
    if value is TMPDIR:
        return request.getfixturevalue("tmp_path_factory").mktemp(label)
    return value.resolve(request) if isinstance(value, _Fixture) else value


def run_process(cmd, env, timeout, who):
    """Run `cmd` to its end, or stop it after `timeout` seconds; return its Run."""
    proc = subprocess.Popen(
        [str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run(*stop(proc), -1, who, timed_out=timeout)
    except BaseException:  # pytest-timeout, Ctrl-C: Chromium must not outlive the session
        stop(proc)
        raise
    return Run(stdout, stderr, proc.returncode, who)


def stop(proc):
    """Stop a process of checks: SIGTERM, then SIGKILL if still there after 10 s; its output."""
    proc.terminate()  # Playwright closes Chromium (and removes its profile) on SIGTERM
    try:
        return proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


class Run:
    """One process and what it said about each check (see the module docstring); `who` names
    the process in the reasons."""

    def __init__(self, stdout, stderr, returncode, who, timed_out=None):
        self.stdout, self.stderr, self.returncode = stdout, stderr, returncode
        self.who, self.timed_out = who, timed_out
        self.output = {}  # name -> lines from its RUN line to the next check or the SUMMARY
        self.verdict = {}  # name -> "PASS" | "FAIL"
        self.summary = None
        self.preamble = []  # lines before the first check (a script's import, a launch)
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
            return "%s timed out after %s s" % (self.who, self.timed_out)
        if self.summary is None:
            return "%s exited with code %d" % (self.who, self.returncode)
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
            reason = "%s before any check ran" % (ended or "%s ran no check" % self.who)
            return reason, self.preamble + self.stderr.splitlines()
        if ended is None:
            return "%s ended without running this check" % self.who, []
        return "%s in %s, before this check" % (ended, last), self.stderr.splitlines()


class CheckFailure(Exception):
    """A check failed in the other process; the message is its output, shown as is."""


class CheckOwner:
    """The checks of one declaration (`self.declaration`, set before collect() calls
    check_items()), one item each, and the one process that runs them: the base of a declared
    class (CheckClass) and of a file that a plugin collects as checks (mpcheck's scripts)."""

    def check_items(self):
        """One CheckItem per check in the file, in its order, less `without`."""
        decl = self.declaration
        self.script_path = Path(decl.file())
        if not self.script_path.exists():
            raise self.CollectError("%s: no file %s" % (self.name, self.script_path))
        self.lines = decl.find_checks(self.script_path)
        self.checks = [name for name in self.lines if name not in decl.without]
        if not self.checks:
            raise self.CollectError("no test_* function in %s" % self.script_path)
        self.run_result = None
        self.about = ""  # what the run was, at the head of each check's output
        return [
            CheckItem.from_parent(self, name=name, callobj=_Verdict(self, name).check)
            for name in self.checks
        ]

    def selected(self):
        """The checks to run: those selected in this session, or all if a host-side test of
        this node (which reads the whole output) is selected too."""
        mine = [item for item in self.session.items if item.parent is self]
        names = [item.name for item in mine if isinstance(item, CheckItem)]
        if len(names) < len(mine):
            return list(self.checks)
        return names

    def run(self, request):
        """Run the selected checks once (the first caller does it); return the Run."""
        if self.run_result is None:
            decl, names = self.declaration, self.selected()
            with decl.launch(request, self.script_path, names) as (cmd, env, timeout, about):
                n = "%d check%s" % (len(names), "" if len(names) == 1 else "s")
                self.about = "%s (%s in this run)" % (about, n)
                self.run_result = run_process(cmd, env, timeout, decl.who)
        return self.run_result


class CheckClass(CheckOwner, pytest.Class):
    """A declared class: its checks, one item each, then its host-side test methods."""

    @property
    def declaration(self):
        return self.obj

    def collect(self):
        return self.check_items() + list(super().collect())


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if not (isinstance(obj, type) and issubclass(obj, Declaration)):
        return None
    if name.startswith("_") or Declaration in obj.__bases__ or obj is Declaration:
        return []  # a base, or a plugin's own (mpcheck.Script imported into a test module)
    return CheckClass.from_parent(collector, name=name, obj=obj)


class _Verdict:
    """The call of one check item: a bound method, so pytest passes it fixtures, not self."""

    def __init__(self, owner, name):
        self.owner, self.name = owner, name

    def check(self, request):
        owner = self.owner
        run = owner.run(request)
        head = "-- %s:%d: %s %s:" % (
            os.path.relpath(owner.script_path, owner.config.rootpath),
            owner.lines[self.name],
            self.name,
            owner.about,
        )
        failure = run.report(self.name)
        if failure is not None:
            reason, lines = failure
            raise CheckFailure("\n".join([reason, head] + lines))
        # What it printed, shown for passed checks with -rP.
        request.node.add_report_section(
            "call", owner.declaration.section, "\n".join([head] + run.output[self.name])
        )


class CheckItem(pytest.Function):
    """One `test_*` of a file of checks, its verdict read from the run of its class."""

    def reportinfo(self):
        return (
            self.parent.script_path,
            self.parent.lines[self.name] - 1,
            self.nodeid.split("::", 1)[1],
        )

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


def _scope(nodeid):
    """xdist work unit: a class (its checks and host tests) together; the checks of a file that
    is not a test module (an mpcheck script: host_tests/mp/mp_x.py::test_y, or one of its named
    runs, mp_x.py::run::test_y) together; else one test."""
    parts = nodeid.split("[", 1)[0].split("::")
    if not parts[0].rpartition("/")[2].startswith("test_"):
        return "::".join(parts[:-1])
    return "::".join(parts[:2]) if len(parts) > 2 else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False  # collection order, as --dist load sends tests

    class ClassScheduling(LoadScopeScheduling):
        """--dist load, except that the items of a class or a script share a worker (and so
        one run)."""

        def _split_scope(self, nodeid):
            return _scope(nodeid)

    return ClassScheduling(config, log)
