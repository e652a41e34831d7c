# settings.use()/done(): a filesystem lent to the game (as the frozen images lend theirs) is
# mounted only while settings.py and errorlog.py use a file, and what they write is there after.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
# The lent filesystem is littlefs on a RAM disk with the Pico's geometry, mounted at /lent by
# the lend's mount and unmounted by its release: a file used outside use()..done() is not there
# (OSError), so a save or a log line made without the filesystem held fails here.
import errorlog
import mptest
import ramdisk
import settings
import vfs
from mptest import check

DISK = ramdisk.RAMDisk(ramdisk.PICO_BLOCK, 16)
vfs.VfsLfs2.mkfs(DISK, progsize=ramdisk.PICO_PROGSIZE)
MOUNTS = []


def _mount():
    MOUNTS.append(1)
    vfs.mount(vfs.VfsLfs2(DISK, progsize=ramdisk.PICO_PROGSIZE), "/lent")


def _release():
    vfs.umount("/lent")


def mounted():
    return any(point == "/lent" for _fs, point in vfs.mount())


def lent(fn):
    # fn() with the RAM disk lent, as frozen/main.py lends the flash; lent no more after.
    settings.lend = (_mount, _release)
    try:
        return fn()
    finally:
        settings.lend = None


def test_settings_are_read_and_saved_on_the_lent_filesystem_and_let_go_between():
    def run():
        s = settings.Settings.load("/lent/settings.json")
        check(not mounted(), "held after loading")
        s.set("level", 1)
        before = len(MOUNTS)
        check(s.save(), "not saved")
        check(len(MOUNTS) == before + 1 and not mounted(), "one mount for the save, let go")
        s.save()  # nothing changed: nothing to write
        check(len(MOUNTS) == before + 1, "mounted for nothing")
        return settings.Settings.load("/lent/settings.json").get("level")

    check(lent(run) == 1, "the level was not kept")


def test_error_log_lines_are_written_on_the_lent_filesystem():
    def run():
        errorlog.note("one", 7, "/lent/error.log")
        errorlog.note_once("one", 7, "/lent/error.log")  # the same line: not again
        errorlog.note("two", 7, "/lent/error.log")
        check(not mounted(), "held after logging")
        settings.use()
        try:
            with open("/lent/error.log") as f:
                return f.read()
        finally:
            settings.done()

    lines = lent(run).split("\n")
    check(len(lines) == 3 and lines[0].endswith(" one") and lines[1].endswith(" two"), repr(lines))


def test_uses_nest_and_a_filesystem_that_is_not_lent_is_left_alone():
    lent(
        lambda: (settings.use(), settings.use(), check(mounted(), "not mounted"), settings.done())
    )
    check(mounted(), "let go while still in use")
    settings.lend = (_mount, _release)
    settings.done()
    settings.lend = None
    check(not mounted(), "not let go at the last done()")
    before = len(MOUNTS)
    settings.use()
    settings.done()
    check(len(MOUNTS) == before and not mounted(), "not lent, yet mounted")


mptest.run(globals())
