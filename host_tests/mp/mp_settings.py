# settings.py on a simulated flash filesystem (littlefs and FAT on a RAM block device): loading,
# repairing and validating. Saving, the atomic rename and power cuts: mp_settings_save.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=256k
import json
import os

import mptest
from mptest import check
from settings import BOOTS_MAX, KEYS, TALLY_MAX, Settings
from settingsdisk import (
    BAD,
    DEFAULTS,
    MNT,
    PATH,
    TMP,
    custom,
    custom_values,
    exists,
    fresh,
    read,
    stored,
    values,
    write,
)


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


mptest.run(globals())
