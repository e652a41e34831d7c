"""Shared fixtures: the firmware and the test bed compiled by mpy-cross, the path of every
MicroPython script (host_tests/mpcheck.py says how a script runs: each check a pytest item)."""

from pathlib import Path

import micropython as cpython_shim  # noqa: F401 - testbed/cpython: const(), ticks in time
import mpy_build
import pytest

# deployrig: the `board` fixture (a virtual board) of test_deploy and test_boardport.
pytest_plugins = ("checkitems", "mpcheck", "webcheck", "deployrig")

ROOT = Path(__file__).resolve().parents[1]
MP_DIR = ROOT / "host_tests" / "mp"  # mptest and the scripts' helpers
TESTBED = ROOT / "testbed"
# The test bed's modules that run under MicroPython (lcd_render and virtualboard are CPython's;
# virtualboard_mp runs as a script; the fake machine and time are the hostboard fixture's).
TESTBED_MP = (
    "fakebus", "pcd8544_model", "ramdisk", "glasstext", "boardpins", "glass", "hostapp",
    "hostscript", "appheap", "session", "simulator_mp", "positions", "gameboard", "glasslook",
    "cable", "tcpcable",
)  # fmt: skip
ENGINE_DEPTHS = range(1, 9)  # the limited depths of mp_engine's depths.bin (9: reference.bin)


@pytest.fixture(scope="session")
def mpy_dir(tmp_path_factory):
    """Every firmware and board module compiled by mpy-cross (only .mpy files, no sources)."""
    out = tmp_path_factory.mktemp("mpy")
    mpy_build.compile_all(out)
    return out


@pytest.fixture(scope="session")
def testbed(tmp_path_factory):
    """The test bed's MicroPython modules compiled by mpy-cross, on every run's path (compiled
    once: a script's small heap holds their bytecode, never their compiler)."""
    out = tmp_path_factory.mktemp("testbed")
    mpy_build.compile_all(out, [TESTBED / (name + ".py") for name in TESTBED_MP])
    return out


@pytest.fixture(scope="session")
def hostboard(tmp_path_factory):
    """The host board compiled like the firmware: the fake machine and time and the port
    models. A script class's `paths = (mpcheck.fixture("hostboard"),)` puts it first, so the
    fakes override the port's built-in machine and time modules."""
    out = tmp_path_factory.mktemp("hostboard")
    mpy_build.compile_all(out, sorted((TESTBED / "hostboard").glob("*.py")))
    return out


@pytest.fixture(scope="session")
def mp_path(mpy_dir, testbed):
    """The MICROPYPATH of every MicroPython script, after a class's own paths (mpcheck runs the
    scripts): the firmware as deployed, host_tests/mp (mptest), the test bed."""
    return (mpy_dir, MP_DIR, testbed)


@pytest.fixture(scope="session")
def mp_engine(tmp_path_factory):
    """The engine's MicroPython checks (mp/mp_engine_*.py) precompiled with their runner, run.py
    (so each fits beside the engine in 24k), and the reference files of test_engine.py's
    minimax: per non-final reachable position the board, the player, its optimal cells and the
    exact score of each cell + 128 (0 for a taken cell) in reference.bin; in depths.bin the same
    at each depth of ENGINE_DEPTHS, the depth after the player."""
    from test_engine import board_of, live_positions, optimal_cells, reference_scores

    out = tmp_path_factory.mktemp("mp_engine")
    for script in sorted(MP_DIR.glob("mp_engine_*.py")):
        mpy_build.compile_module(script, out)
    (out / "run.py").write_text("import mp_engine_run\n")

    def record(cells, player, depth, say_depth):
        board = board_of(cells)
        best = sum(1 << i for i in optimal_cells(cells, player, depth))
        head = (board & 255, board >> 8 & 255, board >> 16, player) + (depth,) * say_depth
        scores = tuple(0 if s is None else s + 128 for s in reference_scores(cells, player, depth))
        return bytes(head + (best & 255, best >> 8) + scores)

    live = live_positions()
    (out / "reference.bin").write_bytes(b"".join(record(c, p, 9, False) for c, p in live))
    depths = (record(c, p, depth, True) for c, p in live for depth in ENGINE_DEPTHS)
    (out / "depths.bin").write_bytes(b"".join(depths))
    return out


@pytest.fixture(scope="session")
def deployed(tmp_path_factory):
    """What `make deploy BOARD=pico` puts in a Pico's root directory (tools/deploy_chains.py
    build_deploy): the firmware's .mpy files, board.mpy and main.py, in one folder."""

    import deploy_chains

    return deploy_chains.stage("pico", tmp_path_factory.mktemp("deployed"))


@pytest.fixture(autouse=True)
def seen_ports(tmp_path, monkeypatch):
    """boardport's record of the ports it has seen, per test (a test's ports are its own), for
    deploy.py run here and through make alike."""
    monkeypatch.setenv("OXO5110_SEEN_PORTS", str(tmp_path / "seen-ports"))
