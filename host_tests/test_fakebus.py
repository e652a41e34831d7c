"""The host side's Pin/SPI stand-ins and the recording bus they write to (testbed/fakebus.py);
recording without allocating under MicroPython: mp/mp_pcd8544_model.py; the fake machine's Pin
and SPI that build on these: mp/mp_machine.py."""

import fakebus
import pytest

# -- the recording -------------------------------------------------------------------------


def test_recording_decodes_to_the_same_events_in_order():
    bus = fakebus.Bus()
    spi = fakebus.SPI(bus)
    dc = fakebus.Pin(bus, "dc", 1)
    cs = fakebus.Pin(bus, "cs")
    spi.write(b"\x01\x02")
    dc.off()
    dc(0)  # no change: not recorded
    cs.on()
    spi.write(bytearray(b"\xff"))
    assert fakebus.decode(bus.data) == [
        ("pin", "dc", 1),
        ("pin", "cs", 0),
        ("spi", b"\x01\x02"),
        ("pin", "dc", 0),
        ("pin", "cs", 1),
        ("spi", b"\xff"),
    ]
    assert (bus.spi_writes, bus.spi_bytes) == (2, 3)
    assert dc.value() == 0 and cs() == 1


def test_hex_round_trip_and_take_clears():
    bus = fakebus.Bus(capacity=16)  # forces the buffer to grow
    spi = fakebus.SPI(bus)
    fakebus.Pin(bus, "dc", 1)
    spi.write(bytes(range(256)) * 3)
    text = bus.hexlify()
    raw = bus.take()
    assert fakebus.unhexlify(" " + text + "\n") == raw
    assert len(bus) == 0 and bus.take() == b""
    assert fakebus.decode(raw)[-1] == ("spi", bytes(range(256)) * 3)


def test_a_write_longer_than_a_record_is_split_but_keeps_its_bytes():
    bus = fakebus.Bus()
    fakebus.SPI(bus).write(bytes(70000))
    events = fakebus.decode(bus.data)
    assert [len(e[1]) for e in events] == [65535, 70000 - 65535]
    assert bus.spi_writes == 1


def test_decoder_rejects_what_is_not_a_recording():
    with pytest.raises(ValueError, match="undeclared pin"):
        fakebus.decode(b"\x05\x01")
    with pytest.raises(ValueError, match="not a fakebus recording"):
        fakebus.decode(b"\x99\x00")


def test_the_clock_is_recorded_once_per_rate_before_the_bytes_it_clocks():
    bus = fakebus.Bus()
    spi = fakebus.SPI(bus, hz=4000000)
    fakebus.Pin(bus, "dc", 0)
    spi.write(b"\x21")
    spi.write(b"\x20")  # same rate: no new record
    spi.hz = 10416666
    spi.write(b"\x0c")
    bus.clock(10416666)  # said again: still nothing recorded
    assert fakebus.decode(bus.data) == [
        ("pin", "dc", 0),
        ("clock", 4000000),
        ("spi", b"\x21"),
        ("spi", b"\x20"),
        ("clock", 10416666),
        ("spi", b"\x0c"),
    ]
    assert bus.hz == 10416666 and fakebus.decode(bus.preamble())[-1] == ("clock", 10416666)
    with pytest.raises(ValueError, match="1..4294967295 Hz"):
        bus.clock(0)


# -- the stand-ins ---------------------------------------------------------------------------


def test_a_pin_without_a_bus_is_an_output_that_goes_nowhere_or_an_input():
    out = fakebus.Pin()
    assert out.value() == 0 and out.name is None
    out(1)
    assert out.value() == 1 and out() == 1 and out.level == 1
    out.off()
    out.toggle()
    assert out.value() == 1
    out.low()
    assert out.level == 0
    button = fakebus.Pin(value=1)  # released, as with a pull-up
    assert button.value() == 1
    button.level = 0  # the test presses it
    assert button.value() == 0
    assert vars(button) == {"level": 0}, "a bus-less pin carries its level and nothing else"


def test_a_test_driving_a_pin_on_a_bus_is_not_the_codes_output():
    bus = fakebus.Bus()
    pin = fakebus.Pin(bus, "btn", 1)
    pin.level = 0  # the outside world: read by the code, not recorded as its output
    assert pin.value() == 0
    pin.value(1)  # the code drives it: recorded
    assert fakebus.decode(bus.data) == [("pin", "btn", 1), ("pin", "btn", 1)]


def test_an_spi_without_a_bus_takes_every_write():
    spi = fakebus.SPI(hz=4000000)
    spi.write(b"\x21" * 600)
    assert spi.bus is None
    bus = fakebus.Bus()
    spi.bus = bus
    spi.write(b"\x20")
    assert fakebus.decode(bus.data) == [("clock", 4000000), ("spi", b"\x20")]
