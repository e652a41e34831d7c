# Settings and tallies in one small JSON file on flash: validated, written atomically.
# SPDX-License-Identifier: MIT
import json
import os

from micropython import const
from valid import int_in

LEVEL_COUNT = const(4)  # len(engine.LEVELS), the settings' own copy: see "level" below
TALLY_MAX = const(999)  # three digits fit the status column; counts saturate here
BOOTS_MAX = const(999999999)  # the boot count stops here (a small int on every port)
_SECONDS_MAX = const(3600)
_READ_MAX = const(512)  # a good file is ~150 bytes; anything longer is not ours

# The filesystem the game keeps its files on (this one and error.log), held while they are used.
# A board that runs MicroPython from its filesystem (the game's .mpy files there, imported from
# there) keeps it mounted at / all the time: `lend` stays None and use() and done() do nothing.
# A board with the game frozen into its firmware needs it only for these files: its main.py
# lends it (frozen/main.py), so it is mounted from the first use() to the matching done() and
# let go between. Mounted, littlefs holds two caches of 4 x its program size
# (extmod/vfs_lfsx.c; 1 KB each on the rp2's 256-byte pages): a game between saves holds
# neither. Here rather than in a module of its own: on stock MicroPython one file more in the
# root cost the boot 42 ms of littlefs look-ups (docs/benchmarks.md, "The lent filesystem").
lend = None  # (mount, release): callables that mount the filesystem at / and let it go again
_users = 0  # use()s not yet done()


def use():
    """The filesystem is wanted until the matching done() (calls nest): errorlog.py's writes,
    this module's loading and saving."""
    global _users
    if not _users and lend is not None:
        lend[0]()
    _users += 1


def done():
    """The matching use()'s file work is over: the last one lets a lent filesystem go."""
    global _users
    _users -= 1
    if not _users and lend is not None:
        lend[1]()


# The only keys, in the order they are written, and _SPEC in the same order: per key four
# items, its default, kind, low, high; kind is "int" (a plain int, not a bool), "bool", or
# "tally" (three ints). (const(): the table lives with the code's constants, no dict in RAM;
# flat, not a tuple per key: a port that loads the code into RAM makes each tuple an object.)
# - contrast: Vop; modules look right at about 40..72. Capped at CONTRAST_MAX = 90: the
#   PCD8544's voltage generator is specified up to 8.5 V (VLCD = 3.06 V + 0.06 V * Vop).
# - level: index into engine.LEVELS; default the strongest but one, so a new player can still
#   win a game (PERF is one press away). Its range is a constant rather than the engine's
#   tuple, so that loading the settings (safe mode does) never loads the engine; test_settings
#   holds the two equal.
# - starts: who begins against the CPU: 0 you, 1 the CPU, 2 alternate (the default, so the
#   player is not always second).
# - dim_s / sleep_s: idle seconds before the backlight goes off / the display powers down and
#   the board sleeps lightly; 0 means never.
# - sound: the buzzer plays (boards without one stay silent either way).
# - coach: on a player's turn each free cell shows its exact value (coach.py); off by default,
#   so a first game is a plain game. coach_told: what the marks mean has been shown on the glass
#   (once per device, the first time the coach is turned on).
# - boots: how many times the game has started (count_boot), so that error.log's lines can say
#   which start they belong to on a board with no clock set. Saturates at BOOTS_MAX; a file
#   from before it existed, or one kept aside as settings.bad, starts again from 0.
CONTRAST_MAX = const(90)
KEYS = (
    "contrast",
    "backlight",
    "level",
    "starts",
    "tally1",
    "tally2",
    "tally_link",
    "dim_s",
    "sleep_s",
    "sound",
    "coach",
    "coach_told",
    "boots",
)
_SPEC = const(
    (
        60, "int", 0, CONTRAST_MAX,  # contrast
        True, "bool", 0, 1,  # backlight
        LEVEL_COUNT - 2, "int", 0, LEVEL_COUNT - 1,  # level
        2, "int", 0, 2,  # starts
        (0, 0, 0), "tally", 0, TALLY_MAX,  # tally1: wins, draws, losses against the CPU
        (0, 0, 0), "tally", 0, TALLY_MAX,  # tally2: X wins, O wins, draws (two players)
        (0, 0, 0), "tally", 0, TALLY_MAX,  # tally_link: wins, draws, losses against another board
        30, "int", 0, _SECONDS_MAX,  # dim_s
        120, "int", 0, _SECONDS_MAX,  # sleep_s
        True, "bool", 0, 1,  # sound
        False, "bool", 0, 1,  # coach
        False, "bool", 0, 1,  # coach_told
        0, "int", 0, BOOTS_MAX,  # boots
    )
)  # fmt: skip


def check(key, value):
    """Return `value` normalised for `key` (tallies become tuples); raise ValueError if it is
    not allowed, saying what is."""
    if key not in KEYS:
        raise ValueError("unknown setting %r; allowed: %s" % (key, ", ".join(KEYS)))
    at = 4 * KEYS.index(key)
    kind, low, high = _SPEC[at + 1], _SPEC[at + 2], _SPEC[at + 3]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise ValueError("%s must be True or False, not %r" % (key, value))
    if kind == "int":
        return int_in(key, value, low, high)
    if isinstance(value, (list, tuple)) and len(value) == 3:
        try:
            return tuple(int_in(key, n, low, high) for n in value)
        except ValueError:
            pass  # said below, of the whole tally
    raise ValueError("%s must be three ints %d..%d, not %r" % (key, low, high, value))


class Settings:
    """The settings and tallies, kept in memory and saved to one JSON file.

    On flash the file is replaced atomically: the new content goes to `<path>.tmp`, which is
    then renamed over `<path>`. littlefs renames atomically, so a power cut leaves either the old
    or the new file. MicroPython's FAT driver implements rename onto an existing name as remove
    then rename, so a cut between the two leaves only the temporary file: `load()` recovers it.
    """

    def __init__(self, path="settings.json", report=None):
        self._path = path
        self._values = {}
        for i in range(len(KEYS)):
            self._values[KEYS[i]] = _SPEC[4 * i]
        self.dirty = True  # changes not yet written (save)
        # report(text) hears of a save that failed (runner.py logs it), once until one
        # succeeds: the app tries again after every game, and the log must not fill with the
        # same line. Public: the runner hands it over once the boot has its number.
        self.report = report
        self._failing = False

    @classmethod
    def load(cls, path="settings.json", report=None):
        """Read `path`; never raises. Each missing, wrong-typed or out-of-range key falls back to
        its default (the other keys are kept); a missing or unreadable file gives all defaults.
        A file that is there but does not parse as ours (a hand edit, zero bytes, binary) is
        kept as `<name>.bad` (its first _READ_MAX bytes, one copy: the latest) and reported.
        The file is rewritten when it held anything else than these values; a missing file is
        not written until something changes (no flash write at a first boot). `report`: see
        save()."""
        use()
        try:
            self = cls(path, report)
            stored = _read(path)
            from_tmp = False
            if stored is None:
                bad = _there(path)
                if bad:  # kept for a human by errorlog, loaded only for such a file
                    import errorlog

                    errorlog.keep_copy(path, bad_path(path), _READ_MAX, report)
                stored = _read(path + ".tmp")  # FAT: power cut between remove and rename
                from_tmp = stored is not None
                if bad and not from_tmp:
                    stored = {}  # there but unreadable: rewritten with the defaults
            clean = stored is not None and not from_tmp and len(stored) == len(KEYS)
            if stored is not None:
                for key in KEYS:
                    try:
                        self._values[key] = check(key, stored[key])
                    except (KeyError, ValueError):
                        clean = False
            self.dirty = stored is not None and not clean
            self.save()
            _remove(path + ".tmp")  # a leftover from a cut write: the main file wins
            return self
        finally:
            done()

    def get(self, key):
        """The value of `key` (tallies are tuples); ValueError for an unknown key."""
        if key not in self._values:
            raise ValueError("unknown setting %r; allowed: %s" % (key, ", ".join(KEYS)))
        return self._values[key]

    def set(self, key, value):
        """Change `key` in memory (see save); ValueError for a wrong key, type or range."""
        value = check(key, value)
        if self._values[key] != value:
            self._values[key] = value
            self.dirty = True

    def count(self, key, index):
        """Add one to entry `index` of a tally ("tally1", "tally2", "tally_link"), saturating at
        TALLY_MAX."""
        tally = list(self.get(key))
        tally[index] = min(tally[index] + 1, TALLY_MAX)
        self.set(key, tally)

    def count_boot(self):
        """Count this start of the game: "boots" goes up by one (stopping at BOOTS_MAX) in
        memory, and is written by the next save like any change. Returns the new count. A board
        that hangs at every start before anything is saved keeps one number, so
        errorlog.note_once logs such a run once; a start whose count was saved gets the next."""
        boots = min(self._values["boots"] + 1, BOOTS_MAX)
        self.set("boots", boots)
        return boots

    def save(self):
        """Write the file if anything changed since the last write (flash wears). Returns True
        when the file holds the current values; False if writing failed (full or read-only
        flash, a directory in the way): the game goes on and the next save tries again. The
        first failure of a run is passed to report(text) as "<path> not saved: <the OSError>";
        the next is reported only after a save has worked."""
        if not self.dirty:
            return True
        use()
        try:
            tmp = self._path + ".tmp"
            try:
                with open(tmp, "w") as f:
                    f.write(self.dumps())
                try:
                    os.rename(tmp, self._path)
                except OSError:
                    # A filesystem that refuses to rename onto an existing name.
                    _remove(self._path)
                    os.rename(tmp, self._path)
            except OSError as err:
                _remove(tmp)  # a half-written temporary file helps nobody
                if not self._failing and self.report is not None:
                    self.report("%s not saved: %s" % (self._path, err))
                self._failing = True
                return False
            self.dirty = False
            self._failing = False
            return True
        finally:
            done()

    def dumps(self):
        """The file's content: one JSON object, keys always in the same order."""
        parts = []
        for key in KEYS:
            value = self._values[key]
            if isinstance(value, tuple):
                value = list(value)
            parts.append('"%s": %s' % (key, json.dumps(value)))
        return "{" + ", ".join(parts) + "}\n"


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


def bad_path(path):
    """Where an unreadable settings file is kept: settings.json -> settings.bad."""
    return (path[:-5] if path.endswith(".json") else path) + ".bad"


def _there(path):
    # True if `path` is a file that opens (one that did not parse, rather than none at all; a
    # directory of that name is no file to keep).
    try:
        open(path, "rb").close()
        return True
    except OSError:
        return False


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
