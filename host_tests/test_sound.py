"""sound.py: every sound as the buzzer's pin plays it (compared with the golden tables in
host_tests/golden/sounds/: after an intended change, regenerate as goldens.py says), cutting,
late steps, no allocation, the release each board asks for (mp_sound.py), and the firmware's
sounds on the real board files (mp_sound_app.py), under the MicroPython unix port."""

import re
from pathlib import Path

import goldens
import mpcheck
import pytest

GOLDEN = Path(__file__).resolve().parent / "golden" / "sounds"
NAMES = ("MOVE", "PLACE", "CPU", "HINT", "ERROR", "WIN", "LOSS", "DRAW", "CHIME")
HEADER = (
    "# sound.%s as the buzzer plays it: ms from its start, then the frequency in Hz (0: silent)."
    "\n# From host_tests/mp/mp_sound.py on the fake rp2 and esp32 PWM; both must play this.\n"
)


def golden_text(name, heard):
    lines = (" ".join(pair.split(":")) for pair in heard.split())
    return HEADER % name + "\n".join(lines) + "\n"


class mp_sound(mpcheck.Script):
    """Its checks, each a pytest item: mp_sound.py under MicroPython."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)

    @pytest.mark.parametrize("name", NAMES)
    def test_sound_matches_its_golden_table(self, mp_output, name):
        heard = dict(
            ((port, n), rest)
            for port, n, rest in re.findall(r"^HEARD (\S+) (\S+) (.*)$", mp_output, re.M)
        )
        rp2, esp32 = heard[("rp2", name)], heard[("esp32", name)]
        assert rp2 == esp32, "the two ports play %s differently" % name
        text = golden_text(name, rp2)
        path = GOLDEN / (name + ".txt")
        assert goldens.same_text(path, text), "%s differs (UPDATE_GOLDEN=1 to accept):\n%s" % (
            path,
            text,
        )


def test_a_sound_that_is_not_there_is_a_clear_error():
    import sound

    with pytest.raises(ValueError, match="no sound 'BEEP'; there are MOVE, PLACE, CPU"):
        sound.table("BEEP")
    assert sound.table("MOVE") == (3200, 6)


def test_every_sound_the_firmware_asks_for_is_a_table():
    # The screens name their sounds as text ("MOVE"): a name sound.py lacks would be a
    # ValueError at the first such press on a board with a buzzer. Every call site, read here.
    import ast

    import sound
    from layout import sources

    tables = set(sound._SOUNDS[::2])
    assert tables == set(NAMES)
    asked = set()
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "sound":
                for const in ast.walk(node.args[0]):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str):
                        asked.add((path.name, const.value))
    names = {name for _, name in asked}
    assert names <= tables, sorted(asked)
    assert names == tables, "tables no screen plays: %s" % sorted(tables - names)
