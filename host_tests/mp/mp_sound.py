# sound.py under the MicroPython unix port, on the host board's PWM (testbed/hostboard/machine.py,
# modelled on the rp2 and esp32 ports): each sound's notes and timing, cutting, late steps, no
# allocation, the release each board asks for. The firmware's sounds on a board: mp_sound_app.py.
# SPDX-License-Identifier: MIT
import time

import machine
import micropython
import mptest
import sound
from machine import Pin
from mptest import check
from soundheard import LONGEST_MS, NAMES, expected, heard, sounds_in


def buzzer(port, deinit=False):
    """A Sound on a fresh PWM of `port`, set up as the board files do, on a fresh fake clock."""
    machine.reset_state()
    machine.use_port(port)
    time.use(time.FakeClock())
    pwm = machine.PWM(Pin(12), freq=2000, duty_u16=0)
    return pwm, sound.Sound(pwm, deinit)


def start(s, name):
    """Ask s for sound `name` and step it now, as the App does; returns that tick."""
    t0 = time.ticks_ms()
    s.play(name)
    s.step(t0)
    return t0


def run(s, ms):
    """Let ms pass, stepping s as App.step does: every 10 ms, sooner when a note ends."""
    clock = time.clock()
    end = clock.now + ms
    while clock.now < end:
        due = s.step(time.ticks_ms())
        wait = due if 0 < due < 10 else 10
        clock.sleep_ms(min(wait, end - clock.now))


# -- the tables, on their own -----------------------------------------------------------------


def test_the_tables_are_short_loud_and_each_its_own():
    firsts = []
    for name in NAMES:
        t = sound.table(name)
        check(len(t) >= 2 and len(t) % 2 == 0, name)
        hz = [t[i] for i in range(0, len(t), 2)]
        ms = [t[i] for i in range(1, len(t), 2)]
        check(sum(ms) <= LONGEST_MS, "%s lasts %d ms" % (name, sum(ms)))
        check(min(ms) > 0 and hz[0] and hz[-1], "%s: a note of 0 ms, or a rest at an end" % name)
        check(all(f == 0 or 1000 <= f <= 5000 for f in hz), "%s: %r" % (name, hz))
        firsts.append(t[:2])
    check(len(set(firsts)) == len(NAMES), "two sounds begin with the same note: %r" % firsts)
    for name in ("MOVE", "PLACE", "CPU"):  # the ticks: in a piezo's loud band
        t = sound.table(name)
        check(all(2000 <= t[i] <= 4000 for i in range(0, len(t), 2)), name)
    # What may follow PLACE (it is heard whole) begins on another note, so it is heard apart.
    for name in ("CPU", "WIN", "LOSS", "DRAW"):
        check(sound.table(name)[0] != sound.table("PLACE")[-2], name)


def test_every_sound_as_the_pin_plays_it():
    # Printed for test_sound.py, which compares it with host_tests/golden/sounds/<NAME>.txt.
    for port in ("rp2", "esp32"):
        for name in NAMES:
            pwm, s = buzzer(port, port == "esp32")
            t0 = start(s, name)
            run(s, LONGEST_MS + 500)
            h = heard(pwm, t0)
            check(h == expected(name), "%s on %s: %r" % (name, port, h))
            check(not pwm.sounding())
            print("HEARD", port, name, " ".join("%d:%d" % e for e in h))


def test_a_new_sound_cuts_the_one_playing():
    pwm, s = buzzer("rp2")
    t0 = start(s, "WIN")
    run(s, 150)
    start(s, "MOVE")
    run(s, LONGEST_MS)
    h = heard(pwm, t0)
    check(h == [(0, 2093), (100, 2637), (150, 3200), (156, 0)], repr(h))


def test_place_is_heard_whole_and_the_last_sound_asked_for_follows_it():
    pwm, s = buzzer("rp2")
    t0 = start(s, "PLACE")
    run(s, 10)
    start(s, "CPU")  # the CPU answers at once...
    run(s, 5)
    start(s, "LOSS")  # ...and wins: its jingle instead
    run(s, 2 * LONGEST_MS)
    h = heard(pwm, t0)
    check(h == expected("PLACE")[:-1] + expected("LOSS", 60), repr(h))
    check(sounds_in(h) == ["PLACE", "LOSS"], repr(sounds_in(h)))
    start(s, "PLACE")
    s.stop()
    run(s, 200)
    check(not pwm.sounding() and not s.step(time.ticks_ms()), "stop() forgets what waits")


def test_a_late_step_skips_the_notes_whose_time_has_passed():
    pwm, s = buzzer("rp2")
    t0 = start(s, "HINT")  # 2093 Hz 0-20 ms, 2637 20-40, 3136 40-60, 4186 60-100
    check(s.step(t0) == 20, "the ms to the next note")
    time.clock().sleep_ms(45)  # the loop was busy (a long search, a flash write)
    check(s.step(time.ticks_ms()) == 15)
    run(s, 200)
    check(heard(pwm, t0) == [(0, 2093), (45, 3136), (60, 4186), (100, 0)], repr(heard(pwm, t0)))
    tones = [hz for _, hz, duty in pwm.tones() if duty]
    check(2637 not in tones, "a note whose time had passed was set all the same: %r" % tones)
    check(s.step(time.ticks_ms()) == 0, "nothing plays: 0")


def test_play_step_and_stop_allocate_nothing():
    for port in ("rp2", "esp32"):
        pwm, s = buzzer(port, port == "esp32")
        clock = time.clock()
        micropython.heap_lock()
        try:
            for name in NAMES:
                s.play(name)
                s.step(time.ticks_ms())
                for _ in range(60):
                    s.step(time.ticks_ms())
                    clock.sleep_ms(7)
                s.play("PLACE")
                s.step(time.ticks_ms())
                s.play(name)  # waits for PLACE
                s.step(time.ticks_ms())
                s.stop()  # esp32: deinit(); the next play() init()s it
        finally:
            micropython.heap_unlock()
        check(len(sounds_in(heard(pwm))) >= len(NAMES), port)


def test_stop_releases_the_pwm_as_each_board_asks():
    # Pico: duty 0 only, the slice keeps running and the pin goes low within a period (rp2's
    # deinit would halt it wherever the pin was).
    pwm, s = buzzer("rp2")
    start(s, "WIN")
    run(s, 50)
    s.stop()
    check(not pwm.sounding() and pwm.running and pwm.duty_u16() == 0, "rp2: duty 0")
    # ESP32: deinit as well (ledc_stop: the pin low at once); the next sound starts it again.
    pwm, s = buzzer("esp32", True)
    start(s, "WIN")
    run(s, 50)
    s.stop()
    check(not pwm.sounding() and not pwm.active, "esp32: deinit")
    s.stop()  # again: nothing (a deinit() PWM raises on duty_u16)
    t0 = start(s, "MOVE")
    check(pwm.sounding() and pwm.freq() == 3200, "init() again")
    run(s, 100)
    check(heard(pwm, t0) == expected("MOVE"), repr(heard(pwm, t0)))


def test_a_sound_asked_for_without_a_time_starts_at_the_next_step():
    # The App asks without a time and steps the buzzer once its step's work (a search of 55 ms
    # on a Pico) and frame are done: the sound starts then, whole, not cut by that work.
    pwm, s = buzzer("rp2")
    s.play("PLACE")
    check(s.playing() and not pwm.sounding(), "a tone before the step")
    time.clock().sleep_ms(55)  # the step's search
    t0 = time.ticks_ms()
    run(s, 200)
    check(heard(pwm, t0) == expected("PLACE"), repr(heard(pwm, t0)))
    check(not s.playing(), "still playing")
    s.play("PLACE")
    s.play("CPU")  # asked in the same step: after PLACE, whole
    t0 = time.ticks_ms()
    run(s, 300)
    h = heard(pwm, t0)
    check(h == expected("PLACE")[:-1] + expected("CPU", 60), repr(h))


mptest.run(globals())
