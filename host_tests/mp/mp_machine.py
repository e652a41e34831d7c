# The fake machine: fakebus's Pin and SPI with the port's API on the board's bus, the ports'
# clocks, PWM and watchdog (testbed/hostboard/).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=128k paths={hostboard}
import time

import fakebus
import machine
import mptest
from machine import SPI, Pin
from mptest import check


def recorded():
    return fakebus.decode(machine.BUS.take())


def on_port(name):
    """A fresh board modelling port `name` (None: generic), on a fresh fake clock."""
    machine.use_port(name)
    machine.reset_state()
    return time.use(time.FakeClock())


def raised(call, *args):
    """The exception call(*args) ended with (a Reset or LockUp too), or None."""
    try:
        call(*args)
    except (Exception, machine.Reset, machine.LockUp) as err:
        return err
    return None


def test_an_output_is_recorded_under_its_id_from_when_it_becomes_one():
    on_port(None)
    pin = Pin(20)  # an input: its latch is set, nothing recorded
    pin.value(1)
    check(recorded() == [])
    pin.init(mode=Pin.OUT)
    pin(0)
    pin.toggle()
    check(recorded() == [("pin", "20", 1), ("pin", "20", 0), ("pin", "20", 1)], "recorded")
    check(pin.value() == 1 and pin.mode() == Pin.OUT)


def test_init_with_a_value_drives_an_output():
    on_port(None)
    pin = Pin(21, Pin.OUT, value=1)
    pin.init(value=0)  # as a board file may do when it re-inits an output
    check(recorded() == [("pin", "21", 1), ("pin", "21", 0)] and pin() == 0)


def test_an_input_reads_what_the_script_set_else_its_pull():
    on_port(None)
    machine.set_level(13, 0)  # held before the pin exists: a button held at power-on
    held = Pin(13, Pin.IN, Pin.PULL_UP)
    check(held.value() == 0 and Pin(14, Pin.IN, Pin.PULL_UP).value() == 1)
    check(Pin(15, Pin.IN).value() == 0 and Pin(16, Pin.IN, Pin.PULL_DOWN)() == 0)
    machine.set_level(13, 1)
    check(held.value() == 1 and recorded() == [], "inputs are not recorded")


def test_spi_records_the_ports_clock_before_its_bytes():
    # Issue 9, measured on a Pico with MicroPython 1.28: 4.000 MHz at boot; 10.42 MHz after a
    # lightsleep while print(spi) still says 4000000; machine.freq(125000000) gives 4.000 MHz.
    on_port("rp2")
    spi = SPI(0, baudrate=4000000, sck=Pin(18), mosi=Pin(19))
    check(machine.freq() == 125000000)
    spi.write(b"\x21")
    machine.lightsleep(50)  # rp2: clk_peri 48 -> 125 MHz, the divider stays
    spi.write(b"\x20")
    check(spi.hz == 10416666 and spi.baudrate == 4000000, repr(spi.hz))
    machine.freq(125000000)
    machine.lightsleep(1)  # "too small": a plain delay, the clocks stay
    spi.write(b"\x22")
    want = [("clock", 4000000), ("spi", b"\x21"), ("clock", 10416666), ("spi", b"\x20")]
    want += [("clock", 4000000), ("spi", b"\x22")]
    got = recorded()
    check(got == want, repr(got))
    check(isinstance(raised(machine.freq, 123456789), ValueError), "a rate the PLL cannot make")
    # esp32: ESP-IDF's nearest divider of 80 MHz, which may round up: 7 MHz -> 80 / 11.
    on_port("esp32")
    check(SPI(2, baudrate=7000000).wire_hz == 7272727)


def test_an_armed_pin_fires_on_a_falling_edge_only():
    on_port(None)
    fired = []
    pin = Pin(5, Pin.IN, Pin.PULL_UP)
    pin.irq(fired.append, Pin.IRQ_FALLING)
    for level in (0, 0, 1, 0):  # one fall, no change, a rise, a fall
        machine.set_level(5, level)
    check(fired == [pin, pin], repr(fired))
    check(machine.take_wake() and not machine.take_wake(), "a generic board wakes, once")
    err = raised(pin.irq, None, Pin.IRQ_RISING)
    check(isinstance(err, ValueError), "no board arms a rising edge: not modelled")


def test_pins_and_buses_record_on_the_board_they_were_made_on():
    on_port(None)
    old_pin = Pin(20, Pin.OUT)
    old_spi = SPI(0)
    machine.reset_state()  # a power cycle: a new board, a new bus
    Pin(22, Pin.OUT, value=1)
    old_pin(1)
    old_spi.write(b"\x00")
    check(recorded() == [("pin", "22", 1)], "the old board's pins wrote on the new bus")


# -- the watchdog ------------------------------------------------------------------------------


def test_each_ports_watchdog_takes_the_timeouts_the_port_takes():
    for port, bad, good in (
        ("rp2", (8389, -1), (8388, 5000)),
        ("esp32", (0, -5), (5000, 24 * 3600 * 1000)),
    ):
        for timeout in bad:
            on_port(port)
            err = raised(machine.WDT, 0, timeout)
            check(isinstance(err, ValueError), "%s took %d" % (port, timeout))
        for timeout in good:
            on_port(port)
            check(machine.WDT(timeout=timeout).timeout == timeout)
        check(isinstance(raised(machine.WDT, 1, 1000), ValueError), port + ": WDT(1)")


def test_a_dog_fed_too_late_resets_with_wdt_reset_at_its_time():
    for port in ("rp2", "esp32", None):
        clock = on_port(port)
        dog = machine.WDT(timeout=1000)
        for _ in range(10):
            time.sleep_ms(900)
            dog.feed()  # in time: nothing happens
        fed = clock.now
        err = raised(time.sleep_ms, 5000)
        check(isinstance(err, machine.Reset) and err.cause == machine.WDT_RESET, repr(err))
        check(clock.now == fed + 1000, "bit at %d" % (clock.now - fed))


def test_light_sleep_rp2_counts_and_locks_up_esp32_pauses():
    clock = on_port("rp2")
    dog = machine.WDT(timeout=1000)
    machine.lightsleep(900)
    dog.feed()  # it counted 900 ms, fed in time
    err = raised(machine.lightsleep, 1500)
    check(isinstance(err, machine.LockUp), "rp2 v1.28: %r" % (err,))
    clock = on_port("esp32")
    dog = machine.WDT(timeout=1000)
    time.sleep_ms(600)
    machine.lightsleep(3000)  # paused: 400 ms are left after it
    check(raised(time.sleep_ms, 399) is None)
    at = clock.now
    err = raised(time.sleep_ms, 10)
    check(isinstance(err, machine.Reset) and clock.now == at + 1, repr(err))


def test_the_rp2_scratch_register_and_the_reset_cause():
    # (machine.reset()'s cause on each port: mp_main_watchdog.py's
    # test_machine_reset_is_not_taken_for_a_watchdog_reset.)
    on_port("rp2")
    machine.WDT(timeout=1000)
    check(machine.mem32[0x4005801C] == 0x6AB73121)  # watchdog_enable()'s magic
    err = raised(time.sleep_ms, 2000)
    machine.reset_state(cause=err.cause)
    check(machine.reset_cause() == machine.WDT_RESET and machine.mem32[0x4005801C])
    check(machine.wdt() is None, "a reset stops the watchdog")
    dog = machine.WDT(timeout=1000)
    machine.mem32[0x4005B000] = 1 << 30  # watchdog_disable()
    check(not dog.armed and raised(time.sleep_ms, 5000) is None)
    machine.reset_state()  # power-on
    check(machine.mem32[0x4005801C] == 0 and machine.reset_cause() == machine.PWRON_RESET)


# -- the buzzer's PWM --------------------------------------------------------------------------


def test_rp2_pwm_model():
    clock = on_port("rp2")
    t0 = time.ticks_ms()
    pwm = machine.PWM(Pin(12))
    check(not pwm.running and pwm.freq() == 0, "PWM(pin) alone: no frequency, stopped")
    pwm.freq(2000)
    check(not pwm.running, "a frequency without a duty: not started (machine_pwm_start)")
    pwm.duty_u16(32768)
    check(pwm.sounding() and pwm.freq() == 2000, "started once both are set")
    # TOP = round(125 MHz / hz) - 1 reads back hz; at 8 Hz the divider is 125 MHz / (255.x x
    # 65535), about 7.5 Hz at most.
    for hz in (1319, 2093, 2637, 3136, 4186, 8):
        pwm.freq(hz)
        check(pwm.freq() == hz, "%d -> %d" % (hz, pwm.freq()))
    for bad, text in ((7, "freq too small"), (0, "divide by zero")):
        err = raised(pwm.freq, bad)
        check(isinstance(err, ValueError) and text in str(err), "freq(%d): %r" % (bad, err))
    pwm.freq(2000)
    clock.sleep_ms(10)
    pwm.deinit()
    check(not pwm.running and pwm.freq() == 2000, "deinit halts the slice, keeps the divider")
    clock.sleep_ms(10)
    pwm.duty_u16(32768)
    check(pwm.sounding(), "the next duty_u16 starts the slice again")
    pwm.duty_u16(70000)
    check(pwm.duty_u16() == 65535 and not pwm.sounding(), "capped: high all the time, no tone")
    pwm.duty_u16(0)
    check(pwm.running and not pwm.sounding(), "duty 0: running, the pin low")
    machine.freq(100000000)  # clk_sys 100 MHz: the slice divides the new clock
    check(pwm.freq() == 1600, "freq() follows clk_sys: %d" % pwm.freq())
    t = [(ms - t0, hz, duty) for ms, hz, duty in pwm.tones()]
    check(t[:2] == [(0, 2000, 0), (0, 2000, 32768)], "silent until the duty: %r" % t)
    check(t[-5:-2] == [(0, 2000, 32768), (10, 2000, 0), (20, 2000, 32768)], repr(t))


def test_esp32_pwm_model():
    on_port("esp32")
    pwm = machine.PWM(Pin(33))
    check(pwm.sounding() and pwm.freq() == 5000 and pwm.duty_u16() == 32768, "5 kHz, 50 %")
    quiet = machine.PWM(Pin(13), freq=2000, duty_u16=0)
    check(quiet.running and not quiet.sounding(), "duty_u16=0: silent")
    check(quiet.tones()[0][1:] == (2000, 0), repr(quiet.tones()))
    for call, arg, want, text in (
        (quiet.freq, 0, ValueError, "from 1Hz to 40MHz"),
        (quiet.freq, 40000001, ValueError, "from 1Hz to 40MHz"),
        (quiet.duty_u16, 65536, ValueError, "from 0 to 65536"),
    ):
        err = raised(call, arg)
        check(isinstance(err, want) and text in str(err), "%d: %r" % (arg, err))
    quiet.freq(2637)
    quiet.duty_u16(32768)
    check(quiet.sounding() and quiet.freq() == 2637)
    quiet.deinit()
    check(not quiet.running and not quiet.active, "deinit: stopped at idle level 0")
    for call in (quiet.freq, quiet.duty_u16):
        err = raised(call, 1000)
        check(isinstance(err, RuntimeError) and str(err) == "PWM is inactive", repr(err))
    quiet.init()
    check(quiet.sounding() and quiet.freq() == 5000, "init() alone: the defaults again")
    quiet.deinit()
    quiet.init(freq=3136, duty_u16=32768)
    check(quiet.sounding() and quiet.freq() == 3136)
    check([(f, d) for _, f, d in quiet.tones()][2:5] == [(2637, 32768), (0, 0), (5000, 32768)])


def test_pwm_recording_allocates_nothing():
    import micropython

    on_port("rp2")
    pwm = machine.PWM(Pin(12), freq=1999, duty_u16=0, capacity=256)
    micropython.heap_lock()
    try:
        for k in range(150):  # 300 changes, more than it keeps: the oldest are dropped
            pwm.freq(2000 + k)
            pwm.duty_u16(32768 if k & 1 else 0)
    finally:
        micropython.heap_unlock()
    check(pwm.changes == 300 and pwm.started == 75, "%d %d" % (pwm.changes, pwm.started))
    kept = pwm.tones()
    check(len(kept) == 256 and pwm.last() == kept[-1] and kept[-1][1:] == (2149, 32768))
    check(kept[0][1:] == (2022, 32768), repr(kept[0]))


mptest.run(globals())
