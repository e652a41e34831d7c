# A scripted session on a HostApp and a record of the loop's timing over it, for the timing
# test (host_tests/mp/mp_app_timing.py) and `make bench` (bench/bench_saves_mp.py).
# SPDX-License-Identifier: MIT
"""`Timing(h)` patches, before the boot, what it records on the Pico's model (the HostApp's
timed flash, frames and SPI): each loop step's start, end and what it spent (flash, search,
frame), each note's scheduled and actual start (sound.Sound.step), each frame, and when each
screen's next timed change was due (its due(now)). It also charges each engine search the time
it takes on a Pico (SEARCH_US), which the host's stand-ins do not: a search runs on the CPU.
`session(h)` is the script: settings changed (a contrast adjusted, the light, the level), two
two-player games won, then a one-player game at each level (a hint and an undo in the first,
the CPU starting at "perfect": its first reply on the empty board), each to its result and
jingle, with the result's save.

    h = hostapp.HostApp("pico")
    t = session.Timing(h)
    h.play(session.session)
    t.steps, t.notes, t.frames_late
"""

import sys
import time

from buttons import NEXT, PREV, SELECT

# A search's time on a Pico by level (easy, medium, hard, perfect): best_move at each level's
# depth (1, 2, 4, 9), the slowest of the empty board and each first move, on the emulated
# RP2040 at 125 MHz (the Pico lab, testbed/picolab.py: ticks_us, best of 5; docs/benchmarks.md).
# Charged to every search at that level (pessimistic for later moves). The hint and the coach's
# search are perfect searches.
SEARCH_US = (4000, 8000, 11200, 23900)
PERFECT = 3
COACH = "COACH"  # the level of the coach's searches in Timing.searches
LABELS = ("EASY", "MED", "HARD", "PERF")


class Timing:
    def __init__(self, h):
        self.h = h
        self.steps = []  # (start ms, end ms, flash us, search us, frame us, returned wait)
        self.notes = []  # (lateness ms, sound table, note index): each note or end heard
        self.skipped = 0  # notes that never sounded (their time passed in a long step)
        self.frames_late = []  # (lateness ms, step index): a frame after a due timed change
        self.search_us = 0
        self.coached = 0  # the coach's searches (a position's marks)
        self.searches = []  # (level, us); the coach's level is COACH
        self.step_searches = []  # by step: the levels of the searches it ran
        self._due = None  # (ticks when the screen's next timed change is due, the screen)
        self._shown = []
        self._install()

    def _install(self):
        # The firmware's modules are loaded now, before the boot imports them, and patched
        # on their classes: the boot uses these very modules (the HostApp forgot the last run's).
        import app
        import engine
        import game
        import pcd8544
        import sound

        t = self
        clock = time.clock()

        real_step = app.App.step

        def step(a, now):
            disk = t.h.disk
            flash, search0, busy = disk.busy_us, t.search_us, clock.busy_us
            searched = len(t.searches)
            screen = a.screen
            t._shown = []
            wait = real_step(a, now)
            end = time.ticks_ms()
            flash = disk.busy_us - flash
            search = t.search_us - search0
            t.steps.append((now, end, flash, search, clock.busy_us - busy - flash - search, wait))
            t.step_searches.append([level for level, _ in t.searches[searched:]])
            due = t._due
            # A frame the screen's timed change (a blink, a sign going) was due for; not the
            # CPU's reply, whose due frame follows its search.
            if due is not None and due[1] is screen and a.screen is screen and not search:
                for shown in t._shown:
                    late = time.ticks_diff(shown, due[0])
                    if late >= 0:
                        t.frames_late.append((late, len(t.steps) - 1))
                        break
            after = a.screen
            ms = after.due(end)
            t._due = None if ms < 0 else (time.ticks_add(end, ms), after)
            return wait

        app.App.step = step

        real_show = pcd8544.PCD8544.show

        def show(lcd):
            real_show(lcd)
            t._shown.append(time.ticks_ms())

        pcd8544.PCD8544.show = show

        def charged(real, level_of):
            # The coach's search of every move (coach.Coach.read calls engine.scores_into) is
            # as long as perfect's.
            def search(*args):
                level = level_of(args)
                us = SEARCH_US[PERFECT if level == COACH else level]
                clock.spend_us(us)
                t.search_us += us
                t.searches.append((level, us))
                t.coached += level == COACH
                return real(*args)

            return search

        game.Game.cpu_move = charged(game.Game.cpu_move, lambda args: args[1])
        game.Game.hint = charged(game.Game.hint, lambda args: PERFECT)
        engine.scores_into = charged(engine.scores_into, lambda args: COACH)

        real_sound_step = sound.Sound.step

        def sound_step(s, now):
            # A table the App asked for begins at the first step after (_asked until then):
            # each call, from the note that was playing, walks the notes begun since at their
            # table times.
            cur, j, at = s._notes, s._i, now if s._asked else s._end
            left = real_sound_step(s, now)
            actual = time.ticks_ms()
            while cur is not None and not (cur is s._notes and j == s._i):
                j += 2
                if j >= len(cur):  # the table's end (silence), then the sound queued after it
                    t.notes.append((time.ticks_diff(actual, at), cur, j))
                    cur = s._notes if s._notes is not cur else None
                    j = -2
                    continue
                if cur is s._notes and j == s._i:
                    t.notes.append((time.ticks_diff(actual, at), cur, j))
                else:
                    t.skipped += 1  # its time passed before a step came
                at = time.ticks_add(at, cur[j + 1])
            return left

        sound.Sound.step = sound_step

    def longest_step(self):
        """(ms, step index, what it spent most on: "flash", "search" or "frame")."""
        best = None
        for k, (start, end, flash, search, frame, _) in enumerate(self.steps):
            ms = time.ticks_diff(end, start)
            if best is None or ms > best[0]:
                what = max((flash, "flash"), (search, "search"), (frame, "frame"))[1]
                best = (ms, k, what)
        return best


# -- the session --------------------------------------------------------------------------------


def press_until(h, done, what, button=NEXT, tries=9):
    # Press `button` until done(): a menu row highlighted, a label shown, the cursor on a cell.
    for _ in range(tries):
        if done():
            return
        yield h.press(button)
    raise AssertionError("%s: never so:\n%s" % (what, h.screen()))


def menu_to(h, row):
    yield from press_until(h, lambda: h.menu_row(row), "menu row %d highlighted" % row, tries=8)


def to_cell(h, cell):
    yield from press_until(h, lambda: h.cursor() == cell, "cursor on %d" % cell)


def cycle_to(h, row, label):
    # The main menu's Level or Start row, SELECT until the glass shows `label` ("CPU" is
    # also in "1P vs CPU": the Start row shows it when it shows neither YOU nor ALT).
    others = ("YOU", "ALT") if label == "CPU" else ()
    yield from menu_to(h, row)
    shown = lambda: h.shows(label) and not any(h.shows(other) for other in others)  # noqa: E731
    yield from press_until(h, shown, label + " shown", SELECT, 5)


def result(h):
    # The result's jingle, then its save: it waits for a quiet gap, at most save_wait_ms.
    yield h.wait(sys.modules["app"].App.save_wait_ms + 1200)


def settings_changes(h):
    yield from menu_to(h, 4)
    yield h.press(SELECT)  # Settings, on Contr
    yield h.press(SELECT)  # adjust the contrast
    yield h.press(NEXT) * 2
    yield h.press(SELECT)  # the adjustment ends: saved
    yield h.wait(300)
    yield h.press(NEXT)  # Light
    yield h.press(SELECT)  # off
    yield h.wait(300)
    yield h.press(SELECT)  # on again
    yield h.press(NEXT) * 2  # Level
    yield h.press(SELECT)
    yield h.wait(300)
    yield h.press(NEXT) * 2  # Coach
    yield h.press(SELECT)  # on: every game below shows its marks (a search per position)
    yield h.wait(300)
    yield h.press(SELECT)  # the note on what the marks mean goes
    yield h.press(NEXT) * 2  # Back
    yield h.press(SELECT)
    yield h.wait(500)


def two_player_wins(h, games):
    yield from menu_to(h, 1)
    yield h.press(SELECT)
    for game in range(games):
        if game:
            yield h.press(SELECT)  # the next game
            yield h.wait(300)
        for cell in (4, 1, 0, 2, 8):  # X wins on the diagonal
            yield from to_cell(h, cell)
            yield h.press(SELECT)
        yield from result(h)
    yield h.press(NEXT, 1000)  # to the menu


def one_player(h, level, starts, hint_and_undo=False):
    yield from cycle_to(h, 2, LABELS[level])
    yield from cycle_to(h, 3, starts)
    yield from menu_to(h, 0)
    yield h.press(SELECT)
    yield h.wait(600)  # the CPU's first reply, if it starts
    if hint_and_undo:
        yield h.press(SELECT, 800)  # a hint: it blinks
        yield h.wait(2200)
        yield h.press(SELECT)  # placed where the hint was
        yield h.wait(600)
        yield h.press(PREV, 800)  # undo: the move and the CPU's reply
        yield h.wait(1200)
    for _ in range(6):
        if h.cursor() < 0:
            break
        yield h.press(SELECT)
        yield h.wait(600)
    yield from result(h)
    yield h.press(NEXT, 1000)  # to the menu


def session(h):
    yield h.wait(1200)  # the chime
    yield h.press(SELECT)  # the title: the menu
    yield from settings_changes(h)
    yield from two_player_wins(h, 2)
    yield from one_player(h, 0, "YOU", hint_and_undo=True)
    yield from one_player(h, 1, "YOU")
    yield from one_player(h, 2, "CPU")
    yield from one_player(h, PERFECT, "CPU")


SAVES = 320  # past the directory's first relocation: littlefs moves a metadata pair after
# block_cycles = 100 erases (extmod/vfs_lfsx.c, init_config)
_MNT = "/saves"


def save_costs(deployed, logs, saves=SAVES):
    """The cost in us of each of `saves` saves on a fresh flash shaped and timed as the Pico's,
    holding what `make deploy` leaves in the root (the folder `deployed`), with `logs` also the
    largest files the firmware keeps beside settings.json: error.log at errorlog.LOG_MAX and
    settings.bad at its 512 bytes (where littlefs compacts and relocates the root's metadata
    differs with them, so neither layout alone has the worst save). Each save changes what the
    game changes: the contrast, or a tally (its file growing a digit now and then).
    RuntimeError if a save fails."""
    import gc
    import os

    import errorlog
    import ramdisk
    from settings import Settings

    gc.collect()  # a 1.4 MB disk in one piece, after a session's HostApp
    disk = ramdisk.pico_flash(ramdisk.PICO_BLOCKS)
    ramdisk.mount("lfs2", _MNT, disk, progsize=ramdisk.PICO_PROGSIZE)
    try:
        ramdisk.deploy_files(deployed, _MNT)
        if logs:
            with open(_MNT + "/error.log", "wb") as f:
                f.write(b"t=0 x\n" * (errorlog.LOG_MAX // 6))
            with open(_MNT + "/settings.bad", "wb") as f:
                f.write(b"{'contrast': 60}" * 32)
        s = Settings.load(_MNT + "/settings.json")
        s.set("contrast", 50)
        s.save()
        costs = []
        for k in range(saves):
            s.count("tally1", k % 3)
            busy = disk.busy_us
            if not s.save():
                raise RuntimeError("save %d failed" % k)
            costs.append(disk.busy_us - busy)
        return costs
    finally:
        os.umount(_MNT)
