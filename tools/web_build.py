"""Build the web page (`make web`): a static site that plays the real firmware in a browser.

    python tools/web_build.py [--serve PORT [--bind ADDRESS]]     (make web, make serve)

The site is a folder any static host serves as it is (module scripts need http, not file://):
the page's files (PAGE_FILES), the MicroPython WebAssembly port's loader and binary as npm ships
them (PORT_FILES, pinned in web/package.json) and the bundles (BUNDLES) of every module the page
imports (sources()), compiled by mpy-cross without line numbers, as deploy compiles them. A
bundle, read by oxo.js: b"OXO1", then per file a 1-byte name length, the ASCII name, a 4-byte
big-endian size and the bytes.

What the first frame fetches is index.html and what it names to load (first_frame_files):
under 256 KB gzipped, the coach's and the explorer's code not in it.
"""

import argparse
import errno
import functools
import http.server
import re
import shutil
import socket
import struct
import sys
import tempfile
from pathlib import Path

import boardlist
import layout
import mpy_build
import webtools

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
OUT = ROOT / "build" / "web"
MAGIC = b"OXO1"
# The page's files: what the first frame loads, then those imported later: tabcable.js with
# game.bin, coach.js at the first scores, explorer.js when the explorer is first opened.
PAGE_FILES = tuple(
    "index.html oxo.js glass.js buttons.js buzzer.js flash.js".split()
    + "tabcable.js coach.js explorer.js".split()
)
PORT_FILES = ("micropython.mjs", "micropython.wasm")
TESTBED = ROOT / "testbed"
# The host's stand-ins the page imports: the fake machine with its parts and port models,
# fakebus, the PCD8544 controller model, the board wiring, the glass palette.
HOSTBOARD = ("machine.py", "machine_pwm.py", "machine_reset.py", "machine_uart.py", "portmodel.py")
STAND_INS = tuple(TESTBED / "hostboard" / name for name in HOSTBOARD) + tuple(
    TESTBED / name for name in ("fakebus.py", "pcd8544_model.py", "boardpins.py", "glasslook.py")
)


# The modules of each bundle but the first, firmware.bin, which holds the rest: the boot to the
# title and the error screen. game.bin comes right after the first frame (the screens after the
# title, link play's with tabend), explorer.bin when the explorer is first opened. A module the
# first frame needs, left out of firmware.bin, fails every page check.
GAME_MODULES = (
    "mainmenu menu menurow widgets setupmenu play game engine coach coachmarks demo review"
    " linkplay linkgame linkwire tabend"
)
BUNDLES = (
    ("firmware.bin", ()),
    ("game.bin", tuple(GAME_MODULES.split())),
    ("explorer.bin", ("coachtree",)),
)


def sources():
    """Every module the page imports: the firmware but main.py (the page replaces its loop), the
    board files, the host's stand-ins and the page's MicroPython half."""
    firmware = layout.sources(main=False)
    boards = sorted(boardlist.BOARDS.glob("*.py"))
    page = [WEB / name for name in ("oxoweb.py", "tabend.py", "coachtree.py")]
    return firmware + boards + list(STAND_INS) + page


def bundled(paths):
    """{bundle name: [its paths]}, in BUNDLES' order, of `paths` (modules by file) as BUNDLES
    splits them. ValueError for a module BUNDLES names that is not among them."""
    stems = {Path(p).stem for p in paths}
    later = {}
    for name, modules in BUNDLES[1:]:
        missing = sorted(set(modules) - stems)
        if missing:
            raise ValueError("%s names %s, not a module of the page" % (name, ", ".join(missing)))
        later[name] = [p for p in paths if Path(p).stem in modules]
    rest = {Path(p) for ps in later.values() for p in ps}
    return {BUNDLES[0][0]: [p for p in paths if Path(p) not in rest], **later}


def bundle(files):
    """A bundle's bytes for [(name, bytes)] (see the module docstring)."""
    out = bytearray(MAGIC)
    for name, data in files:
        raw = name.encode("ascii", "replace")
        if not 0 < len(raw) < 256 or raw.decode() != name:
            raise ValueError("a bundled name is 1..255 ASCII characters: %r" % name)
        out += bytes((len(raw),)) + raw + struct.pack(">I", len(data)) + data
    return bytes(out)


def build(out=OUT):
    """Make the site in `out` (emptied first); return the list of files written."""
    port = webtools.WASM_PACKAGE
    if not (port / "micropython.wasm").exists():
        raise RuntimeError(
            "%s is not installed: run `make web` (it installs web/node_modules)"
            % webtools.WASM_NAME
        )
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        compiled = mpy_build.compile_all(tmp, sources(), lines=False)
        for name, paths in bundled(compiled).items():
            files = [(path.name, path.read_bytes()) for path in paths]
            (out / name).write_bytes(bundle(files))
    for name in PAGE_FILES:
        shutil.copyfile(WEB / name, out / name)
    for name in PORT_FILES:
        shutil.copyfile(port / name, out / name)
    return sorted(out.iterdir())


def first_frame_files(site):
    """The files of the built `site` that a first visit fetches before its first frame:
    index.html and what it names to load (its script, the modules it preloads, the port's
    binary and firmware.bin, preloaded). The page's checks hold that Chromium fetches exactly
    these before the first frame (host_tests/web/web_page.mjs)."""
    html = (Path(site) / "index.html").read_text(encoding="utf-8")
    named = re.findall(r'<script type="module" src="([^"]+)"', html)
    named += re.findall(r'<link rel="(?:modulepreload|preload)" href="([^"]+)"', html)
    return ["index.html"] + sorted(set(named))


def serve(folder, port, bind):
    """Serve `folder` over http until Ctrl-C; 1 (said why) if the port cannot be had, 2 if
    `bind` is no address of this machine."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    try:
        server = http.server.ThreadingHTTPServer((bind, port), handler)
    except OSError as err:
        # A name that resolves to nothing (gaierror) or an address no interface here has.
        if isinstance(err, socket.gaierror) or err.errno == errno.EADDRNOTAVAIL:
            print(
                "make serve: BIND_WEB=%s is not an address of this machine: give one of its "
                "own, e.g. BIND_WEB=127.0.0.1 (this machine alone) or 0.0.0.0 (all its networks)"
                % bind,
                file=sys.stderr,
            )
            return 2
        print(
            "make serve: cannot listen on %s port %d (%s): choose another, e.g. make serve "
            "PORT_WEB=%d" % (bind, port, err.strerror or err, port + 1),
            file=sys.stderr,
        )
        return 1
    host = "localhost" if bind in ("127.0.0.1", "localhost") else bind
    print("serving %s on http://%s:%d/ (Ctrl-C stops it)" % (folder, host, port), flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("stopped")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", metavar="PORT", help="then serve it on this port")
    parser.add_argument(
        "--bind",
        default="127.0.0.1",
        help="address to serve on (default %(default)s; 0.0.0.0 to try it from a phone)",
    )
    args = parser.parse_args(argv)
    if args.serve is not None:  # one line, not argparse's usage and "invalid int value"
        if not (re.fullmatch("[0-9]{1,5}", args.serve) and 0 < int(args.serve) < 65536):
            print(
                "make serve: PORT_WEB (--serve) is a TCP port 1..65535, not %r" % args.serve,
                file=sys.stderr,
            )
            return 2
        args.serve = int(args.serve)
    try:
        written = build(OUT)
    except RuntimeError as err:
        print("make web:", err, file=sys.stderr)
        return 1
    total = sum(p.stat().st_size for p in written)
    print("web: %d files, %.0f KB in %s" % (len(written), total / 1024, OUT.relative_to(ROOT)))
    if args.serve is not None:
        return serve(OUT, args.serve, args.bind)
    print("serve it with `make serve`, or put the folder on any static host as it is")
    return 0


if __name__ == "__main__":
    sys.exit(main())
