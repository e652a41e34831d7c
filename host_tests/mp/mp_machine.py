# The fake machine's Pin and SPI: fakebus's stand-ins with the port's API, on the board's bus.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=64k paths={hostboard}
import time

import fakebus
import machine
import mptest
from machine import SPI, Pin
from mptest import check


def recorded():
    return fakebus.decode(machine.BUS.take())


def test_pin_and_spi_are_the_host_stand_ins():
    machine.reset_state()
    check(isinstance(Pin(2), fakebus.Pin) and isinstance(SPI(0), fakebus.SPI))


def test_an_output_is_recorded_under_its_id_from_when_it_becomes_one():
    machine.reset_state()
    pin = Pin(20)  # an input: its latch is set, nothing recorded
    pin.value(1)
    check(recorded() == [])
    pin.init(mode=Pin.OUT)
    pin(0)
    pin.toggle()
    check(recorded() == [("pin", "20", 1), ("pin", "20", 0), ("pin", "20", 1)], "recorded")
    check(pin.value() == 1 and pin.mode() == Pin.OUT)


def test_init_with_a_value_drives_an_output():
    machine.reset_state()
    pin = Pin(21, Pin.OUT, value=1)
    pin.init(value=0)  # as a board file may do when it re-inits an output
    check(recorded() == [("pin", "21", 1), ("pin", "21", 0)] and pin() == 0)


def test_an_input_reads_what_the_script_set_else_its_pull():
    machine.reset_state()
    machine.set_level(13, 0)  # held before the pin exists: a button held at power-on
    held = Pin(13, Pin.IN, Pin.PULL_UP)
    check(held.value() == 0 and Pin(14, Pin.IN, Pin.PULL_UP).value() == 1)
    check(Pin(15, Pin.IN).value() == 0 and Pin(16, Pin.IN, Pin.PULL_DOWN)() == 0)
    machine.set_level(13, 1)
    check(held.value() == 1 and recorded() == [], "inputs are not recorded")


def test_spi_records_the_ports_clock_before_its_bytes():
    machine.reset_state()
    machine.use_port("rp2")
    try:
        spi = SPI(0, baudrate=4000000, sck=Pin(18), mosi=Pin(19))
        spi.write(b"\x21")
        machine.lightsleep(50)  # rp2: clk_peri 48 -> 125 MHz, the divider stays
        spi.write(b"\x20")
        hz = spi.hz
    finally:
        machine.use_port(None)
    want = [("clock", 4000000), ("spi", b"\x21"), ("clock", 10416666), ("spi", b"\x20")]
    got = recorded()
    check(got == want and hz == 10416666, repr(got))


def test_pins_and_buses_record_on_the_board_they_were_made_on():
    machine.reset_state()
    old_pin = Pin(20, Pin.OUT)
    old_spi = SPI(0)
    machine.reset_state()  # a power cycle: a new board, a new bus
    Pin(22, Pin.OUT, value=1)
    old_pin(1)
    old_spi.write(b"\x00")
    check(recorded() == [("pin", "22", 1)], "the old board's pins wrote on the new bus")


# -- the watchdog ------------------------------------------------------------------------------


def on_port(name):
    machine.use_port(name)
    machine.reset_state()
    return time.use(time.FakeClock())


def bitten(run):
    """The Reset (or LockUp) that run() ended with, or None."""
    try:
        run()
    except (machine.Reset, machine.LockUp) as err:
        return err
    return None


def test_each_ports_watchdog_takes_the_timeouts_the_port_takes():
    try:
        for port, bad, good in (
            ("rp2", (8389, -1), (8388, 5000)),
            ("esp32", (0, -5), (5000, 24 * 3600 * 1000)),
        ):
            for timeout in bad:
                on_port(port)
                check(bitten(lambda: None) is None)
                try:
                    machine.WDT(timeout=timeout)
                    check(False, "%s took %d" % (port, timeout))
                except ValueError:
                    pass
            for timeout in good:
                on_port(port)
                check(machine.WDT(timeout=timeout).timeout == timeout)
            try:
                machine.WDT(1, 1000)
                check(False, port + ": WDT(1)")
            except ValueError:
                pass
    finally:
        machine.use_port(None)


def test_a_dog_fed_too_late_resets_with_wdt_reset_at_its_time():
    for port in ("rp2", "esp32", None):
        clock = on_port(port)
        dog = machine.WDT(timeout=1000)
        for _ in range(10):
            time.sleep_ms(900)
            dog.feed()  # in time: nothing happens
        fed = clock.now
        err = bitten(lambda: time.sleep_ms(5000))
        check(isinstance(err, machine.Reset) and err.cause == machine.WDT_RESET, repr(err))
        check(clock.now == fed + 1000, "bit at %d" % (clock.now - fed))
    machine.use_port(None)


def test_light_sleep_rp2_counts_and_locks_up_esp32_pauses():
    try:
        clock = on_port("rp2")
        dog = machine.WDT(timeout=1000)
        machine.lightsleep(900)
        dog.feed()  # it counted 900 ms, fed in time
        err = bitten(lambda: machine.lightsleep(1500))
        check(isinstance(err, machine.LockUp), "rp2 v1.28: %r" % (err,))
        clock = on_port("esp32")
        dog = machine.WDT(timeout=1000)
        time.sleep_ms(600)
        machine.lightsleep(3000)  # paused: 400 ms are left after it
        check(bitten(lambda: time.sleep_ms(399)) is None)
        at = clock.now
        err = bitten(lambda: time.sleep_ms(10))
        check(isinstance(err, machine.Reset) and clock.now == at + 1, repr(err))
    finally:
        machine.use_port(None)


def test_reset_cause_after_machine_reset_and_the_rp2_scratch_register():
    try:
        for port, cause in (("rp2", machine.WDT_RESET), ("esp32", machine.HARD_RESET)):
            on_port(port)
            machine.WDT(timeout=1000)
            err = bitten(machine.reset)
            check(err.cause == cause, port)
        on_port("rp2")
        machine.WDT(timeout=1000)
        check(machine.mem32[0x4005801C] == 0x6AB73121)  # watchdog_enable()'s magic
        err = bitten(lambda: time.sleep_ms(2000))
        machine.reset_state(cause=err.cause)
        check(machine.reset_cause() == machine.WDT_RESET and machine.mem32[0x4005801C])
        check(machine.wdt() is None, "a reset stops the watchdog")
        dog = machine.WDT(timeout=1000)
        machine.mem32[0x4005B000] = 1 << 30  # watchdog_disable()
        check(not dog.armed and bitten(lambda: time.sleep_ms(5000)) is None)
        machine.reset_state()  # power-on
        check(machine.mem32[0x4005801C] == 0 and machine.reset_cause() == machine.PWRON_RESET)
    finally:
        machine.use_port(None)


mptest.run(globals())
