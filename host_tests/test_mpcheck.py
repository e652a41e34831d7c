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


class mp_demo(mpcheck.Script):
    script = %r
    heapsize = "64k"
%s
"""


@pytest.fixture
def inner(pytester, tmp_path, monkeypatch):
    """Write an inner suite (conftest, the script with extra lines, a test module with extra
    class lines); return the path of its log."""
    mpcheck.require_port()
    monkeypatch.setenv("COLUMNS", "200")  # summary lines in full
    log = tmp_path / "log.txt"
    script = tmp_path / "mp_demo.py"

    def make(at_import="", in_three="", at_end="", in_class=""):
        script.write_text(SCRIPT % (str(log), at_import, in_three, at_end))
        pytester.makeconftest(INNER_CONFTEST)
        pytester.makepyfile(test_inner=TEST_MODULE % (str(script), in_class))
        return log

    return make


def inner_run(pytester, *args):
    # Without the hypothesis plugin: pytester re-imports what an inner session imports, and
    # hypothesis's report alone would cost a second per session.
    return pytester.runpytest("-p", "no:cacheprovider", "-p", "no:hypothesispytest", *args)


def lines(path):
    return path.read_text().split() if path.exists() else []


def test_a_failing_check_is_reported_as_that_check_with_its_own_output(inner, pytester):
    log = inner()
    result = inner_run(pytester, "-rf")
    result.assert_outcomes(passed=2, failed=1)
    assert lines(log) == ["import", "test_one", "test_three", "test_two"]  # one process
    result.stdout.fnmatch_lines(
        ["FAILED test_inner.py::mp_demo::test_two - AssertionError: two is wrong"]
    )
    failure = str(result.stdout).split("mp_demo::test_two ___", 1)[1].split("=== short", 1)[0]
    assert "two speaks" in failure and "FAIL test_two" in failure
    # MicroPython's traceback, through the check's own line.
    assert re.search(
        r'mp_demo.py", line \d+, in test_two\n.*\nAssertionError: two is wrong', failure
    )
    line = (SCRIPT % (str(log), "", "", "")).split("\n").index("def test_two():") + 1
    where = "mp_demo.py:%d: test_two under MicroPython -X heapsize=64k (3 checks" % line
    assert where in failure
    assert "one speaks" not in failure and "three speaks" not in failure


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
    log = tmp_path / "log.txt"
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


def test_a_word_the_mpcheck_line_does_not_know_fails_the_collection(pytester, tmp_path):
    script_file(pytester, tmp_path, "# mpcheck: heapsize=64k heap=1m\n")
    result = inner_run(pytester, "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*'heap=1m' in '# mpcheck: heapsize=64k heap=1m'*"])
    assert result.ret != 0


def test_a_script_without_an_mpcheck_line_is_not_collected(pytester, tmp_path):
    script_file(pytester, tmp_path, "# mpcheck is named, but no line declares a run\n")
    result = inner_run(pytester, "--collect-only", "-q")
    result.stdout.fnmatch_lines(["no tests collected*"])


def test_a_script_that_crashes_at_import_fails_every_check_with_the_crash(inner, pytester):
    inner(at_import="raise ValueError('broken at import')")
    result = inner_run(pytester)
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(
        ["*mp_demo::test_one - MicroPython exited with code 1 before any check ran"]
    )
    # Each check's own report carries the crash (counted before the summary, whose lines pytest
    # lengthens when CI is set).
    reports = str(result.stdout).split("short test summary info")[0]
    assert reports.count("ValueError: broken at import") == 3


def test_a_check_that_ends_the_process_fails_and_so_do_the_checks_after_it(inner, pytester):
    # Checks run in name order: test_one, test_three, test_two.
    log = inner(in_three="    sys.exit(7)")
    result = inner_run(pytester, "-rf")
    result.assert_outcomes(passed=1, failed=2)
    assert lines(log) == ["import", "test_one", "test_three"]
    result.stdout.fnmatch_lines(["FAILED *::test_three - MicroPython exited with code 7 in this*"])
    result.stdout.fnmatch_lines(
        ["FAILED *::test_two - MicroPython exited with code 7 in test_three*"]
    )
    assert "three speaks" in str(result.stdout)


def test_a_check_the_script_removes_at_import_fails_by_name(inner, pytester):
    inner(at_end="del test_one", in_class="    without = ('test_two',)")
    result = inner_run(pytester, "-rf")
    result.assert_outcomes(passed=1, failed=1)  # test_two is not collected at all
    result.stdout.fnmatch_lines(["FAILED *::test_one - AssertionError: this script has no check*"])


def test_a_hung_script_fails_the_check_it_hung_in(inner, pytester):
    inner(in_three="    while True:\n        pass", in_class="    timeout = 1")
    result = inner_run(pytester, "-rf", "-k", "three")
    result.assert_outcomes(failed=1, deselected=2)
    result.stdout.fnmatch_lines(
        ["FAILED *::test_three - MicroPython timed out after 1 s in this*"]
    )
    assert "three speaks" in str(result.stdout)  # what it printed before it hung


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
