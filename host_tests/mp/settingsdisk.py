# The RAM flash disk, its settings files and the values written to them, for the MicroPython checks
# of settings.py (mp_settings.py, mp_settings_save.py).
# SPDX-License-Identifier: MIT
import json
import os

import ramdisk
from settings import KEYS, Settings

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
        "tally_link": [4, 5, 6],
        "dim_s": 0,
        "sleep_s": 600,
        "sound": False,
        "coach": True,
        "coach_told": True,
        "boots": 41,
    }


def custom_values():
    out = custom()
    out["tally1"], out["tally2"], out["tally_link"] = (3, 2, 1), (7, 8, 9), (4, 5, 6)
    return out
