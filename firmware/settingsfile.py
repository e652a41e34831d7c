# Reading the settings file at a boot: what is stored, and keeping a file that does not parse.
# SPDX-License-Identifier: MIT
# settings.Settings.load imports this module for the one read a boot does and then lets it go
# (sys.modules): a game never holds this code in RAM.
import json

from micropython import const

_READ_MAX = const(512)  # a good file is ~150 bytes; anything longer is not ours


def read(path, report):
    """What `path` stores, as (values, as_is): values is the parsed JSON object (None: nothing
    usable, all defaults), as_is False when it must be rewritten even if every key is good (it
    came from `<path>.tmp`, or the file was there but unreadable: values is then {}). A file
    that is there but does not parse is kept as bad_path(path) and reported (see
    settings.Settings.load)."""
    stored = _read(path)
    if stored is not None:
        return stored, True
    bad = _keep_bad(path, report)
    stored = _read(path + ".tmp")  # FAT: power cut between remove and rename
    if stored is None and bad:
        stored = {}  # there but unreadable: rewritten with the defaults
    return stored, False


def bad_path(path):
    """Where an unreadable settings file is kept: settings.json -> settings.bad."""
    return (path[:-5] if path.endswith(".json") else path) + ".bad"


def _read(path):
    # The parsed JSON object in `path`, or None when missing, unreadable, too long or not an
    # object. MicroPython raises ValueError for bad JSON; CPython a subclass of it.
    try:
        with open(path) as f:
            text = f.read(_READ_MAX + 1)
    except (OSError, UnicodeError):
        return None
    if len(text) > _READ_MAX:
        return None
    try:
        stored = json.loads(text)
    except Exception:  # ValueError for bad JSON; whatever else a hostile file provokes
        return None
    return stored if isinstance(stored, dict) else None


def _keep_bad(path, report):
    # True if `path` is there (it did not parse): its first bytes are copied to bad_path(path)
    # and report(text) hears of it. A copy that cannot be made is reported all the same.
    try:
        with open(path, "rb") as f:
            raw = f.read(_READ_MAX)
    except OSError:
        return False  # missing: nothing was lost
    bad = bad_path(path)
    try:
        with open(bad, "wb") as f:
            f.write(raw)
        kept = "kept as " + bad
    except OSError as err:
        kept = "not kept: %s" % err
    if report is not None:
        report("%s unreadable (%d bytes), defaults used; %s" % (path, len(raw), kept))
    return True
