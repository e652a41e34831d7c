"""The engine's tables, constants in firmware/game/engine.py, against the code that builds them.
That the engine holds them as built and they mean what engine.py says is for the engine's own
checks against the reference minimax at every reachable position (test_engine_levels.py,
mp/mp_engine_depth.py)."""

import engine_tables


def test_the_tables_in_engine_py_are_what_the_builder_makes():
    # The block in the source, character for character: a stale or hand-edited table fails.
    before, block, after = engine_tables.split(engine_tables.ENGINE.read_text())
    assert block == engine_tables.expected_block()
    assert engine_tables.main(["--check"]) == 0


def test_a_stale_block_is_found(tmp_path, monkeypatch):
    stale = engine_tables.ENGINE.read_text().replace('b"\\x00\\x01\\x01', 'b"\\x00\\x01\\x02', 1)
    target = tmp_path / "engine.py"
    target.write_text(stale)
    monkeypatch.setattr(engine_tables, "ENGINE", target)
    assert engine_tables.main(["--check"]) == 1
    assert engine_tables.main([]) == 0  # rewritten
    assert engine_tables.main(["--check"]) == 0
