# settings.py's saves on a simulated flash filesystem (littlefs and FAT on a RAM block device):
# the temporary file and its rename, failed saves, a power cut at every flash operation.
# Loading, repairing and validating: mp_settings.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=320k
# 320k: the FAT disk's 32 KB image in one piece after the littlefs checks.
import gc
import json
import os

import mptest
import ramdisk
import settings
from mptest import check
from settings import Settings
from settingsdisk import (
    DEFAULTS,
    MNT,
    PATH,
    TMP,
    custom,
    custom_values,
    exists,
    fresh,
    stored,
    values,
    write,
)


def test_what_a_cut_in_a_save_leaves_loads_as_the_old_new_or_default_settings():
    newer = custom()
    newer["contrast"] = 77
    # (what the cut left, the filesystem, the main file, the temporary one, what loads): the
    # temporary file complete but never renamed: the old file wins; FAT renames onto an
    # existing name as remove + rename, a cut between leaves only the temporary file: it is
    # taken; a half-written temporary file and no main file: the defaults.
    for what, kind, main, tmp, want in (
        ("not renamed", "lfs2", json.dumps(custom()), json.dumps(newer), custom_values()),
        ("removed, not renamed", "fat", None, json.dumps(custom()), custom_values()),
        ("half a temporary file", "lfs2", None, json.dumps(custom())[:40], DEFAULTS),
    ):
        fresh(kind)
        if main is not None:
            write(PATH, main)
        write(TMP, tmp)
        got = values(Settings.load(PATH))
        check(got == want, "%s: %r" % (what, got))
        check(not exists(TMP), what + ": the temporary file is left")
        check(want == DEFAULTS or stored() == want, what + ": not on the flash")


def test_rename_fallback_when_fs_refuses_overwrite():
    fresh()
    write(PATH, json.dumps(custom()))  # a file there to rename onto
    s = Settings.load(PATH)
    calls = []

    class StrictOs:
        remove = os.remove

        def rename(src, dst):
            calls.append(dst)
            if exists(dst):
                raise OSError(17)  # EEXIST, as some filesystems do
            os.rename(src, dst)

    settings.os = StrictOs  # built-in modules are read-only; the module's global is not
    try:
        s.set("level", 2)
        check(s.save(), "save failed")
    finally:
        settings.os = os
    check(len(calls) == 2 and stored()["level"] == 2 and not exists(TMP), repr(calls))


def test_a_failed_save_leaves_no_temporary_file():
    disk = fresh()
    s = Settings.load(PATH)
    write(PATH, json.dumps(custom()))
    for n in range(disk.ioctl(4, 0) * 4):  # fill the flash so the write fails part-way
        try:
            write(MNT + "/fill%d" % n, "x" * 2000)
        except OSError:
            break
    s.set("contrast", 50)
    s.dumps = lambda: "x" * 20000  # more than the space left
    check(s.save() is False, "the save should fail on a full flash")
    check(not exists(TMP), "a failed save left " + TMP)


def test_a_failed_save_is_reported_once_until_one_succeeds():
    # A directory named settings.json: FAT refuses the rename (EISDIR); littlefs would remove
    # an empty directory to make room, so there it holds a file.
    for kind in ("fat", "lfs2"):
        fresh(kind)
        os.mkdir(PATH)
        if kind == "lfs2":
            write(PATH + "/keep", "x")
        heard = []
        s = Settings.load(PATH, report=heard.append)
        check(values(s) == DEFAULTS and not s.dirty and heard == [], "%s: %r" % (kind, heard))
        s.set("contrast", 50)
        check(s.save() is False and s.dirty, "%s: a failed save keeps the change" % kind)
        check(s.save() is False and len(heard) == 1, repr(heard))
        check(heard[0].startswith(PATH + " not saved: ") and "EISDIR" in heard[0], heard[0])
        if kind == "lfs2":
            os.remove(PATH + "/keep")
        os.rmdir(PATH)
        check(s.save() and stored()["contrast"] == 50 and len(heard) == 1, repr(heard))
        os.remove(PATH)
        os.mkdir(PATH)
        if kind == "lfs2":
            write(PATH + "/keep", "x")
        s.set("contrast", 51)
        check(s.save() is False and len(heard) == 2, "failing again is news: %r" % heard)
    os.umount(MNT)
    gc.collect()  # the later power-cut tests need a 32 KB disk image in one piece


def power_cut_every_step(kind, torn):
    """Save a change with the flash logging every operation; mount the image as it was at
    every point of the write (with `torn`, half-done writes included) and load it."""
    disk = fresh(kind)
    write(PATH, json.dumps(custom()))
    s = Settings.load(PATH)
    s.set("contrast", 77)
    s.count("tally1", 0)
    new = custom_values()
    new["contrast"], new["tally1"] = 77, (4, 2, 1)
    os.umount(MNT)
    cls = os.VfsLfs2 if kind == "lfs2" else os.VfsFat
    os.mount(cls(disk), MNT)
    before = bytes(disk.data)
    disk.log = []
    check(s.save())
    os.umount(MNT)
    seen = {"old": 0, "new": 0, "defaults": 0}
    for image in disk.cut_images(before, torn):
        ramdisk.mount(kind, MNT, ramdisk.RAMDisk(disk.block_size, image=image), fresh=False)
        got = values(Settings.load(PATH))
        os.umount(MNT)
        if got == custom_values():
            seen["old"] += 1
        elif got == new:
            seen["new"] += 1
        else:
            check(got == DEFAULTS, "mixed state after a cut: %r" % got)
            seen["defaults"] += 1
    return len(disk.log), seen


# (filesystem, half-done writes too, may fall back to defaults). littlefs (the Pico's and
# ESP32's default) is copy-on-write with checksummed commits: even a cut in the middle of a
# block write leaves the old or the new file. FAT with atomic sector writes (an SD card): cuts
# between sector writes, the remove-then-rename window of MicroPython's FAT rename included,
# keep the old or the new file. FAT on raw flash is not power-safe: a directory sector erased
# or half rewritten garbles its entries, so the settings may fall back to defaults; loading
# never fails or mixes old and new values (power_cut_every_step checks that at every cut).
CUTS = (("lfs2", True, False), ("fat", False, False), ("fat", True, True))


def test_a_power_cut_at_every_flash_operation_leaves_the_old_or_the_new_settings():
    for kind, torn, may_lose in CUTS:
        ops, seen = power_cut_every_step(kind, torn)
        what = "%s%s: %d operations %r" % (kind, " torn" if torn else "", ops, seen)
        print(what)
        check(ops > 0 and seen["old"] > 0 and seen["new"] > 0, what)
        check(may_lose or seen["defaults"] == 0, what + ": lost the settings at a cut")


mptest.run(globals())
