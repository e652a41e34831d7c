# The fake machine's Pin and SPI: fakebus's stand-ins with the port's API, on the board's bus.
# SPDX-License-Identifier: MIT
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


mptest.run(globals())
