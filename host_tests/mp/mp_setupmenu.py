# setupmenu.py: the settings screen, driven by the buttons and read off the glass; its changes
# survive a power cut (issue 19 point 5): each is written once made, and a cut at any point of
# that write leaves the old file or the new, never a lost tally.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=2048k paths={hostboard}
# (2048k: the cut test mounts flash images of the Pico's layout one after another.)
import gc
import json
import os

import mptest
import ramdisk
import session
from app import App
from appplay import (
    LEVELS,
    choose,
    coach_row,
    first_free,
    menu_to,
    new_1p,
    open_settings,
    play_out,
    rig_with,
    settings_back,
    to_menu,
    to_reset_row,
)
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp, read
from mptest import check
from settings import Settings

STILL_MS = App.save_ms  # a save waits for the buttons to have been still this long
OLD = {"contrast": 55, "sound": True, "tally1": [3, 2, 1], "tally2": [4, 0, 2]}  # cut test's
CUT = "/cut"  # where the cut test mounts each flash image a cut would leave


def stored():
    return json.loads(read("settings.json"))


def loaded(image):
    # What a boot loads from this flash image (runner.Runner's first step: Settings.load).
    ramdisk.mount("lfs2", CUT, ramdisk.RAMDisk(ramdisk.PICO_BLOCK, image=image), fresh=False,
                  progsize=ramdisk.PICO_PROGSIZE)  # fmt: skip
    try:
        return json.loads(Settings.load(CUT + "/settings.json").dumps())
    finally:
        os.umount(CUT)


def test_each_change_on_the_settings_screen_survives_a_cut_at_any_point():
    changes = []  # (what, flash before, its operations, file before, file after)

    def change(h, what, *actions):
        before, old = bytes(h.disk.data), stored()
        h.disk.log = []
        for action in actions:
            yield action
        # The settings screen has nothing timed: saved once the buttons have been still for
        # app.App.save_ms (500 ms).
        yield h.wait(600)
        changes.append((what, before, h.disk.log, old, stored()))
        h.disk.log = None

    def script(h):
        yield h.wait(1200)
        yield h.press(SELECT)  # the menu
        yield from session.menu_to(h, 4)
        yield h.press(SELECT)  # Settings, on Contr
        yield from session.menu_to(h, 2)  # Sound
        yield from change(h, "sound off", h.press(SELECT))
        for _ in range(4):
            yield h.press(NEXT)  # Scores (the list scrolls: no glass row to look for)
        yield from change(h, "scores cleared", h.press(SELECT), h.press(SELECT))
        for _ in range(6):
            yield h.press(PREV)  # Contr
        yield from change(
            h, "contrast", h.press(SELECT), h.press(NEXT), h.press(NEXT), h.press(SELECT)
        )
        yield h.power_cycle()
        yield h.wait(500)
        check(h.model.vop == 57, "the boot after the cut set Vop %d" % h.model.vop)

    h = HostApp("pico", files={"settings.json": json.dumps(OLD)})
    h.play(script)
    final = stored()
    check(not final["sound"] and final["tally1"] == [0, 0, 0] and final["contrast"] == 57, final)
    for what, before, log, old, new in changes:
        check(old != new and log, "%s: nothing written (%r)" % (what, new))
        disk = ramdisk.RAMDisk(ramdisk.PICO_BLOCK, image=before)
        disk.log = log
        seen = {"old": 0, "new": 0}
        got = None
        for image in disk.cut_images(before, torn=True):
            got = loaded(image)
            gc.collect()
            if got == old:
                seen["old"] += 1
            else:
                check(got == new, "%s: a cut left %r (old %r, new %r)" % (what, got, old, new))
                seen["new"] += 1
        print(what, len(log), "operations", seen)
        check(got == new, "%s: after its save the flash boots with %r" % (what, got))
        check(seen["old"] and seen["new"], "%s: %r" % (what, seen))


def test_settings_screen():
    r = HostApp(alone=True)
    open_settings(r)
    check(r.menu_row(0), r.show())
    saved = read(r.path)  # "": nothing written yet (not at a first boot)
    vop = r.model.vop
    check(vop == 60, "contrast from settings: %d" % vop)
    r.click(SELECT)  # adjust contrast
    check(r.text_at("<", 43, 0, True), "arrows while adjusting:\n" + r.show())
    for _ in range(3):
        r.click(NEXT)
    check(r.model.vop == 63, "live preview: Vop %d" % r.model.vop)
    r.click(PREV)
    check(r.model.vop == 62)
    check(read(r.path) == saved, "nothing written at each step of an adjustment")
    r.click(SELECT)  # done adjusting: written once, in the quiet after the click
    r.run(STILL_MS)
    saved = read(r.path)
    check('"contrast": 62' in saved and '"backlight": true' in saved, saved)
    r.click(NEXT)
    check(r.menu_row(1))
    check(r.model.backlight is True)
    r.click(SELECT)
    check(r.model.backlight is False, "backlight off at once")
    r.run(STILL_MS)
    saved = read(r.path)
    check('"backlight": false' in saved, "each change written once made: " + saved)
    for _ in range(6):
        r.click(NEXT)
    check(r.text_at("Back", 1, 40, True) and r.text_at("Sound", 1, 0), "scrolled:\n" + r.show())
    r.click(SELECT)  # Back
    check(r.text_at("Settings", 1, 32, True) and r.menu_row(4), "back on the menu")
    text = read(r.path)
    check('"contrast": 62' in text and '"backlight": false' in text, text)


def test_reset_scores_needs_confirmation():
    r = new_1p(LEVELS - 1, "YOU", seed=9)
    play_out(r, first_free)
    check(r.count(4, "L", 1))
    r.settings.set("tally2", (1, 2, 3))  # the other tallies are cleared with it
    r.settings.set("tally_link", (4, 5, 6))
    r.click(SELECT)
    r.run(50)
    r.hold(NEXT, 700)  # to the menu
    check(r.menu_row(0) and r.text_at("Continue", 1, 0, True), r.show())
    to_reset_row(r)
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 40, True), r.show())
    # One press only asks: back in the game the loss is still counted. (Checking only after
    # the second press could not tell whether the first one had already cleared.)
    settings_back(r)
    menu_to(r, 0)
    r.click(SELECT)  # Continue
    check(r.count(4, "L", 1), "one press clears nothing:\n" + r.show())
    r.hold(NEXT, 700)
    to_reset_row(r)
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 40, True), r.show())
    r.click(SELECT)
    check(r.text_at("CLR", 84 - 24, 40, True), "asked and done:\n" + r.show())
    for key in ("tally1", "tally2", "tally_link"):
        check(r.settings.get(key) == (0, 0, 0), key)
    settings_back(r)
    menu_to(r, 0)
    r.click(SELECT)  # Continue
    check(r.count(4, "L", 0), "reset shown in the game:\n" + r.show())


def test_moving_off_reset_cancels_the_question():
    r = rig_with(tally1=(2, 1, 3), starts=0)
    to_menu(r)
    to_reset_row(r)
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 40, True), r.show())
    r.click(NEXT)  # away to Back (the list scrolls up a row)...
    check(r.text_at("Back", 1, 40, True), r.show())
    check(r.text_at("CLR", 84 - 24, 32), "moving away cancels the question:\n" + r.show())
    r.click(PREV)  # ...and back: the next press asks again, it does not clear
    check(r.text_at("CLR", 84 - 24, 40, True), r.show())
    r.click(SELECT)
    check(r.text_at("CLR?", 84 - 32, 40, True), "asked again:\n" + r.show())
    settings_back(r)
    choose(r, 0)  # 1P vs CPU
    check(r.count(2, "W", 2) and r.count(3, "D", 1), "scores kept:\n" + r.show())
    check(r.count(4, "L", 3), "scores kept:\n" + r.show())


def test_contrast_stops_at_0_and_at_the_generators_limit():
    r = HostApp(alone=True)
    open_settings(r)
    r.click(SELECT)  # adjust
    for _ in range(35):
        r.click(NEXT)
    check(r.model.vop == 90 and r.text_at("90", 60, 0, True), "top:\n" + r.show())
    for _ in range(95):
        r.click(PREV)
    check(r.model.vop == 0 and r.settings.get("contrast") == 0, "bottom: %d" % r.model.vop)
    check(r.model.anomalies == [], repr(r.model.anomalies))


def test_light_sound_level_and_start_rows():
    r = HostApp(alone=True)
    open_settings(r)
    r.click(NEXT)
    check(r.text_at("ON", 84 - 16, 8, True), r.show())
    r.click(SELECT)
    check(r.text_at("OFF", 84 - 24, 8, True) and r.model.backlight is False, r.show())
    r.click(SELECT)
    check(r.text_at("ON", 84 - 16, 8, True) and r.model.backlight is True, r.show())
    r.click(NEXT)
    check(r.text_at("Sound", 1, 16, True) and r.text_at("ON", 84 - 16, 16, True), r.show())
    r.click(SELECT)
    check(r.text_at("OFF", 84 - 24, 16, True) and r.settings.get("sound") is False, r.show())
    r.click(SELECT)
    check(r.text_at("ON", 84 - 16, 16, True) and r.settings.get("sound") is True, r.show())
    r.click(NEXT)
    r.click(SELECT)
    r.click(SELECT)
    check(r.text_at("EASY", 84 - 32, 24, True), "levels wrap:\n" + r.show())
    r.click(NEXT)
    r.click(SELECT)
    check(r.text_at("YOU", 84 - 24, 32, True), "ALT, then YOU:\n" + r.show())


def telling(r):
    return r.small("Coach: how each move") is not None and r.small("your 2nd move wins")


def test_the_coach_row_tells_what_the_marks_mean_once_per_device():
    r = HostApp(alone=True)
    open_settings(r)
    coach_row(r)
    check(r.text_at("OFF", 84 - 24, 40, True), "off by default:\n" + r.show())
    r.click(SELECT)
    check(telling(r), "told when first turned on:\n" + r.show())
    r.run(STILL_MS)
    stored = json.loads(read(r.path))
    check(stored["coach"] is True and stored["coach_told"] is True, "saved: %r" % stored)
    r.click(PREV)  # any press dismisses, and does nothing else
    check(not telling(r) and r.text_at("ON", 84 - 16, 40, True), "dismissed:\n" + r.show())
    r.click(SELECT)
    check(r.text_at("OFF", 84 - 24, 40, True), r.show())
    r.run(STILL_MS)
    check(json.loads(read(r.path))["coach"] is False, "the change to off is saved")
    r.click(SELECT)
    check(not telling(r) and r.text_at("ON", 84 - 16, 40, True), "told once:\n" + r.show())
    r.click(SELECT)  # off again, for the next boot
    r.start()  # the next boot
    open_settings(r)
    coach_row(r)
    r.click(SELECT)
    check(not telling(r) and r.text_at("ON", 84 - 16, 40, True), "once per device:\n" + r.show())


mptest.run(globals())
