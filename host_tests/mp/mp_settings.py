# settings.py on a simulated flash filesystem (littlefs and FAT on a RAM block device).
# SPDX-License-Identifier: MIT
import gc
import json
import os
import sys

import mptest
import ramdisk
import settings
from mptest import check
from settings import KEYS, TALLY_MAX, Settings

MNT = "/flash"
PATH = MNT + "/settings.json"
TMP = PATH + ".tmp"
BAD = MNT + "/settings.bad"
DEFAULTS = {}
for _key in KEYS:
    DEFAULTS[_key] = Settings().get(_key)


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
    out = {}
    for key in KEYS:
        out[key] = s.get(key)
    return out


def stored(path=PATH):
    """The file parsed, tallies as tuples, for comparing with values()."""
    out = json.loads(read(path))
    for key in out:
        if isinstance(out[key], list):
            out[key] = tuple(out[key])
    return out


def custom():
    return {
        "contrast": 45,
        "backlight": False,
        "level": 0,
        "starts": 1,
        "tally1": [3, 2, 1],
        "tally2": [7, 8, 9],
        "dim_s": 0,
        "sleep_s": 600,
        "sound": False,
    }


def custom_values():
    out = custom()
    out["tally1"], out["tally2"] = (3, 2, 1), (7, 8, 9)
    return out


def test_defaults_documented():
    check(DEFAULTS["contrast"] == 60 and DEFAULTS["backlight"] is True)
    check(DEFAULTS["starts"] == 2 and DEFAULTS["dim_s"] == 30 and DEFAULTS["sleep_s"] == 120)
    check(DEFAULTS["tally1"] == (0, 0, 0) and DEFAULTS["tally2"] == (0, 0, 0))
    check(DEFAULTS["sound"] is True)


def test_missing_file_gives_defaults_and_nothing_is_written_until_a_change():
    disk = fresh()
    before = disk.writes
    s = Settings.load(PATH)
    check(values(s) == DEFAULTS)
    check(disk.writes == before and not exists(PATH), "a first boot wrote the flash")
    check(not exists(TMP) and not s.dirty)
    s.set("sound", False)
    check(s.save() and stored()["sound"] is False, "a change is written")


def test_the_reading_code_is_let_go_after_each_load():
    # settingsfile (reading the file, keeping a bad one) runs at a boot only: loaded for the
    # read, it leaves sys.modules again, and a second load brings it back.
    fresh()
    write(PATH, json.dumps(custom()))
    for _ in range(2):
        s = Settings.load(PATH)
        check(values(s) == custom_values(), "the file was not read")
        check("settingsfile" not in sys.modules, "settingsfile kept in sys.modules")


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


def test_each_bad_key_falls_back_alone():
    wrong = {
        "contrast": (-1, 91, 128, 60.0, "60", True, None, [60]),
        "backlight": (1, 0, "yes", None),
        "level": (-1, 4, 1.0, False),
        "starts": (3, -1, "cpu"),
        "tally1": ([1, 2], [1, 2, 3, 4], [1, -1, 0], [0, 0, TALLY_MAX + 1], [1.0, 0, 0], 5),
        "tally2": ("abc", [True, 0, 0], {"x": 1}),
        "dim_s": (-5, 3601, 30.5),
        "sleep_s": (10**20, "120"),
        "sound": (0, "off", None),
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


def test_missing_and_unknown_keys_repaired():
    fresh()
    data = custom()
    del data["tally2"]
    data["colour"] = "green"
    write(PATH, json.dumps(data))
    s = Settings.load(PATH)
    expect = custom_values()
    expect["tally2"] = DEFAULTS["tally2"]
    check(values(s) == expect)
    check(stored() == expect)


def test_a_file_from_before_the_sound_setting_loads_with_sound_on():
    # Written by a firmware without a buzzer: its eight keys are kept, "sound" is added on.
    disk = fresh()
    data = custom()
    del data["sound"]
    write(PATH, json.dumps(data))
    before = disk.writes
    s = Settings.load(PATH)
    expect = custom_values()
    expect["sound"] = True
    check(values(s) == expect, repr(values(s)))
    check(stored() == expect and disk.writes > before, "rewritten with the new key")


def test_an_unknown_key_alone_is_dropped_and_the_file_rewritten():
    fresh()
    data = custom()
    data["colour"] = "green"
    write(PATH, json.dumps(data))
    s = Settings.load(PATH)
    check(values(s) == custom_values())
    check("colour" not in read(PATH), "the unknown key is still in the file")
    check(stored() == custom_values())


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


def test_count_and_reset_tally():
    s = Settings()
    s.count("tally1", 0)
    s.count("tally1", 2)
    s.count("tally2", 1)
    check(s.get("tally1") == (1, 0, 1) and s.get("tally2") == (0, 1, 0))
    s.set("tally2", (TALLY_MAX, 0, 0))
    s.count("tally2", 0)
    check(s.get("tally2") == (TALLY_MAX, 0, 0), "tally must saturate")
    s.reset_tally()
    check(s.get("tally1") == (0, 0, 0) and s.get("tally2") == (0, 0, 0))


def test_cut_between_temp_write_and_rename():
    # The temporary file is complete but the rename never happened: the old file wins.
    fresh()
    write(PATH, json.dumps(custom()))
    new = custom()
    new["contrast"] = 77
    write(TMP, json.dumps(new))
    s = Settings.load(PATH)
    check(values(s) == custom_values())
    check(not exists(TMP), "leftover temporary file not removed")


def test_recovers_temp_when_main_missing():
    # FAT renames onto an existing name as remove + rename: a cut between leaves only the temp.
    fresh("fat")
    write(TMP, json.dumps(custom()))
    s = Settings.load(PATH)
    check(values(s) == custom_values())
    check(stored() == custom_values() and not exists(TMP))


def test_partial_temp_and_no_main_gives_defaults():
    fresh()
    write(TMP, json.dumps(custom())[:40])
    check(values(Settings.load(PATH)) == DEFAULTS)


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


def test_save_failure_is_reported_not_raised():
    fresh()
    s = Settings.load(MNT + "/no/such/dir/settings.json")
    check(values(s) == DEFAULTS and not s.dirty, "nothing to write until a change")
    s.set("contrast", 50)
    check(s.save() is False and s.dirty)


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
        check(s.save() is False and s.save() is False and len(heard) == 1, repr(heard))
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


def test_power_cut_at_every_flash_operation_littlefs():
    # littlefs (the Pico's and ESP32's default filesystem) is copy-on-write with checksummed
    # commits: even a cut in the middle of a block write leaves the old or the new file.
    ops, seen = power_cut_every_step("lfs2", torn=True)
    print("littlefs", ops, "operations", seen)
    check(ops > 0 and seen["old"] > 0 and seen["new"] > 0)
    check(seen["defaults"] == 0, "littlefs lost the settings at a cut")


def test_power_cut_between_flash_operations_fat():
    # FAT with atomic sector writes (an SD card): cuts between sector writes, including the
    # remove-then-rename window of MicroPython's FAT rename, keep the old or the new file.
    ops, seen = power_cut_every_step("fat", torn=False)
    print("fat", ops, "operations", seen)
    check(ops > 0 and seen["old"] > 0 and seen["new"] > 0)
    check(seen["defaults"] == 0, "FAT lost the settings at a cut")


def test_power_cut_tearing_a_sector_fat_still_starts():
    # FAT on raw flash is not power-safe: a directory sector erased or half rewritten garbles
    # its entries. The settings may then fall back to defaults, but loading never fails or
    # mixes old and new values. (The Pico and ESP32 ports format their flash as littlefs.)
    ops, seen = power_cut_every_step("fat", torn=True)
    print("fat torn", ops, "operations", seen)
    check(seen["old"] > 0 and seen["new"] > 0)


mptest.run(globals())
