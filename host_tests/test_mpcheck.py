"""The mpcheck plugin itself: a MicroPython check is a pytest item of its own, with its own
output, selected by -k, one MicroPython process per script, crashes reported on the checks.

Each test runs an inner pytest session (pytester) on a small script under the real port."""

import os
import re
import sys
from pathlib import Path

import checkitems
import mpcheck
import mpyrun
import pytest

pytest_plugins = ("pytester",)

HOST_TESTS = Path(__file__).resolve().parent

# The inner sessions' path: host_tests/mp (mptest), nothing compiled.
INNER_CONFTEST = """
import pytest

pytest_plugins = ("mpcheck",)


@pytest.fixture(scope="session")
def mp_path():
    return (%r,)
""" % str(HOST_TESTS / "mp")

# Every import and every check appends a line to LOG, so a test can see what ran, and in how
# many processes.
SCRIPT = """
import sys

import mptest

LOG = %r


def note(word):
    with open(LOG, "a") as f:
        f.write(word + "\\n")


note("import")
%s


def test_one():
    note("test_one")
    print("one speaks")


def test_two():
    note("test_two")
    print("two speaks")
    mptest.check(1 == 2, "two is wrong")


def test_three():
    note("test_three")
    print("three speaks")
%s

%s
mptest.run(globals())
"""

TEST_MODULE = """
import mpcheck
"""
CLASS = """

class %s(mpcheck.Script):
    script = %r
    heapsize = "64k"
%s
"""


@pytest.fixture
def inner(pytester, tmp_path, monkeypatch):
    """make(name="mp_demo", ...): a script `name` with extra lines (at its import, in
    test_three, at its end), declared by a class of that name with extra lines in the inner
    suite's test module; the path of the script's log."""
    mpcheck.require_port()
    monkeypatch.setenv("COLUMNS", "200")  # summary lines in full
    pytester.makeconftest(INNER_CONFTEST)
    module = [TEST_MODULE]

    def make(name="mp_demo", at_import="", in_three="", at_end="", in_class=""):
        log, script = tmp_path / (name + ".log"), tmp_path / (name + ".py")
        script.write_text(SCRIPT % (str(log), at_import, in_three, at_end))
        module.append(CLASS % (name, str(script), in_class))
        pytester.makepyfile(test_inner="".join(module))
        return log

    return make


def inner_run(pytester, *args):
    # Without the hypothesis plugin: pytester re-imports what an inner session imports, and
    # hypothesis's report alone would cost a second per session.
    return pytester.runpytest("-p", "no:cacheprovider", "-p", "no:hypothesispytest", *args)


def lines(path):
    return path.read_text().split() if path.exists() else []


def test_each_way_a_check_fails_is_reported_on_that_check(inner, pytester):
    # Five scripts, one session: a check that raises; a crash at import; a check that ends the
    # process; a check the script removes at import; a check that hangs.
    log = inner()
    inner("mp_crash", at_import="raise ValueError('broken at import')")
    exit_log = inner("mp_exit", in_three="    sys.exit(7)")
    inner("mp_removed", at_end="del test_one", in_class="    without = ('test_two',)")
    inner("mp_hung", in_three="    while True:\n        pass", in_class="    timeout = 1")
    result = inner_run(pytester, "-rf")
    result.assert_outcomes(passed=2 + 0 + 1 + 1 + 1, failed=1 + 3 + 2 + 1 + 2)
    # Each fails on its own check, saying why in its summary line (these in their order).
    result.stdout.fnmatch_lines(
        [
            "FAILED test_inner.py::mp_demo::test_two - AssertionError: two is wrong",
            "*mp_crash::test_one - MicroPython exited with code 1 before any check ran",
            "FAILED *mp_exit::test_two - MicroPython exited with code 7 in test_three*",
            "FAILED *mp_exit::test_three - MicroPython exited with code 7 in this*",
            "FAILED *mp_removed::test_one - AssertionError: this script has no check*",
            "FAILED *mp_hung::test_three - MicroPython timed out after 1 s in this*",
        ]
    )
    reports = str(result.stdout).split("short test summary info")[0]
    section = {}  # each failed item's report, by name
    for name in ("mp_demo::test_two", "mp_exit::test_three", "mp_hung::test_three"):
        section[name] = reports.split(name + " ___", 1)[1].split("\n__", 1)[0]
    # A failing check shows its own output and MicroPython's traceback through its own line,
    # and nothing of the others; the checks ran in one process, in name order.
    assert lines(log) == ["import", "test_one", "test_three", "test_two"]
    failure = section["mp_demo::test_two"]
    assert "two speaks" in failure and "FAIL test_two" in failure
    assert re.search(
        r'mp_demo.py", line \d+, in test_two\n.*\nAssertionError: two is wrong', failure
    )
    line = (SCRIPT % (str(log), "", "", "")).split("\n").index("def test_two():") + 1
    assert "mp_demo.py:%d: test_two under MicroPython -X heapsize=64k (3 checks" % line in failure
    assert "one speaks" not in failure and "three speaks" not in failure
    # A crash at import: each check's report carries it (counted before the summary, whose lines
    # pytest lengthens when CI is set). A check that ends the process: no check runs after it.
    assert reports.count("ValueError: broken at import") == 3
    assert lines(exit_log) == ["import", "test_one", "test_three"]
    # What a check printed before it ended the process or hung.
    assert "three speaks" in section["mp_exit::test_three"]
    assert "three speaks" in section["mp_hung::test_three"]


def test_every_check_is_collected_and_k_or_a_node_id_runs_only_those_selected(inner, pytester):
    log = inner()
    result = inner_run(pytester, "--collect-only", "-q")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        ["test_inner.py::mp_demo::test_one", "*::test_two", "*::test_three", "3 tests collected*"]
    )
    assert lines(log) == []  # collecting reads the script; it does not run it
    result = inner_run(pytester, "-k", "test_three", "-v")
    result.assert_outcomes(passed=1, deselected=2)
    result.stdout.fnmatch_lines(["test_inner.py::mp_demo::test_three PASSED*"])
    assert lines(log) == ["import", "test_three"]
    log.unlink()
    result = inner_run(pytester, "test_inner.py::mp_demo::test_one")
    result.assert_outcomes(passed=1)
    assert lines(log) == ["import", "test_one"]


# The script's own lines declare its runs: pytest collects the file itself.
RUNS = """# mpcheck: heapsize=64k args={tmp},word
# mpcheck again: heapsize=64k args=other without=test_two
"""
ARGV = "note('args=' + '|'.join(sys.argv[1:]))"


def script_file(pytester, tmp_path, header=RUNS):
    """mp_demo.py in the inner suite's folder, declared by `header`; the path of its log."""
    mpcheck.require_port()
    log = tmp_path / "mp_demo.log"  # the log of inner()'s mp_demo too
    pytester.makeconftest(INNER_CONFTEST)
    pytester.path.joinpath("mp_demo.py").write_text(header + SCRIPT % (str(log), ARGV, "", ""))
    return log


def test_a_script_with_mpcheck_lines_is_collected_with_each_run_it_declares(pytester, tmp_path):
    log = script_file(pytester, tmp_path)
    result = inner_run(pytester, "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "mp_demo.py::test_one",
            "mp_demo.py::test_two",
            "mp_demo.py::test_three",
            "mp_demo.py::again::test_one",
            "mp_demo.py::again::test_three",
            "5 tests collected*",
        ]
    )
    assert lines(log) == []
    # Named on the command line, it is still read, not imported by CPython.
    result = inner_run(pytester, "--collect-only", "-q", "mp_demo.py", "mp_demo.py::again")
    result.stdout.fnmatch_lines(["mp_demo.py::test_one", "5 tests collected*"])
    assert lines(log) == []
    result = inner_run(pytester, "-rf")
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(["FAILED mp_demo.py::test_two - AssertionError: two is wrong"])
    said = lines(log)
    assert said.count("import") == 2  # a process for each run
    assert re.fullmatch(r"args=/\S+/mp_demo\d*\|word", said[1]) and "args=other" in said
    assert "under MicroPython -X heapsize=64k (3 checks" in str(result.stdout)


@pytest.mark.parametrize(
    "header, said",
    [
        ("# mpcheck: heapsize=64k heap=1m\n", "*'heap=1m' in '# mpcheck: heapsize=64k heap=1m'*"),
        ("# mpcheck is named, but no line declares a run\n", "no tests collected*"),
    ],
)
def test_a_word_the_line_does_not_know_fails_collection_and_no_line_collects_nothing(
    pytester, tmp_path, header, said
):
    script_file(pytester, tmp_path, header)
    result = inner_run(pytester, "--collect-only", "-q")
    result.stdout.fnmatch_lines([said])
    assert result.ret != 0  # 5: no tests collected


HOST_METHODS = """
    def test_what_it_printed(self, mp_output):
        assert "one speaks" in mp_output and "three speaks" in mp_output

    def test_what_one_printed(self, mp_output):
        assert mp_output.check("test_three") == "three speaks"

    def test_what_a_failed_check_printed(self, mp_output):
        mp_output.check("test_two")
"""


def test_host_side_methods_see_every_check_run_and_what_one_printed_if_it_passed(inner, pytester):
    # Selected without any check, the methods still get a run of every check.
    log = inner(in_class=HOST_METHODS)
    result = inner_run(pytester, "-rf", "-k", "printed")
    result.assert_outcomes(passed=2, failed=1, deselected=3)
    assert lines(log) == ["import", "test_one", "test_three", "test_two"]
    result.stdout.fnmatch_lines(
        ["FAILED *::test_what_a_failed_check_printed - Failed: the check test_two did not pass*"]
    )


def test_under_xdist_one_process_runs_each_script(inner, pytester, monkeypatch, tmp_path):
    log = inner()
    script_file(pytester, tmp_path)  # the same log: its two runs, 5 checks (1 fails)
    other = pytester.path / "test_other.py"
    other.write_text(
        "import mpcheck\n\n\nclass mp_again(mpcheck.Script):\n    script = %r\n"
        % str(log.parent / "mp_demo.py")
        + "".join("\n\ndef test_host_%d():\n    pass\n" % i for i in range(8))
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-n", "2"
    )
    result.assert_outcomes(passed=4 + 4 + 8, failed=3)
    assert lines(log).count("import") == 4  # mp_demo, mp_again and each run of the file, once


@pytest.mark.parametrize("ci", ["true", ""])
def test_without_micropython_checks_skip_and_fail_under_ci(
    inner, pytester, monkeypatch, ci, tmp_path
):
    log = inner()
    script_file(pytester, tmp_path)  # a class's 3 checks, a file's 5
    monkeypatch.setattr(mpyrun, "micropython_path", lambda: None)
    monkeypatch.setenv("CI", ci)
    result = inner_run(pytester, "-rfs")
    if ci:
        result.assert_outcomes(failed=3 + 5)
        result.stdout.fnmatch_lines(["*CI must run the MicroPython checks*"])
    else:
        result.assert_outcomes(skipped=3 + 5)
        result.stdout.fnmatch_lines(["SKIPPED * the MicroPython unix port is not installed*"])
    assert lines(log) == []


@pytest.mark.parametrize(
    "nodeid, unit",
    [
        ("host_tests/test_app.py::mp_app_play::test_x", "host_tests/test_app.py::mp_app_play"),
        (
            "host_tests/test_main.py::mp_main::test_golden[a::b]",
            "host_tests/test_main.py::mp_main",
        ),
        ("host_tests/test_app.py::test_fuzz[5110]", "host_tests/test_app.py::test_fuzz[5110]"),
        # A script collected as a file: its own run, and each run it names.
        ("host_tests/mp/mp_app.py::test_x", "host_tests/mp/mp_app.py"),
        ("host_tests/mp/mp_fuzz.py::seed5110::test_x", "host_tests/mp/mp_fuzz.py::seed5110"),
    ],
)
def test_xdist_work_units_are_classes_and_single_tests(nodeid, unit):
    assert checkitems._scope(nodeid) == unit
