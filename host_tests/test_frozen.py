"""What `make firmware` freezes (frozen/manifest.py) and what its main.py runs at power-on
(frozen/main.py, under the MicroPython unix port: mp_frozen_main.py)."""

import os
import sys
from pathlib import Path

import mpcheck
import mpy_build
import pytest

import firmware

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "frozen"


class mp_frozen_main(mpcheck.Script):
    heapsize = "64k"
    args = (FROZEN / "main.py", mpcheck.TMPDIR)


class Recorder:
    """The manifest API of MicroPython's tools/manifestfile.py, recording each call."""

    def __init__(self, **options):
        self.calls = []
        given = dict(options)

        class Options:
            def defaults(self, **kwargs):
                for key, value in kwargs.items():
                    given.setdefault(key, value)

            def __getattr__(self, name):
                return given.get(name)

        self.options = Options()

    def api(self):
        def record(kind):
            return lambda *args, **kwargs: self.calls.append((kind, args, kwargs))

        names = ("include", "freeze", "module", "require", "package")
        return {"options": self.options, **{name: record(name) for name in names}}


def run_manifest(**options):
    recorder = Recorder(**options)
    here = os.getcwd()
    os.chdir(FROZEN)  # makemanifest runs a manifest in its own folder
    try:
        exec((FROZEN / "manifest.py").read_text(), recorder.api())
    finally:
        os.chdir(here)
    return recorder.calls


def test_the_manifest_freezes_every_game_module_at_opt_3_but_firmware_main_py():
    calls = run_manifest(board="/stage")
    [(_kind, (path, names), kwargs)] = [c for c in calls if c[0] == "freeze"]
    assert (FROZEN / path).resolve() == ROOT / "firmware" and kwargs == {"opt": 3}
    modules = [p.name for p in mpy_build.firmware_sources(include_boards=False)]
    assert sorted(names) == sorted(n for n in modules if n != "main.py")
    assert "main.py" in modules  # the deployed main.py is there, and left out on purpose


def test_the_manifest_freezes_its_main_py_and_the_board_file_as_board():
    calls = run_manifest(board="/stage")
    modules = [(args, kwargs) for kind, args, kwargs in calls if kind == "module"]
    assert (("main.py",), {"opt": 3}) in modules  # frozen/main.py, beside the manifest
    assert (("board.py",), {"base_path": "/stage", "opt": 3}) in modules
    assert len(modules) == 2


def test_the_manifest_includes_the_ports_own_first():
    calls = run_manifest(board="/stage")
    assert calls[0] == ("include", ("$(PORT_DIR)/boards/manifest.py",), {})
    calls = run_manifest(board="/stage", port="$(BOARD_DIR)/manifest.py")
    assert calls[0] == ("include", ("$(BOARD_DIR)/manifest.py",), {})


def test_the_manifest_refuses_to_run_without_a_board():
    with pytest.raises(ValueError, match="board="):
        run_manifest()


NEEDS_SRC = pytest.mark.skipif(
    not os.environ.get("MICROPYTHON_SRC"), reason="MICROPYTHON_SRC (a MicroPython checkout) unset"
)


def frozen_by(board, tmp_path, stock=False):
    """The files the build's manifest, as tools/firmware.py writes it, freezes: read by
    MicroPython's own manifestfile."""
    src = Path(os.environ["MICROPYTHON_SRC"]).resolve()
    sys.path.insert(0, str(src / "tools"))
    try:
        import manifestfile
    finally:
        sys.path.remove(str(src / "tools"))
    image = firmware.IMAGES[board]
    port = src / "ports" / firmware.port_name(image)
    wrapper = firmware.stage(src, image, tmp_path / "work", stock)
    manifest = manifestfile.ManifestFile(
        manifestfile.MODE_FREEZE,
        {
            "MPY_DIR": str(src),
            "MPY_LIB_DIR": str(src / "lib" / "micropython-lib"),
            "PORT_DIR": str(port),
            "BOARD_DIR": str(port / "boards" / image.micropython),
        },
    )
    manifest.execute(str(wrapper))
    return manifest.files()


@NEEDS_SRC
@pytest.mark.parametrize("board", ["pico", "esp32"])
def test_micropythons_own_manifest_reader_freezes_the_game_as_board_and_main(board, tmp_path):
    files = frozen_by(board, tmp_path)
    ours = {
        f.target_path: f
        for f in files
        if Path(f.full_path).is_relative_to(ROOT) or Path(f.full_path).is_relative_to(tmp_path)
    }
    game = {p.name for p in mpy_build.firmware_sources(include_boards=False)}
    assert set(ours) == game | {"board.py"}
    assert Path(ours["main.py"].full_path) == FROZEN / "main.py"
    assert (
        Path(ours["board.py"].full_path).read_bytes()
        == (ROOT / "boards" / (board + ".py")).read_bytes()
    )
    assert {f.opt for f in ours.values()} == {3}
    targets = [f.target_path for f in files]
    assert "_boot.py" in targets and targets.count("main.py") == 1


@NEEDS_SRC
def test_the_stock_build_freezes_the_ports_own_and_nothing_of_the_game(tmp_path):
    # tools/firmware.py --stock: what make test-pico boots with deploy's files.
    files = frozen_by("pico", tmp_path, stock=True)
    targets = [f.target_path for f in files]
    assert "_boot.py" in targets
    assert not [f for f in files if Path(f.full_path).is_relative_to(ROOT)]
    assert not {"main.py", "board.py", "oxo.py"} & set(targets)
