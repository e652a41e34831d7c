"""tools/web_build.py: the bundles the page unpacks, what goes into each, what the first frame
fetches and its weight, and make serve's refusals. (The page itself, unpacking the bundles, is
proved in Chromium by test_web.py; its web_page holds that Chromium fetches first_frame_files
before the first frame and nothing else.)"""

import gzip
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import layout
import pytest
import web_build

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["", "x" * 256, "caf\u00e9.mpy"])
def test_a_name_the_format_cannot_hold_is_refused(name):
    with pytest.raises(ValueError, match="1..255 ASCII"):
        web_build.bundle([(name, b"data")])


def test_the_bundle_holds_the_firmware_but_main_py_the_boards_the_stand_ins_and_the_page():
    stems = [path.stem for path in web_build.sources()]
    assert len(stems) == len(set(stems)), "two modules would land on one name"
    firmware = {path.stem for path in layout.sources()}
    assert firmware - set(stems) == {"main"}  # the page replaces main.py's loop
    assert {"pico", "esp32", "oxoweb", "machine", "pcd8544_model", "boardpins"} <= set(stems)
    assert "time" not in stems  # the port's own time: the page keeps real time


def test_each_module_goes_in_one_bundle_and_a_name_that_is_no_module_is_refused():
    paths = web_build.sources()
    split = web_build.bundled(paths)
    assert list(split) == ["firmware.bin", "game.bin", "explorer.bin"]
    assert sorted(p for ps in split.values() for p in ps) == sorted(paths)
    assert [p.stem for p in split["explorer.bin"]] == ["coachtree"]
    with pytest.raises(ValueError, match="game.bin names engine, not a module of the page"):
        web_build.bundled([p for p in paths if p.stem != "engine"])


def imports(name):
    """{static imports, import() calls} of the page's script `name`, as file names."""
    text = (web_build.WEB / name).read_text(encoding="utf-8")
    static = set(re.findall(r'^import .* from "\./([^"]+)";$', text, re.M))
    return static, set(re.findall(r'import\("\./([^"]+)"\)', text))


def test_the_site_has_every_script_of_the_page_and_every_module_they_import():
    scripts = {path.name for path in web_build.WEB.glob("*.js")}
    assert scripts <= set(web_build.PAGE_FILES), "a script in web/ the site would not have"
    imported = set()
    for name in scripts:
        imported |= set.union(*imports(name))
    assert imported == (scripts - {"oxo.js"}) | {"micropython.mjs"}
    assert imported <= set(web_build.PAGE_FILES + web_build.PORT_FILES)


def test_docs_commands_names_every_file_of_the_site():
    # docs/commands.md lists what build/web/ holds, by name rather than by a count to keep.
    docs = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    site = web_build.PAGE_FILES + web_build.PORT_FILES + tuple(n for n, _ in web_build.BUNDLES)
    assert [name for name in site if "`%s`" % name not in docs] == []


def test_the_first_frame_fetches_under_256_kb_gzipped_and_none_of_the_coach(web_site):
    # That index.html names every module its script's graph loads (Chromium fetches exactly
    # these before the first frame): web_page.mjs, in Chromium.
    first = web_build.first_frame_files(web_site)
    assert {"index.html", "oxo.js", "micropython.wasm", "firmware.bin"} <= set(first)
    later = {"game.bin", "explorer.bin", "coach.js", "explorer.js", "tabcable.js"}
    assert later.isdisjoint(first)
    assert {p.name for p in web_site.iterdir()} == set(first) | later
    sizes = {
        name: len(gzip.compress((web_site / name).read_bytes(), 9, mtime=0)) for name in first
    }
    total = sum(sizes.values())
    assert total < 256 * 1024, "the first frame fetches %.1f KB gzipped: %s" % (
        total / 1024,
        ", ".join("%s %.1f" % (name, size / 1024) for name, size in sizes.items()),
    )


def test_serve_says_which_port_to_try_when_its_own_is_taken(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert web_build.serve(tmp_path, port, "127.0.0.1") == 1
    said = capsys.readouterr().err
    assert "cannot listen on 127.0.0.1 port %d" % port in said
    assert "make serve PORT_WEB=%d" % (port + 1) in said


@pytest.mark.parametrize("port", ["70000", "0", "abc", "80.5", "\u00b2"])
def test_a_port_that_is_none_is_refused_in_one_line_before_anything_is_built(port, capsys):
    assert web_build.main(["--serve", port]) == 2
    said = "make serve: PORT_WEB (--serve) is a TCP port 1..65535, not %r\n" % port
    assert capsys.readouterr() == ("", said)


@pytest.mark.parametrize("bind", ["192.0.2.1", "no-such-host.invalid"])
def test_serve_says_when_the_address_is_not_this_machines(bind, tmp_path, capsys):
    # 192.0.2.1: TEST-NET-1 (RFC 5737), on no interface here; .invalid never resolves.
    assert web_build.serve(tmp_path, free_port(), bind) == 2
    assert capsys.readouterr().err == (
        "make serve: BIND_WEB=%s is not an address of this machine: give one of its own, e.g. "
        "BIND_WEB=127.0.0.1 (this machine alone) or 0.0.0.0 (all its networks)\n" % bind
    )


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port):
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def start_make_serve(port):
    """`make serve` on `port` in its own process group, once the server listens: a terminal's
    foreground job, SIGINT at its default action (a shell without job control starts its
    background jobs with it ignored, which exec keeps: make and the server would not see it)."""
    make = subprocess.Popen(
        ["make", "--no-print-directory", "serve", "PORT_WEB=%d" % port],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    end = time.monotonic() + 60
    while not listening(port):
        assert make.poll() is None and time.monotonic() < end, "make serve did not start"
        time.sleep(0.1)
    return make


def test_sigterm_to_make_serve_stops_the_server():
    port = free_port()
    make = start_make_serve(port)
    try:
        make.terminate()  # SIGTERM to make alone, as a process manager or `kill` sends it
        make.wait(10)
        end = time.monotonic() + 5
        while listening(port) and time.monotonic() < end:
            time.sleep(0.1)
        assert not listening(port), "the server outlived make"
    finally:
        try:
            os.killpg(make.pid, signal.SIGKILL)  # whatever is left in its group
        except ProcessLookupError:
            pass
        make.communicate()


def test_ctrl_c_at_make_serve_ends_with_the_servers_line_and_no_make_noise():
    make = start_make_serve(free_port())
    os.killpg(make.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
    out, err = make.communicate(timeout=10)
    assert out.splitlines()[-1] == "stopped"
    assert "make: ***" not in err, err
