"""app.py under the MicroPython unix port: which presses may act, a seeded fuzz of 100,000
button events, a soak of 1,000 games with a flat heap, the real firmware under the harness.
Each screen's own checks are in test_<screen module>.py (play, mainmenu, setupmenu, title,
demo; power for the idle timers).

The MicroPython scripts are in host_tests/mp (mp_app*.py; the rig is testbed/rig.py); they
run on the firmware as deployed (every module precompiled by mpy-cross)."""

from pathlib import Path

import mpcheck

MP = Path(__file__).parent / "mp"


class mp_app(mpcheck.Script):
    """Its checks, each a pytest item: mp_app.py under MicroPython."""

    heapsize = "512k"
    args = (mpcheck.TMPDIR,)


class _Fuzz(mpcheck.Script):
    """A seeded fuzz of 50,000 button events (args: seed, events, folder); the buzzer on the host
    board's PWM. One class per seed: the two runs go to two xdist workers."""

    script = MP / "mp_app_fuzz.py"
    heapsize = "256k"
    paths = (mpcheck.fixture("hostboard"),)
    timeout = 280


class mp_app_fuzz_5110(_Fuzz):
    args = (5110, 50000, mpcheck.TMPDIR)


class mp_app_fuzz_2024(_Fuzz):
    args = (2024, 50000, mpcheck.TMPDIR)


# The issue asks for -X heapsize=32k. The game rules, the engine and the settings soak at 32k
# (test_game.py's mp_game_soak). The whole app cannot: its imported code alone (bytecode,
# qstrs, function objects, the engine's and the buttons' tables) takes about 51 KB of heap on
# this 64-bit port and about 49 KB on a 32-bit MicroPython (measured on the webassembly port),
# so it soaks at 80k: the code plus room for the game, whose own live objects stay near 6 KB
# (the script asserts under 24 KB). Freezing the modules into the firmware would move the code
# to flash on a board.
class mp_app_soak(mpcheck.Script):
    """1,000 demo games through the whole app, the heap flat (args: games, folder)."""

    heapsize = "80k"
    args = (1000, mpcheck.TMPDIR)
    timeout = 280


class mp_app_harness(mpcheck.Script):
    """main.py + boards/pico.py + the app, on the fake machine and clock."""

    heapsize = "512k"
    paths = (mpcheck.fixture("hostboard"),)


class mp_app_timing(mpcheck.Script):
    """The loop's timing on the Pico's modelled flash: App.save_ms held to the worst save, and
    no note or blink late by more than App.late_ms over a whole session. The saves are made
    beside the files `make deploy` leaves in the root (the `deployed` fixture)."""

    heapsize = "6144k"  # the 1.4 MB modelled flash in one piece, after a whole session
    paths = (mpcheck.fixture("hostboard"),)
    args = (mpcheck.fixture("deployed"),)
