# main.py (startup.py, rescue.py) on a HostApp: boot, safe mode (and startup.boot's second look
# at a press: on the Pico, a NEXT pin whose setup the USB enumeration fix undid, RP2040-E5, its
# pad back to the power-on pull-down so that it reads pressed, is set up again before safe mode
# is believed), the error path (its text cut into lines by smallfont.py), KeyboardInterrupt.
# The watchdog: mp_main_watchdog.py.
# SPDX-License-Identifier: MIT
# Runs with host_tests/mp/fakeapp first on the path: its app.App is test scaffolding that raises
# on request, so main.py is tested on its own (the real app has its own tests). The scripts
# check the glass as they go (play() raises what a script raises).
import json
import sys

import hostapp
import mptest
from buttons import NEXT, PREV, SELECT
from hostapp import read
from mptest import check


def booted(vop, lit):
    """A script: 300 ms after power-on, the fake app's first screen on a glass set as stored."""

    def script(h):
        yield h.wait(300)
        check(h.shows("APP 1"), "the app's first screen is not on the glass:\n" + h.screen())
        got = (h.model.vop, h.lit(), h.model.anomalies)
        check(got == (vop, lit, []), "Vop, backlight, anomalies: %r" % (got,))

    return script


def test_boot_runs_app_with_default_settings():
    sys.modules.pop("errorlog", None)  # earlier tests logged
    h = hostapp.HostApp("pico")
    h.play(booted(60, True))
    check(
        read("settings.json") == "", "a first boot wrote settings.json: " + read("settings.json")
    )
    check(h.boots == 1 and not h.returned and h.hw.name == "pico")
    check("errorlog" not in sys.modules, "errorlog loaded with nothing to log")


def test_boot_applies_stored_contrast_and_backlight():
    stored = json.dumps({"contrast": 45, "backlight": False})
    for flash in ("lfs2", "fat"):
        hostapp.HostApp("esp32", flash=flash, files={"settings.json": stored}).play(
            booted(45, False)
        )
        check(json.loads(read("settings.json"))["contrast"] == 45, flash + ": file not repaired")


def on_flash(files, script):
    """Boot a Pico whose flash holds `files`, the flash first on sys.path as on a board: the
    modules they shadow are imported from there, and forgotten again after."""
    names = [name[:-3] for name in files if name.endswith(".py")]
    for name in names:
        sys.modules.pop(name, None)  # imported by earlier tests
    sys.path.insert(0, "")
    try:
        hostapp.HostApp("pico", files=files).play(script)
    finally:
        sys.path.pop(0)
        for name in names:
            sys.modules.pop(name, None)


def test_safe_mode_when_a_button_is_held_at_power_on():
    for button in (SELECT, PREV, NEXT):

        def script(h, button=button):
            h.down(button)  # before the power comes on
            yield h.wait(1000)
            check(
                h.shows("SAFE MODE", inverted=True) and h.lit() and not h.shows("APP 1"),
                h.screen(),
            )
            check(h.small("No game:") and h.small("the REPL is free."), h.screen())
            check(h.small("press reset to play"), h.screen())
            h.up(button)
            yield h.wait(1000)  # letting go does not start the game: reset does
            check(h.shows("SAFE MODE", inverted=True) and not h.shows("APP 1"), h.screen())
            h.snap("safe")

        h = hostapp.HostApp("pico")
        h.play(script)
        check(h.returned, "main() did not return to the REPL")
        check("app" not in sys.modules, "safe mode imported the app")


def test_a_short_glitch_at_power_on_is_not_safe_mode():
    def script(h):
        h.down(SELECT)
        yield h.wait(10)  # released before the second look
        h.up(SELECT)
        yield h.wait(500)
        check(h.shows("APP 1"), h.screen())

    h = hostapp.HostApp("pico")
    h.play(script)
    check(not h.returned)


def error_script(button, name, message=None):
    """A script: `button` makes the fake app raise; the error screen names the error `name`
    (and says `message`), waits for a press however long (its light dims), then restarts."""

    def script(h):
        yield h.wait(300)
        yield h.press(button)
        yield h.wait(200)
        check(h.shows("ERROR", inverted=True) and h.small(name), h.screen())
        check(h.small("press a key to restart") and (not message or h.small(message)), h.screen())
        yield h.wait(5000)
        check(h.shows("ERROR", inverted=True) and not h.shows("APP 2") and h.lit(), h.screen())
        yield h.wait(30000)
        check(h.shows("ERROR", inverted=True) and not h.lit(), "the error screen kept its light")
        yield h.press(PREV)
        yield h.wait(200)
        check(h.shows("APP 2") and h.lit(), "not restarted:\n" + h.screen())

    return script


def test_exception_in_app_shows_error_logs_one_line_and_restarts():
    hostapp.HostApp("pico").play(error_script(SELECT, "ValueError", "boom on request"))
    lines = read("error.log").split("\n")
    check(len(lines) == 2 and lines[1] == "", repr(lines))
    # This boot's number and the seconds since reset; where: the file and the function
    # (App.step), which a board's .mpy files still name without line numbers.
    check(lines[0] == "boot 1 +0s ValueError: boom on request @app.py:step", lines[0])


def test_each_start_has_the_next_number_once_its_count_is_saved():
    # The count is saved with the settings (the error screen saves them; the fake app on PREV);
    # a start that saved nothing (the power cut first) gives its number to the next one.
    logs = []

    def script(h):
        for act in ("error", "nothing", "error", "save", "error"):
            yield h.wait(300)
            if act != "nothing":
                yield h.press(SELECT if act == "error" else PREV)
                yield h.wait(300)
            if act == "error":
                logs.append(read("error.log").split("\n")[-2])
            yield h.power_cycle()
        yield h.wait(300)

    hostapp.HostApp("pico").play(script)
    check([line.split()[1] for line in logs] == ["1", "2", "4"], repr(logs))
    boots = json.loads(read("settings.json"))["boots"]
    check(boots == 4, "the last start's count was saved: %r" % boots)


def test_a_bad_settings_file_is_logged_with_the_boot_that_found_it():
    hostapp.HostApp("pico", files={"settings.json": '{"boots": 41'}).play(lambda h: iter((300,)))
    log = read("error.log")
    check(log.startswith("boot 1 +0s settings.json unreadable (12 bytes)"), log)
    check(log.count("\n") == 1 and read("settings.bad") == '{"boots": 41', log)


def test_a_memory_error_and_an_error_across_the_tick_wrap_are_recovered():
    for button, start_ms, name in (
        (NEXT, 0, "MemoryError"),
        (SELECT, (1 << 30) - 150, "ValueError"),
    ):
        hostapp.HostApp("pico", start_ms=start_ms).play(error_script(button, name))
        check(name in read("error.log"), read("error.log"))


def test_error_that_fails_again_while_reported_still_waits_and_restarts():
    def script(h):
        yield h.wait(300)
        yield h.chord(PREV, NEXT)
        yield h.wait(500)
        check(not h.shows("APP 2") and not h.returned, "not waiting:\n" + h.screen())
        check(h.shows("ERROR", inverted=True) and h.small("Unprintable"), h.screen())
        yield h.press(SELECT)
        yield h.wait(300)
        check(h.shows("APP 2"), "not restarted:\n" + h.screen())

    hostapp.HostApp("pico").play(script)
    log = read("error.log")
    check(log.count("\n") == 1 and "Unprintable: ? @app.py:" in log, log)


def test_board_that_cannot_be_built_returns_to_repl_and_logs():
    h = hostapp.HostApp("badboard")
    h.play(lambda h: iter((100,)))
    log = read("error.log")
    check(h.returned and log.startswith("boot ? +0s OSError"), log)  # no settings read


def test_the_error_screen_shows_the_whole_name_and_the_message_start():
    # The case: a module missing on the board. The 8x8 font cut the screen to
    # "ImportErro" and "named 'eng"; the small font has room for both whole.
    def script(h):
        yield h.wait(300)
        check(h.shows("ERROR", inverted=True) and h.small("press a key to restart"), h.screen())
        check(h.small("no module named") and h.small("'engine_v2'"), h.screen())
        at = h.small("ImportError")
        check(
            at and at[1] < 20 and 2 <= at[0] <= 84 - 45, "the name centred on line 1: %r" % (at,)
        )
        h.snap("error")

    on_flash({"settings.py": "import engine_v2"}, script)


def test_a_broken_font_module_still_shows_the_error_in_the_big_font():
    # The small font lives in smallfont.py; if that is what is broken, the error screen falls back
    # to the 8x8 font (names cut at 10 characters) rather than showing nothing.
    def script(h):
        yield h.wait(300)
        yield h.press(SELECT)
        yield h.wait(200)
        check(h.shows("ERROR", inverted=True) and h.shows("ValueError"), h.screen())

    on_flash({"smallfont.py": "raise ValueError('broken font module')"}, script)
    check("ValueError: boom on request" in read("error.log"), read("error.log"))


def test_a_broken_settings_module_ends_on_the_error_screen():
    # A stale settings.py left on the flash shadows settings.mpy and fails at import: main.py
    # must show the error screen and log it (not die in a boot traceback), and try again.
    def script(h):
        yield h.wait(300)
        check(h.shows("ERROR", inverted=True), h.screen())
        yield h.press(PREV)
        yield h.wait(300)
        check(h.shows("ERROR", inverted=True), "not again:\n" + h.screen())

    on_flash({"settings.py": "raise ValueError('broken settings module')"}, script)
    log = read("error.log")
    check(log.startswith("boot ? +0s ValueError"), log)  # no boot number could be read
    check(log.count("broken settings module") == 2, log)


def test_error_with_the_display_off_shows_and_keeps_unsaved_settings():
    # The app fails while the display is powered down and a setting is not yet saved: the
    # error screen must still show, and the setting must reach the flash.
    def script(h):
        yield h.wait(300)
        yield h.press(NEXT, 600)
        yield h.wait(200)
        check(h.shows("ERROR", inverted=True) and h.showing(), "not visible after a power-down")

    hostapp.HostApp("pico").play(script)
    check(json.loads(read("settings.json"))["contrast"] == 44, read("settings.json"))


def boot(undone, held, recheck=True):
    """startup.boot() on the Pico's board file, NEXT's pin put back to a pull-down after the
    board is built if `undone`, NEXT held if `held`, the board's recheck taken away unless
    `recheck`: (whether it booted into the game, NEXT's pin)."""
    import startup

    h = hostapp.HostApp("pico", flash=None)
    board = h.board()
    build = board.build
    machine = sys.modules["machine"]  # the host board's, as the board file imports it
    pins = []

    def built_then_undone():
        hw = build()
        pins.append(machine.PINS[board.BTN_NEXT])  # the latest Pin of that id: the button's
        if undone:
            pins[0].init(machine.Pin.IN, machine.Pin.PULL_DOWN)  # what the fix puts back
        if not recheck:
            hw.recheck = None
        return hw

    board.build = built_then_undone
    if held:
        machine.set_level(board.BTN_NEXT, 0)
    try:
        return startup.boot() is not None, pins[0]
    finally:
        board.build = build
        machine.reset_state()


def test_a_pin_whose_setup_was_undone_does_not_give_safe_mode():
    booted, pin = boot(undone=True, held=False)
    check(booted, "safe mode for a pin that only reads pressed")
    check(pin.pull() == sys.modules["machine"].Pin.PULL_UP, "NEXT's pull-up not set up again")


def test_a_button_held_at_power_on_still_gives_safe_mode():
    check(not boot(undone=False, held=True)[0], "no safe mode for a held button")
    check(not boot(undone=True, held=True)[0], "no safe mode for a held button, its pin undone")


def test_without_the_second_look_the_undone_pin_gives_safe_mode():
    # What the board file's recheck is for: with none, the undone pin reads as a held NEXT.
    booted = boot(undone=True, held=False, recheck=False)[0]
    check(not booted, "the undone pin did not read pressed")


def wrapped(text, width=84):
    """The lines smallfont.line() and skip() cut text into, as rescue.screen() does."""
    import smallfont

    data = text.encode()
    lines = []
    k = smallfont.skip(data, 0)
    while k < len(data):
        end = smallfont.line(data, k, width)
        check(smallfont.width(data, k, end) <= width, "%r: line too wide" % text)
        lines.append(data[k:end].decode())
        k = smallfont.skip(data, end)
    return lines


def test_error_message_wraps_at_spaces():
    cases = {
        "": [],
        "short": ["short"],
        "  padded words here  ": ["padded words here"],
        "no module named 'engine_v2'": ["no module named", "'engine_v2'"],
        "'NoneType' object has no attribute 'draw'": [
            "'NoneType' object has",
            "no attribute 'draw'",
        ],
        "one\ntwo": ["one", "two"],
        "x" * 30: ["x" * 21, "x" * 9],  # a word wider than the line is cut (4 px a letter)
        "NotImplementedError": ["NotImplementedError"],
    }
    for message in cases:
        got = wrapped(message)
        check(got == cases[message], "%r -> %r" % (message, got))
    # A character outside ASCII shows as one "?" (its UTF-8 bytes take the width of one).
    import smallfont

    check(smallfont.width("\u00e9t\u00e9".encode()) == smallfont.width(b"?t?"))


mptest.run(globals())
