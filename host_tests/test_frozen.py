"""What `make firmware` freezes (frozen/manifest.py) and what its main.py runs at power-on
(frozen/main.py, under the MicroPython unix port: mp_frozen_main.py)."""

import os
import sys
from pathlib import Path

import layout
import mpcheck
import pytest

import firmware

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "frozen"


class mp_frozen_main(mpcheck.Script):
    heapsize = "64k"
    args = (FROZEN / "main.py", mpcheck.TMPDIR)


class mp_frozen_later(mpcheck.Script):
    """startup.main's `later` (frozen/main.py's making of a first boot's filesystem) through the
    runner, under the harness with test_main.py's fake app."""

    heapsize = "512k"  # as test_main.py's: a FAT RAM flash after the watchdog's reboot
    paths = (mpcheck.fixture("hostboard"), Path(__file__).parent / "mp" / "fakeapp")


class Options(dict):
    """manifestfile's `options`: an unset one reads None; defaults() sets what is unset."""

    __getattr__ = dict.get

    def defaults(self, **kwargs):
        for key, value in kwargs.items():
            self.setdefault(key, value)


def run_manifest(**options):
    """[(kind, args, kwargs)] of each call frozen/manifest.py makes to the manifest API of
    MicroPython's tools/manifestfile.py, given `options`."""
    calls = []

    def record(kind):
        return lambda *args, **kwargs: calls.append((kind, args, kwargs))

    api = {kind: record(kind) for kind in ("include", "freeze", "module", "require", "package")}
    here = os.getcwd()
    os.chdir(FROZEN)  # makemanifest runs a manifest in its own folder
    try:
        exec((FROZEN / "manifest.py").read_text(), {"options": Options(options), **api})
    finally:
        os.chdir(here)
    return calls


def test_the_manifest_freezes_every_game_module_at_opt_3_but_firmware_main_py():
    calls = run_manifest(board="/stage")
    frozen = [
        (FROZEN / args[0]).resolve() / name
        for kind, args, kwargs in calls
        if kind == "freeze" and kwargs == {"opt": 3}
        for name in args[1]
    ]
    # The deployed main.py, a firmware module, left out on purpose.
    assert sorted(frozen) == sorted(layout.sources(main=False)) != sorted(layout.sources())


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


def test_rp2_boot_restates_the_rp2_ports_manifest_with_its_own_boot_py():
    calls = run_manifest(board="/stage", rp2_boot=True)
    assert not [c for c in calls if c[0] == "include" and "boards" in c[1][0]]
    assert calls[0] == ("freeze", ("$(PORT_DIR)/modules", ("_boot_fat.py", "rp2.py")), {})
    modules = [args[0] for kind, args, _kwargs in calls if kind == "module"]
    assert sorted(modules) == ["_boot.py", "board.py", "flashfs.py", "main.py"]


@pytest.mark.parametrize(
    "board, expected", [("pico", True), ("pico2", True), ("pico-w", False), ("esp32", False)]
)
def test_firmware_asks_for_rp2_boot_only_where_the_ports_manifest_is_the_boards(board, expected):
    image = firmware.IMAGES[board]
    port = "$(BOARD_DIR)/manifest.py" if board == "pico-w" else "$(PORT_DIR)/boards/manifest.py"
    assert firmware.rp2_boot(image, port) is expected


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
    game = {p.name for p in layout.sources()}
    boot = {"_boot.py", "flashfs.py"} if board == "pico" else set()  # frozen/, on rp2 only
    assert set(ours) == game | {"board.py"} | boot
    assert Path(ours["main.py"].full_path) == FROZEN / "main.py"
    assert (
        Path(ours["board.py"].full_path).read_bytes()
        == (ROOT / "boards" / (board + ".py")).read_bytes()
    )
    assert {f.opt for f in ours.values()} == {3}
    targets = [f.target_path for f in files]
    assert targets.count("_boot.py") == 1 and targets.count("main.py") == 1
    if board == "pico":
        assert Path(ours["_boot.py"].full_path) == FROZEN / "_boot.py"


@NEEDS_SRC
def test_the_pico_freezes_all_the_stock_pico_freezes_but_the_ports_boot_py(tmp_path):
    # frozen/manifest.py restates ports/rp2/boards/manifest.py (rp2_boot): the same files,
    # from the same places, but for _boot.py, which is frozen/'s.
    stock = {(f.target_path, f.full_path) for f in frozen_by("pico", tmp_path / "s", stock=True)}
    ours = {(f.target_path, f.full_path) for f in frozen_by("pico", tmp_path / "f")}
    ports_boot = {(t, p) for t, p in stock if t == "_boot.py"}
    assert len(ports_boot) == 1
    assert stock - ports_boot <= ours
    assert not ports_boot & ours


@NEEDS_SRC
def test_the_stock_build_freezes_the_ports_own_and_nothing_of_the_game(tmp_path):
    # tools/firmware.py --stock: what make test-pico boots with deploy's files.
    files = frozen_by("pico", tmp_path, stock=True)
    targets = [f.target_path for f in files]
    assert "_boot.py" in targets
    assert not [f for f in files if Path(f.full_path).is_relative_to(ROOT)]
    assert not {"main.py", "board.py", "startup.py"} & set(targets)
