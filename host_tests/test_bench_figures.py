"""bench/figures.py: a benchmark's output becomes its section of the figures file."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import figures  # noqa: E402


def bench(tmp_path, name, body):
    script = tmp_path / name
    script.write_text('"""What %s measures."""\n%s\n' % (name, body))
    return script


def test_a_run_replaces_its_own_section_and_keeps_the_others_in_name_order(tmp_path, capsys):
    out = tmp_path / "figures.md"
    b = bench(tmp_path, "bench_b.py", "print('b 1')")
    a = bench(tmp_path, "bench_a.py", "print('a 1')")
    assert figures.main(["--figures", str(out), str(b)]) == 0
    assert figures.main(["--figures", str(out), str(a)]) == 0
    b.write_text('"""What bench_b.py measures."""\nprint("b 2")\n')
    assert figures.main(["--figures", str(out), str(b), "--fast"]) == 0
    text = out.read_text()
    assert text.startswith(figures.HEADER)
    assert text.index("## bench_a.py") < text.index("## bench_b.py")
    assert "a 1" in text and "b 2" in text and "b 1" not in text
    assert "`bench/bench_b.py --fast`" in text and "What bench_b.py measures." in text
    assert "b 2\n" in capsys.readouterr().out  # shown as it runs, too


def test_a_failed_run_leaves_the_file_as_it_was(tmp_path):
    out = tmp_path / "figures.md"
    assert figures.main(["--figures", str(out), str(bench(tmp_path, "bench_a.py", "1"))]) == 0
    before = out.read_text()
    broken = bench(tmp_path, "bench_a.py", "print('half'); raise SystemExit(3)")
    assert figures.main(["--figures", str(out), str(broken)]) == 3
    assert out.read_text() == before
