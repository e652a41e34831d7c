"""The reference files the engine's MicroPython checks read (the mp_engine fixture, conftest.py)
agree with the engine on CPython. The checks themselves, engine as .mpy, 24k heap, heap locked:
mp/mp_engine_play.py, mp_engine_tree.py, mp_engine_errors.py, mp_engine_depth.py."""

import engine
import gameboard


def test_reference_file_agrees_with_the_engine_on_cpython(mp_engine):
    data = (mp_engine / "reference.bin").read_bytes()
    assert len(data) == 15 * 4520
    for k in range(0, len(data), 15 * 97):
        board = data[k] | data[k + 1] << 8 | data[k + 2] << 16
        best = data[k + 4] | data[k + 5] << 8
        assert best >> engine.best_move(board, data[k + 3]) & 1
        scores = gameboard.root_scores(board, data[k + 3])
        assert bytes(0 if s is None else s + 128 for s in scores) == data[k + 6 : k + 15]
    data = (mp_engine / "depths.bin").read_bytes()
    assert len(data) == 16 * 4520 * 8
    assert sorted(set(data[4::16])) == list(range(1, 9))  # every limited depth, each position
    for k in range(0, len(data), 16 * 97):
        board, player, depth = data[k] | data[k + 1] << 8 | data[k + 2] << 16, *data[k + 3 : k + 5]
        assert (data[k + 5] | data[k + 6] << 8) >> engine.best_move(board, player, depth) & 1
        scores = gameboard.root_scores(board, player, depth)
        assert bytes(0 if s is None else s + 128 for s in scores) == data[k + 7 : k + 16]
