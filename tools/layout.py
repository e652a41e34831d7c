"""Where the firmware's modules are kept: one folder a layer, the lowest first.

    firmware/drivers/   the chips and the board's parts: LCD, buttons, buzzer, power, pins
    firmware/store/     what is kept on the flash: the settings and tally, the error log
    firmware/game/      the rules: the engine, one game, the coach's scoring
    firmware/screens/   what the glass shows: each screen, its widgets and fonts
    firmware/           the boot and the loop: main.py, startup, runner, the App

A module imports only from its own layer or a lower one (host_tests/test_layout.py). On a
board they sit side by side, each under its own name (deploy, the frozen image and mip install
them so): a package would cost a board heap for nothing the game needs, so module names are
unique across the folders.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
LAYERS = ("drivers", "store", "game", "screens", ".")
FOLDERS = tuple((FIRMWARE / layer).resolve() for layer in LAYERS)


def sources(main=True):
    """Every firmware module's source file, by module name; main=False leaves out main.py, which
    only the board's boot runs (deploy copies it as source; the frozen image and the page have
    their own)."""
    found = (p for folder in FOLDERS for p in folder.glob("*.py"))
    return sorted((p for p in found if main or p.name != "main.py"), key=lambda p: p.name)


def source(name):
    """The source file of the firmware module `name` ("engine"); ValueError if there is none."""
    for folder in FOLDERS:
        path = folder / (name + ".py")
        if path.is_file():
            return path
    names = ", ".join(p.stem for p in sources())
    raise ValueError("no firmware module %r (there are: %s)" % (name, names))


def layer(path):
    """The index in LAYERS of the folder holding the firmware source `path`."""
    return FOLDERS.index(Path(path).resolve().parent)
