# settings.py on a simulated flash filesystem (littlefs and FAT on a RAM block device): loading,
# repairing and validating; then saving, the temporary file and its rename, failed saves, a
# power cut at every flash operation.
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
from settings import BOOTS_MAX, KEYS, TALLY_MAX, Settings

MNT = "/flash"
PATH = MNT + "/settings.json"
TMP = PATH + ".tmp"
BAD = MNT + "/settings.bad"


def fresh(kind="lfs2"):
    try:
        os.umount(MNT)
    except OSError:
        pass
    return ramdisk.mount(kind, MNT)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def values(s):
    return {key: s.get(key) for key in KEYS}


DEFAULTS = values(Settings())


def tuples(data):
    """`data` with its lists (the tallies) as tuples, for comparing with values()."""
    return {key: tuple(v) if isinstance(v, list) else v for key, v in data.items()}


def stored(path=PATH):
    return tuples(json.loads(read(path)))


def custom():
    return {
        "contrast": 45,
        "backlight": False,
        "level": 0,
        "starts": 1,
        "tally1": [3, 2, 1],
        "tally2": [7, 8, 9],
        "tally_link": [4, 5, 6],
        "dim_s": 0,
        "sleep_s": 600,
        "sound": False,
        "coach": True,
        "coach_told": True,
        "boots": 41,
    }


def custom_values():
    return tuples(custom())


def test_defaults_documented():
    check(DEFAULTS["contrast"] == 60 and DEFAULTS["backlight"] is True)
    check(DEFAULTS["starts"] == 2 and DEFAULTS["dim_s"] == 30 and DEFAULTS["sleep_s"] == 120)
    check(DEFAULTS["tally1"] == (0, 0, 0) and DEFAULTS["tally2"] == (0, 0, 0))
    check(DEFAULTS["tally_link"] == (0, 0, 0))
    check(DEFAULTS["sound"] is True)
    check(DEFAULTS["coach"] is False and DEFAULTS["coach_told"] is False, "the coach starts off")
    check(DEFAULTS["boots"] == 0, "no start counted yet")


def test_missing_file_gives_defaults_and_nothing_is_written_until_a_change():
    disk = fresh()
    before = disk.writes
    s = Settings.load(PATH)
    check(values(s) == DEFAULTS)
    check(disk.writes == before and not exists(PATH), "a first boot wrote the flash")
    check(not exists(TMP) and not s.dirty)
    s.set("sound", False)
    check(s.save() and stored()["sound"] is False, "a change is written")


def test_good_file_is_read_and_not_rewritten():
    disk = fresh()
    write(PATH, json.dumps(custom()))
    before = disk.writes
    s = Settings.load(PATH)
    check(values(s) == custom_values())
    check(disk.writes == before, "a good file must not be rewritten")


def test_corrupt_files_give_defaults_and_are_rewritten():
    bad = (
        "",
        "{",
        "not json",
        "[1, 2, 3]",
        "null",
        '"text"',
        "{}",
        '{"contrast": 60,',
        "\xff\xfe garbage",
        "{" + " " * 600 + "}",  # longer than any file we write
        "[" * 300 + "]" * 300,
    )
    for text in bad:
        fresh()
        write(PATH, text)
        heard = []
        s = Settings.load(PATH, report=heard.append)
        check(values(s) == DEFAULTS, repr(text))
        check(stored() == DEFAULTS, "not rewritten after " + repr(text))
        if text in ("{}",):  # an object, ours or not: repaired key by key, nothing to keep
            check(heard == [] and not exists(BAD), repr(heard))
            continue
        # What did not parse is kept (its first 512 bytes, as read) and reported, once.
        with open(BAD, "rb") as f:
            kept = f.read()
        check(kept == text.encode()[:512], "%r kept as %r" % (text, kept))
        check(len(heard) == 1 and "unreadable" in heard[0] and BAD in heard[0], repr(heard))


def test_a_hand_edit_with_python_quotes_is_kept_and_only_the_latest_bad_file():
    fresh()
    write(PATH, "{'contrast': 50, 'sound': False}")
    heard = []
    Settings.load(PATH, report=heard.append)
    check(read(BAD) == "{'contrast': 50, 'sound': False}" and len(heard) == 1, repr(heard))
    write(PATH, "")
    Settings.load(PATH, report=heard.append)
    check(read(BAD) == "" and len(heard) == 2 and "(0 bytes)" in heard[1], repr(heard))
    check(sorted(os.listdir(MNT)) == ["settings.bad", "settings.json"], repr(os.listdir(MNT)))


def test_each_bad_key_falls_back_alone():
    wrong = {
        "contrast": (-1, 91, 128, 60.0, "60", True, None, [60]),
        "backlight": (1, 0, "yes", None),
        "level": (-1, 4, 1.0, False),
        "starts": (3, -1, "cpu"),
        "tally1": ([1, 2], [1, 2, 3, 4], [1, -1, 0], [0, 0, TALLY_MAX + 1], [1.0, 0, 0], 5),
        "tally2": ("abc", [True, 0, 0], {"x": 1}),
        "tally_link": ([0, 0], None, [0, 0, "1"]),
        "dim_s": (-5, 3601, 30.5),
        "sleep_s": (10**20, "120"),
        "sound": (0, "off", None),
        "coach": (1, "on", None),
        "coach_told": (0, [True]),
        "boots": (-1, BOOTS_MAX + 1, 1.0, True, "41"),
    }
    for key in KEYS:
        for value in wrong[key]:
            fresh()
            data = custom()
            data[key] = value
            write(PATH, json.dumps(data))
            s = Settings.load(PATH)
            expect = custom_values()
            expect[key] = DEFAULTS[key]
            check(values(s) == expect, "%s=%r -> %r" % (key, value, values(s)))
            check(stored() == expect, "file not repaired for %s=%r" % (key, value))


# Files from an older firmware (or edited by hand): (what the file is, the keys it lacks, the
# keys it has that are not ours). A lacking key gets its default, an unknown one is dropped, and
# the file is rewritten so.
OLD_FILES = (
    ("from before the sound setting", ("sound",), {}),
    ("from before the coach", ("coach", "coach_told"), {}),
    ("from before the boot count", ("boots",), {}),
    ("without tally2, with a colour", ("tally2",), {"colour": "green"}),
    ("with a colour", (), {"colour": "green"}),
)


def test_missing_keys_get_their_defaults_unknown_ones_go_and_the_file_is_rewritten():
    for name, lacks, unknown in OLD_FILES:
        disk = fresh()
        data = custom()
        expect = custom_values()
        for key in lacks:
            del data[key]
            expect[key] = DEFAULTS[key]
        data.update(unknown)
        write(PATH, json.dumps(data))
        before = disk.writes
        s = Settings.load(PATH)
        check(values(s) == expect, "a file %s: %r" % (name, values(s)))
        check(stored() == expect and disk.writes > before, "a file %s: not rewritten" % name)


def test_a_file_from_before_the_boot_count_counts_from_zero():
    disk = fresh()
    data = custom()
    del data["boots"]
    write(PATH, json.dumps(data))
    s = Settings.load(PATH)
    before = disk.writes
    check(s.count_boot() == 1 and s.get("boots") == 1)
    check(s.dirty and disk.writes == before, "the count is written by the next save, not now")


def test_the_boot_count_saturates_and_the_fullest_file_loads_back():
    fresh()
    data = custom()
    data["boots"] = BOOTS_MAX - 1
    data["tally1"] = data["tally2"] = [TALLY_MAX] * 3
    write(PATH, json.dumps(data))
    s = Settings.load(PATH)
    check(not s.dirty and s.count_boot() == BOOTS_MAX and s.dirty, repr(values(s)))
    check(s.save() and not s.dirty and stored()["boots"] == BOOTS_MAX)
    s = Settings.load(PATH)
    check(s.count_boot() == BOOTS_MAX and not s.dirty, "the count went past its maximum")
    check(s.get("tally1") == (TALLY_MAX,) * 3, "the fullest file did not load back")


def test_set_validates():
    s = Settings()
    for key, value in (
        ("contrast", 91),
        ("contrast", 128),
        ("contrast", True),
        ("backlight", 1),
        ("level", 4),
        ("starts", None),
        ("tally1", (1, 2)),
        ("nope", 1),
        (None, 1),
    ):
        try:
            s.set(key, value)
        except ValueError as exc:
            check(str(exc), "empty message")
        else:
            check(False, "accepted %r=%r" % (key, value))
    try:
        s.get("nope")
        check(False, "get of an unknown key")
    except ValueError:
        pass
    s.set("tally1", [4, 5, 6])
    check(s.get("tally1") == (4, 5, 6))


def test_writes_only_when_changed():
    disk = fresh()
    s = Settings.load(PATH)
    base = disk.writes
    check(s.save() and disk.writes == base, "save without changes wrote")
    s.set("contrast", DEFAULTS["contrast"])
    s.set("tally1", [0, 0, 0])
    s.save()
    check(disk.writes == base, "setting equal values wrote")
    s.set("contrast", 70)
    check(s.dirty and s.save() and not s.dirty)
    after = disk.writes
    check(after > base, "a change was not written")
    s.save()
    check(disk.writes == after, "second save wrote again")
    check(Settings.load(PATH).get("contrast") == 70)
    check(disk.writes == after, "loading what was just saved wrote")


def test_count_tally():
    s = Settings()
    s.count("tally1", 0)
    s.count("tally1", 2)
    s.count("tally2", 1)
    check(s.get("tally1") == (1, 0, 1) and s.get("tally2") == (0, 1, 0))
    s.set("tally2", (TALLY_MAX, 0, 0))
    s.count("tally2", 0)
    check(s.get("tally2") == (TALLY_MAX, 0, 0), "tally must saturate")
    s.count("tally_link", 2)
    check(s.get("tally_link") == (0, 0, 1))


# -- saving ------------------------------------------------------------------------------------


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
