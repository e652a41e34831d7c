"""The engine's tables, constants in firmware/game/engine.py, against the code that builds them.
That the engine holds them as built and they mean what engine.py says is for the engine's own
checks against the reference minimax at every reachable position (test_engine_levels.py,
mp/mp_engine_play.py)."""

import engine_tables


def test_the_tables_in_engine_py_are_what_the_builder_makes():
    # The block in the source, character for character: a stale or hand-edited table fails.
    before, block, after = engine_tables.split(engine_tables.ENGINE.read_text())
    assert block == engine_tables.expected_block(), "run tools/engine_tables.py"


def test_a_stale_block_is_written_anew(tmp_path, monkeypatch):
    fresh = engine_tables.ENGINE.read_text()
    target = tmp_path / "engine.py"
    target.write_text(fresh.replace('b"\\x00\\x01\\x01', 'b"\\x00\\x01\\x02', 1))
    monkeypatch.setattr(engine_tables, "ENGINE", target)
    assert target.read_text() != fresh
    assert engine_tables.main() == 0
    assert target.read_text() == fresh
