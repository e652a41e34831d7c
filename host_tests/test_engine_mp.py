"""The engine's checks 1-3 under the real MicroPython: engine as .mpy, 24k heap, heap locked."""

from pathlib import Path

import engine
import mpcheck
import mpy_build
import pytest
from test_engine import board_of, live_positions, optimal_cells, reference_scores

MP = Path(__file__).parent / "mp"
CHECKS = ("mp_engine_play", "mp_engine_tree", "mp_engine_errors", "mp_engine_depth")
DEPTHS = range(1, 9)  # the limited depths (9: reference.bin)


@pytest.fixture(scope="module")
def mp_engine(tmp_path_factory):
    """The check modules precompiled (so each fits beside the engine in 24k) and the reference
    files: per non-final reachable position the board, the player, its optimal cells and the
    exact score of each cell + 128 (0 for a taken cell); in depths.bin the same at each depth
    1..8, the depth after the player."""
    out = tmp_path_factory.mktemp("mp_engine")
    for name in (*CHECKS, "mp_engine_run"):
        mpy_build.compile_module(MP / (name + ".py"), out)
    (out / "run.py").write_text("import mp_engine_run\n")
    records = bytearray()
    for cells, player in live_positions():
        board = board_of(cells)
        best = sum(1 << i for i in optimal_cells(cells, player))
        records += bytes((board & 255, board >> 8 & 255, board >> 16, player, best & 255))
        records.append(best >> 8)
        records += bytes(0 if s is None else s + 128 for s in reference_scores(cells, player))
    (out / "reference.bin").write_bytes(records)
    records = bytearray()
    for cells, player in live_positions():
        board = board_of(cells)
        for depth in DEPTHS:
            best = sum(1 << i for i in optimal_cells(cells, player, depth))
            records += bytes((board & 255, board >> 8 & 255, board >> 16, player, depth))
            records += bytes((best & 255, best >> 8))
            scores = reference_scores(cells, player, depth)
            records += bytes(0 if s is None else s + 128 for s in scores)
    (out / "depths.bin").write_bytes(records)
    return out


def test_reference_file_agrees_with_the_engine_on_cpython(mp_engine):
    data = (mp_engine / "reference.bin").read_bytes()
    assert len(data) == 15 * 4520
    for k in range(0, len(data), 15 * 97):
        board = data[k] | data[k + 1] << 8 | data[k + 2] << 16
        best = data[k + 4] | data[k + 5] << 8
        assert best >> engine.best_move(board, data[k + 3]) & 1
        scores = engine.root_scores(board, data[k + 3])
        assert bytes(0 if s is None else s + 128 for s in scores) == data[k + 6 : k + 15]
    data = (mp_engine / "depths.bin").read_bytes()
    assert len(data) == 16 * 4520 * len(DEPTHS)
    for k in range(0, len(data), 16 * 97):
        board, player, depth = data[k] | data[k + 1] << 8 | data[k + 2] << 16, *data[k + 3 : k + 5]
        assert (data[k + 5] | data[k + 6] << 8) >> engine.best_move(board, player, depth) & 1
        scores = engine.root_scores(board, player, depth)
        assert bytes(0 if s is None else s + 128 for s in scores) == data[k + 7 : k + 16]


class _Engine(mpcheck.Script):
    """Each check module runs through mp_engine_run, precompiled, in a 24k heap."""

    runner = mpcheck.fixture("mp_engine", "run.py")
    paths = (mpcheck.fixture("mp_engine"),)
    heapsize = "24k"


REFERENCE = mpcheck.fixture("mp_engine", "reference.bin")
DEPTHS_FILE = mpcheck.fixture("mp_engine", "depths.bin")


class mp_engine_play(_Engine):
    args = (REFERENCE, "mp_engine_play")


class mp_engine_tree(_Engine):
    args = (REFERENCE, "mp_engine_tree")


class mp_engine_errors(_Engine):
    args = (REFERENCE, "mp_engine_errors")


class mp_engine_depth(_Engine):
    args = (DEPTHS_FILE, "mp_engine_depth")
