# The firmware's sounds under the MicroPython unix port: the real main.py, a board file and the
# app on a HostApp: which sound each action plays, and silence where there must be. The
# sound module on its own: mp_sound.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import json
import sys
import time

import hostapp
import machine
import mptest
from appplay import to_two_players
from buttons import NEXT, PREV, SELECT
from mptest import check
from session import to_cell
from soundheard import LONGEST_MS, expected, heard, sounds_in


def pwm_of(h):
    check(len(machine.PWMS) == 1, "%d PWMs" % len(machine.PWMS))
    return machine.PWMS[0]


def act(h, action, want=None, what=""):
    """Do `action` (a harness action), wait until any sound it made has ended; the sounds heard
    since it began, checked against `want` if given."""
    t0 = h.now
    yield action
    yield h.wait(LONGEST_MS + 200)
    names = sounds_in(heard(pwm_of(h), t0))
    check(want is None or names == want, "%s: heard %r, not %r" % (what, names, want))
    return names


def place(h, target, want=("PLACE",)):
    """NEXT (each a MOVE) until the cursor is on `target`, then SELECT: `want` heard."""
    for _ in range(9):
        if h.cursor() == target:
            want = want and list(want)
            return (yield from act(h, h.press(SELECT), want, "SELECT on %d" % target))
        yield from act(h, h.press(NEXT), ["MOVE"], "NEXT")
    raise AssertionError("the cursor never reached %d:\n%s" % (target, h.screen()))


def settings_file(**values):
    return {"settings.json": json.dumps(values)}


def test_power_on_chime_and_a_two_player_game_to_a_win_and_a_draw():
    def script(h):
        yield h.wait(LONGEST_MS)
        check(sounds_in(heard(pwm_of(h))) == ["CHIME"], "boot: %r" % sounds_in(heard(pwm_of(h))))
        yield from act(h, h.press(SELECT), ["MOVE"], "title")
        yield from act(h, h.press(NEXT), ["MOVE"], "NEXT")
        yield from act(h, h.press(SELECT), ["PLACE"], "2 Players")
        for target in (4, 1, 0, 2):  # X wins on the diagonal
            yield from place(h, target)
        yield from place(h, 8, ("PLACE", "WIN"))
        yield from act(h, h.press(SELECT), ["PLACE"], "next game")
        for target in (0, 4, 8, 1, 7, 6, 2, 5):
            yield from place(h, target)
        yield from place(h, 3, ("PLACE", "DRAW"))

    h = hostapp.HostApp("pico")
    h.play(script)
    # The title, the menu's NEXT, and at least five NEXTs in the games: each a MOVE, checked.
    check(sounds_in(heard(pwm_of(h))).count("MOVE") >= 7, "few NEXTs were heard")


def test_against_the_cpu_its_answers_a_hint_a_refused_undo_and_a_loss():
    moves = []

    def script(h):
        yield h.wait(300)
        yield h.press(SELECT)  # the title
        yield h.press(SELECT)  # 1P vs CPU: perfect, the player starts (settings below)
        yield h.wait(200)
        # Nothing to undo: the press moves no cursor (no tick), the hold is refused (the buzz).
        yield from act(h, h.press(PREV, 500), ["ERROR"], "NO UNDO")
        yield from act(h, h.press(SELECT, 700), ["HINT"], "hint")
        yield h.wait(1000)  # the hint's blinking ends
        while h.cursor() >= 0 and len(moves) < 5:  # the first free cell each time: perfect wins
            free = [i for i in range(9) if h.cell(i) in (".", "cursor")]
            moves.append((yield from place(h, free[0], None)))
        yield h.wait(100)
        check(h.cursor() == -1, "the game did not end: %r" % moves)

    hostapp.HostApp("esp32", files=settings_file(level=3, starts=0)).play(script)
    check(moves[:-1] == [["PLACE", "CPU"]] * (len(moves) - 1), repr(moves))
    check(moves[-1] == ["PLACE", "LOSS"], repr(moves))


def as_table(got, want, what):
    """Check that `got` (heard()) is `want` (expected()), every change within 1 ms of its time."""
    close = len(got) == len(want)
    for (at, hz), (want_at, want_hz) in zip(got, want):  # noqa: B905 - no strict= in MicroPython
        close = close and hz == want_hz and abs(at - want_at) <= 1
    check(close, "%s: %r, not %r" % (what, got, want))


def test_notes_last_their_tables_on_a_port_whose_frames_take_time():
    # On the rp2 model a frame costs about 4 ms (its bytes at 4 MHz on the fake SPI, its
    # drawing by the port model): the loop must time the next note from after the frame, or
    # the 6 ms MOVE tick sounds 10 ms (issue 19). Every note heard within 1 ms of its table.
    def script(h):
        yield h.wait(LONGEST_MS)
        yield h.press(SELECT)  # the title: MOVE, with the menu's frame
        yield h.wait(200)
        for name, button in (("MOVE", NEXT), ("PLACE", SELECT)):  # the highlight; 2 Players
            t0 = h.now
            yield h.press(button)  # with a frame (PLACE: a new board drawn)
            yield h.wait(200)
            got = heard(pwm_of(h), t0)
            as_table(got, expected(name, got[0][0] if got else 0), name)
        check(h.clock.busy_us > 3000, "the frames cost no time: %d us" % h.clock.busy_us)

    hostapp.HostApp("pico").play(script)


def test_the_result_is_saved_after_its_jingle_which_no_flash_write_delays():
    # Issue 19: the save after the move that ends a game stalled the jingle on the Pico. On
    # the harness's littlefs every flash operation costs its modelled time on the fake clock
    # (a compaction every few saves, ~200 ms and more); over six games each jingle must be
    # heard as its table (within 1 ms) and each tally saved all the same.
    costs = []

    def script(h):
        yield h.wait(LONGEST_MS - 300)
        yield from to_two_players(h)
        for game in range(6):
            for target in (4, 1, 0, 2):
                yield from place(h, target)
            yield from to_cell(h, 8)
            busy = h.disk.busy_us
            t0 = h.now
            yield h.press(SELECT)  # X wins on the diagonal
            yield h.wait(sys.modules["app"].App.save_wait_ms + 1000)
            costs.append(h.disk.busy_us - busy)
            saved = json.loads(hostapp.read("settings.json"))["tally2"]
            check(saved == [game + 1, 0, 0], "game %d: tally2 %r" % (game, saved))
            got = heard(pwm_of(h), t0)
            start = got[0][0] if got else 0  # the click acts at the release
            want = expected("PLACE", start)[:-1] + expected("WIN", start + 60)
            as_table(got, want, "game %d (save %d us)" % (game, costs[-1]))
            yield h.press(SELECT)  # the next game
            yield h.wait(LONGEST_MS)

    hostapp.HostApp("pico").play(script)
    check(len(costs) == 6 and max(costs) > 100000, "no slow save: %r" % costs)


def test_with_the_sound_setting_off_nothing_sounds():
    def script(h):
        yield from to_two_players(h)
        yield h.press(SELECT)  # X in the centre
        yield h.press(SELECT, 700)  # a hint
        yield h.wait(LONGEST_MS)

    for board in ("pico", "esp32"):
        h = hostapp.HostApp(board, files=settings_file(sound=False))
        h.play(script)
        check(heard(pwm_of(h)) == [], "%s: %r" % (board, heard(pwm_of(h))))


def timers(board, dim_s, sleep_s, then):
    """Boot `board` with these idle timers, open the menu (the timers count from its release),
    play LOSS 1700 ms later (it would last until 2660), then run the steps then(h, release)."""

    def script(h):
        yield h.wait(300)
        h.down(SELECT)
        yield h.wait(80)
        h.up(SELECT)
        release = h.now
        yield h.wait(1700)
        h.hw.buzzer.play("LOSS")
        h.hw.buzzer.step(time.ticks_ms())
        yield from then(h, release)

    hostapp.HostApp(board, files=settings_file(dim_s=dim_s, sleep_s=sleep_s)).play(script)


def loss_cut(h, release):
    """Check that LOSS, played 1700 ms after `release`, was cut 2000 to 2010 ms after it."""
    got = heard(pwm_of(h), release)
    check(
        got[:2] == [(1700, 2349), (1880, 2217)] and got[2][1] == 0, "%s: %r" % (h.board_name, got)
    )
    check(2000 <= got[2][0] <= 2010, "%s: LOSS not cut at once: %r" % (h.board_name, got))


def test_silence_when_the_backlight_dims():
    def then(h, release):
        yield h.until(lambda: not h.lit(), 1000, 1)
        check(2000 <= h.now - release <= 2011, "dimmed after %d ms" % (h.now - release))
        yield h.wait(10)
        check(not pwm_of(h).sounding(), "a tone as the backlight went off")
        yield h.wait(500)
        h.hw.buzzer.play("WIN")  # while dimmed: nobody is there to hear it
        h.hw.buzzer.step(time.ticks_ms())
        start = h.now
        yield h.wait(LONGEST_MS)
        loss_cut(h, release)
        got = heard(pwm_of(h), start)  # cut by the next loop step
        check(
            len(got) == 2 and got[0] == (0, 2093) and got[1][1] == 0 and got[1][0] <= 10, repr(got)
        )

    for board in ("pico", "esp32"):
        timers(board, 2, 0, then)


def test_silence_before_the_first_light_sleep():
    # Cut by the step that put the display to sleep, before its first doze; esp32's PWM
    # deinit() (rp2's stays at duty 0: its deinit would leave the pin where it was).
    def then(h, release):
        dozed = h.clock.dozed_ms
        yield h.until(lambda: h.clock.dozed_ms > dozed, 1000, 1)  # the first doze has ended
        pwm = pwm_of(h)
        got = (h.showing(), pwm.sounding(), pwm.active)
        check(got == (False, False, h.board_name == "pico"), "%s: %r" % (h.board_name, got))
        yield h.wait(3000)
        check(not pwm.sounding(), "a tone while asleep")
        loss_cut(h, release)
        check(len(heard(pwm, release)) == 3, repr(heard(pwm, release)))

    for board in ("pico", "esp32"):
        timers(board, 0, 2, then)


def test_no_tone_over_the_error_screen_nor_after_ctrl_c():
    # Boot esp32, start WIN, make the next loop step raise: cut at once either way.
    for escape in (ValueError("boom"), KeyboardInterrupt()):

        def script(h, escape=escape):
            yield h.wait(300)
            pad = h.hw.pad
            poll = pad.poll

            def fail(now):
                pad.poll = poll
                raise escape

            h.hw.buzzer.play("WIN")
            h.hw.buzzer.step(time.ticks_ms())
            yield h.wait(50)
            pad.poll = fail  # the next step fails, mid-jingle
            yield h.wait(LONGEST_MS)
            check(h.shows("ERROR", inverted=True), "no error screen:\n" + h.screen())

        h = hostapp.HostApp("esp32")
        try:
            h.play(script)
            check(not isinstance(escape, KeyboardInterrupt), "Ctrl-C was swallowed")
        except KeyboardInterrupt:
            pass
        check(not pwm_of(h).sounding(), "%r: still sounding" % escape)
        got = heard(pwm_of(h))
        check(
            got[-1][1] == 0 and got[-1][0] - got[-2][0] < 60,
            "%r: not cut at once: %r" % (escape, got),
        )


def test_safe_mode_releases_the_buzzer():
    for board in ("pico", "esp32"):

        def script(h):
            h.down(SELECT)  # held at power-on
            yield h.wait(1000)

        h = hostapp.HostApp(board)
        h.play(script)
        pwm = pwm_of(h)
        check(h.returned and heard(pwm) == [], "%s: a tone in safe mode" % board)
        check(pwm.active is (board == "pico"), "%s: esp32's PWM deinit" % board)


mptest.run(globals())
