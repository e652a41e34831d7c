# The settings screen's changes survive a power cut (issue 19 point 5): each is written once
# made, and a cut at any point of that write leaves the old file or the new, never a lost tally.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=2048k paths={hostboard}
import gc
import json
import os

import hostapp
import mptest
import ramdisk
from buttons import NEXT, PREV, SELECT
from mptest import check
from settings import Settings

OLD = {"contrast": 55, "sound": True, "tally1": [3, 2, 1], "tally2": [4, 0, 2]}
CUT = "/cut"


def stored():
    with open("settings.json") as f:
        return json.loads(f.read())


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
    vop = []

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
        for _ in range(4):
            yield h.press(NEXT)
        yield h.press(SELECT)  # Settings, on Contr
        yield h.press(NEXT)
        yield h.press(NEXT)  # Sound
        yield from change(h, "sound off", h.press(SELECT))
        for _ in range(4):
            yield h.press(NEXT)  # Scores
        yield from change(h, "scores cleared", h.press(SELECT), h.press(SELECT))
        for _ in range(6):
            yield h.press(PREV)  # Contr
        yield from change(
            h, "contrast", h.press(SELECT), h.press(NEXT), h.press(NEXT), h.press(SELECT)
        )
        yield h.power_cycle()
        yield h.wait(500)
        vop.append(h.model.vop)

    h = hostapp.HostApp("pico", files={"settings.json": json.dumps(OLD)})
    h.play(script)
    final = stored()
    check(not final["sound"] and final["tally1"] == [0, 0, 0] and final["contrast"] == 57, final)
    check(vop == [57], "the boot after the cut set Vop %r" % vop)
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


mptest.run(globals())
