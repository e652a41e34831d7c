# The filesystem the game keeps its files on (settings.json, error.log), held while they are used.
# SPDX-License-Identifier: MIT
"""A board that runs MicroPython from its filesystem (the game's .mpy files there, imported from
there) keeps it mounted at / all the time: `lend` stays None and use() and done() do nothing.
A board with the game frozen into its firmware needs the filesystem only for the game's own
files: its main.py lends it (frozen/main.py), so it is mounted from the first use() to the
matching done() and let go between. Mounted, littlefs holds two caches of 4 x its program size
(extmod/vfs_lfsx.c; 1 KB each on the rp2's 256-byte pages): a game between saves holds
neither. settings.py and errorlog.py bracket their file work with use() and done()."""

lend = None  # (mount, release): callables that mount the filesystem at / and let it go again
_users = 0  # use()s not yet done()


def use():
    """The filesystem is wanted until the matching done() (calls nest)."""
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
