# Seeded fuzz of the app: random button presses, holds and idle times; invariants checked
# after every event. Arguments: SEED EVENTS. The App alone on the Pico's board file, its
# buzzer's PWM read for stuck tones.
# SPDX-License-Identifier: MIT
# mpcheck seed5110: heapsize=256k paths={hostboard} args=5110,50000
# mpcheck seed2024: heapsize=256k paths={hostboard} args=2024,50000
import random
import sys

import engine
import game as game_module
import machine
import mptest
from buttons import NEXT, PREV, SELECT
from hostapp import HostApp
from mptest import check

LONGEST_NOTE_MS = 500  # no note of sound.py is longer: a tone on longer than this is stuck

PERFECT = len(engine.LEVELS) - 1
BUTTONS = (PREV, NEXT, SELECT)
PICK = (2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0)  # SELECT 1/2, NEXT 5/16, PREV 3/16


def fail(message, app, event):
    g = app.shared.game  # None before the first game
    where = (event, message, type(app.screen).__name__)
    where += (g.board, g.count, g.result) if g else (0, 0, 0)
    raise AssertionError("event %d: %s (screen %s board %x count %d result %d)" % where)


def legal(g):
    """The board is a position of a real game: its history replays to it (X and O in turn, each
    on a free cell, so the counts agree), a win is the last mover's, and the result is set."""
    board = 0
    for k in range(g.count):
        cell = g.moves[k]
        if (board >> (2 * cell)) & 3:
            return False
        board |= (engine.O if k & 1 else engine.X) << (2 * cell)
    if board != g.board:
        return False
    won = engine.winner(board)
    if won and won != (engine.X if g.count & 1 else engine.O):
        return False
    expect = won if won else (game_module.DRAW if g.count == 9 else game_module.PLAYING)
    return g.result == expect


def test_fuzz_random_buttons():
    seed = int(sys.argv[1])
    events = int(sys.argv[2])
    random.seed(seed)
    rig = HostApp(glass=False).start(buzzer=True)
    pwm = machine.PWMS[0]  # the buzzer's
    app = rig.app
    app.poll_ms = 100  # fewer idle steps; the pad and the timers only see time pass
    app.doze_ms = 200
    settings = app.settings
    seen = [0]
    handle = app._event

    def counted(ev, now):
        seen[0] += 1
        handle(ev, now)

    app._event = counted  # count the pad events that reach the app
    down = [False, False, False]
    games = {0: 0, 1: 0}
    perfect_games = 0
    sleeps = 0
    demos = 0
    changed = rig.now  # the last change on the buzzer's pin
    for event in range(events):
        i = PICK[random.getrandbits(4)]
        down[i] = not down[i]
        if down[i]:
            rig.down(BUTTONS[i])
        else:
            rig.up(BUTTONS[i])
        r = random.getrandbits(10)
        if r < 870:
            ms = 20 + r % 130
        elif r < 1000:
            ms = 150 + (r * 7) % 750
        elif r < 1012:
            ms = 1000 + (r * 131) % 4000
        elif r < 1020:
            ms = 16000 + (r * 131) % 9000  # the demo starts on an idle menu
        else:
            ms = 20000 + (r * 997) % 130000
        g = app.shared.game  # made by the first game
        before = (g.board, g.count, g.over(), g.mode) if g else None
        t1 = settings.get("tally1")
        t2 = settings.get("tally2")
        rig.run(ms)
        sleeps += app.power.state == 2
        demos += type(app.screen).__name__ == "Demo"
        if pwm.changes:
            changed = pwm.last()[0]
        if pwm.sounding():
            if app.power.state == 2:
                fail("a tone while asleep", app, event)
            if rig.now - changed > LONGEST_NOTE_MS:
                fail("a tone on for %d ms" % (rig.now - changed), app, event)
        if g is None:
            continue  # no game yet: the title or the demo
        if not legal(g):
            fail("illegal board", app, event)
        a1 = settings.get("tally1")
        a2 = settings.get("tally2")
        ended = g.over() and (not before[2] or before[:2] != (g.board, g.count))
        if ended:
            key, slot = g.tally_slot()
            games[g.mode] += 1
            new, old, other_new, other_old = (
                (a1, t1, a2, t2) if key == "tally1" else (a2, t2, a1, t1)
            )
            want = list(old)
            want[slot] += 1
            if list(new) != want or other_new != other_old:
                fail("tally %r -> %r for result %d" % (old, new, g.result), app, event)
            if g.mode == game_module.ONE_PLAYER and g.level == PERFECT:
                perfect_games += 1
                if g.result == g.human:
                    fail("the CPU lost at level perfect", app, event)
        elif (a1, a2) != (t1, t2):
            if type(app.screen).__name__ != "SetupMenu" or a1 != (0, 0, 0) or a2 != (0, 0, 0):
                fail("tally changed with no game ending: %r %r" % (a1, a2), app, event)
    # Let go of every button first: a held PREV or NEXT auto-repeats on a menu, and each
    # repeat's tick would be sounding whenever the run happened to end.
    for i in range(3):
        if down[i]:
            rig.up(BUTTONS[i])
    rig.run(2000)
    if pwm.sounding():
        fail("a tone left on at the end", app, events)
    tones = pwm.started
    print("pad events reaching the app: %d, tones %d" % (seen[0], tones))
    counts = (events, games[0], games[1], perfect_games, sleeps, demos, tones)
    figures = "events %d games1p %d games2p %d perfect %d asleep %d demo %d tones %d" % counts
    print("OK", figures)
    # The random player really played: games of both modes ended (each checked against the
    # tally), several at level "perfect" (none lost by the CPU), and the board went to sleep;
    # the buzzer sounded throughout (checked above: never while asleep, none stuck on).
    check(event + 1 == events, figures)  # every event was made
    check(games[0] >= 500 and games[1] >= 10 and perfect_games >= 50 and sleeps >= 5, figures)
    check(tones >= 10000, figures)


mptest.run(globals())
