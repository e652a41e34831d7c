"""settings.py fuzzed on CPython with hypothesis: whatever the file holds, loading gives valid
settings. On the MicroPython port over simulated flash (littlefs, FAT): mp/mp_settings.py
(loading, repair, validation; saves, a power cut at every step)."""

import json

import settings
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st
from settings import KEYS, Settings

# Near-misses of the real values (ints around the ranges, bools, 3-lists) and other JSON.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 130)
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, min_size=2, max_size=4)
        | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=6,
)
stored = st.dictionaries(st.sampled_from(KEYS + ("other",)), json_values, max_size=9)


def valid(s):
    for key in KEYS:
        assert settings.check(key, s.get(key)) == s.get(key)


@hyp_settings(max_examples=200, deadline=None)
@given(data=stored)
def test_any_json_object_loads_valid_and_is_repaired(tmp_path_factory, data):
    path = tmp_path_factory.getbasetemp() / "object.json"
    text = json.dumps(data)
    path.write_text(text)
    s = Settings.load(str(path))
    valid(s)
    for key in KEYS:  # a key that was valid is kept (a file too long to be ours is not read)
        try:
            if len(text) > 512:
                raise KeyError(key)
            assert s.get(key) == settings.check(key, data[key])
        except (KeyError, ValueError):
            assert s.get(key) == Settings().get(key)
    assert json.loads(path.read_text()) == json.loads(s.dumps())
    assert not s.dirty


@hyp_settings(max_examples=200, deadline=None)
@given(blob=st.binary(max_size=600))
def test_any_bytes_load_valid(tmp_path_factory, blob):
    path = tmp_path_factory.getbasetemp() / "bytes.json"
    path.write_bytes(blob)
    valid(Settings.load(str(path)))
    assert json.loads(path.read_text()).keys() == set(KEYS)


def test_the_level_count_is_the_engines():
    # settings.py keeps the count as a constant, so that loading the settings (safe mode does)
    # never loads the engine (test_layout.py's NEVER_IMPORTS); this holds the two together.
    import engine

    assert settings.LEVEL_COUNT == len(engine.LEVELS)
    assert Settings().get("level") == len(engine.LEVELS) - 2
