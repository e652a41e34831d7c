"""The PCD8544 model (CPython side) on the serial interface: chip enable, D/C, traffic before
reset, the backlight, reading the glass, a reader joining mid-run and the SPI clock. The
datasheet's instruction set and addressing: test_pcd8544_model.py."""

import random

import fakebus
import pcd8544_model as pm
import pytest
from pcd8544rig import Rig, started

# -- the serial interface ------------------------------------------------------------------


def test_bytes_count_only_while_chip_enable_is_low():
    rig = started()
    rig.cmd(0x80, 0x40)
    rig.data(bytes(504))
    rig.cmd(0x80, 0x40)
    rig.cs(1)
    rig.dc(1)
    rig.spi.write(b"\xff" * 10)  # another device on the bus
    model = rig.feed()
    assert model.ignored == 10 and model.glass() == bytes(504)
    assert model.anomalies == []


def test_without_a_chip_enable_pin_the_module_is_always_selected():
    rig = Rig(cs=False, rst=False)
    model = rig.start()
    assert model.selected and model.vop == 0x38 and model.anomalies == []
    rig.data(b"\x0f")
    assert model.pixel(0, 0) == 1 and model.pixel(0, 4) == 0


def test_data_and_command_follow_the_dc_level_of_each_write():
    rig = started()
    model = rig.cmd(0x80 | 3, 0x41)
    rig.data(b"\x21")  # data, although it looks like a function set
    assert model.ram[84 + 3] == 0x21 and model.h == 0


def test_traffic_before_reset_or_initialisation_is_an_anomaly():
    rig = Rig()
    model = rig.cmd(0x21)
    assert any("before any RES pulse" in a for a in model.anomalies)
    rig = Rig()
    rig.reset()
    model = rig.data(b"\x01")
    assert model.anomalies == [
        "data before initialisation (no function set with PD=0 since reset)"
    ]
    rig = Rig()
    rig.rst(0)
    rig.cs(0)
    rig.spi.write(b"\x21")
    model = rig.feed()
    assert model.ignored == 1 and "bytes sent while RES is low are lost" in model.anomalies


def test_anomalies_are_listed_once_and_counted():
    rig = started()
    for _ in range(5):
        rig.cmd(0x05)
    assert rig.model.anomalies == ["undefined command 0x05 with H=0"]
    assert rig.model.anomaly_count == 5


def test_backlight_follows_its_pin_and_polarity():
    bus = fakebus.Bus()
    light = fakebus.Pin(bus, "bl", 1)
    model = pm.Model(light="bl", light_on=0).feed(bus.take())
    assert model.backlight is False
    light(0)
    assert model.feed(bus.take()).backlight is True
    assert pm.Model().backlight is None


# -- reading the glass ---------------------------------------------------------------------


def test_pixel_and_text_agree_with_the_ram_layout():
    rig = started()
    rig.cmd(0x80, 0x40)
    rig.data(bytes(504))
    rig.cmd(0x80 | 83, 0x45)
    model = rig.data(b"\x80")  # bottom-right pixel: bank 5, column 83, MSB
    rig.cmd(0x80, 0x40)
    rig.data(b"\x03")  # top-left two pixels
    assert model.dark_pixels() == {(0, 0), (0, 1), (83, 47)}
    lines = model.text().split("\n")
    assert len(lines) == 24 and all(len(line) == 84 for line in lines)
    assert lines[0][0] == "\u2588" and lines[23][83] == "\u2584"
    assert sum(line.count(" ") for line in lines) == 24 * 84 - 2
    framed = model.text(border=True).split("\n")
    assert len(framed) == 26 and framed[1] == "|" + lines[0] + "|"
    with pytest.raises(ValueError):
        model.pixel(84, 0)


def test_a_long_run_can_be_fed_and_cleared_without_growing():
    rig = started()
    rng = random.Random(7)
    for _ in range(2000):
        rig.cmd(0x80 | rng.randrange(84), 0x40 | rng.randrange(6))
        rig.data(bytes([rng.getrandbits(8)]) * rng.randrange(1, 50))
    assert len(rig.bus) == 0 and rig.model.anomalies == []
    assert rig.model.commands == 6 + 4000 and rig.model.data_bytes > 2000


def test_preamble_lets_a_new_reader_join_mid_run():
    bus = fakebus.Bus()
    spi = fakebus.SPI(bus)
    dc = fakebus.Pin(bus, "dc", 0)
    fakebus.Pin(bus, "cs", 0)
    spi.write(b"\x21\xb8\x20\x0c\x80\x40")
    dc(1)
    bus.clear()
    late = pm.Model(rst=None).feed(bus.preamble())
    spi.write(b"\x07")
    late.feed(bus.take())
    assert late.ram[0] == 0x07 and late.data_bytes == 1 and late.commands == 0
    assert fakebus.decode(bus.preamble()) == [("pin", "dc", 1), ("pin", "cs", 0)]


def test_a_missing_dc_pin_is_reported_by_name():
    bus = fakebus.Bus()
    fakebus.Pin(bus, "GP16", 0)
    fakebus.SPI(bus).write(b"\x21")
    raw = bus.take()
    model = pm.Model(rst=None).feed(raw)
    assert "SPI bytes but no D/C pin named 'dc': read as commands" in model.anomalies
    model = pm.Model(dc="GP16", rst=None).feed(raw)
    assert model.anomalies == [] and model.h == 1 and not model.powered_down


# -- the SPI clock ---------------------------------------------------------------------------


def test_bytes_clocked_above_4_mbit_are_an_anomaly_and_counted_per_rate():
    rig = Rig()
    rig.spi.hz = 4000000
    model = rig.start()
    assert model.anomalies == [] and model.spi_hz == 4000000
    assert model.clocked == {4000000: 6}
    rig.spi.hz = 10416666  # rp2 after a light sleep, with the divider chosen for 48 MHz
    rig.cmd(0x80, 0x40)
    model = rig.data(b"\xff" * 10)
    assert model.clocked == {4000000: 6, 10416666: 12}
    assert model.anomalies == [
        "bytes clocked at 10416666 Hz, above the 4.0 Mbit/s the controller takes"
    ]
    rig.spi.hz = 3906250  # slower is fine
    rig.cs(1)
    rig.spi.write(b"\x00" * 5)  # not selected: not taken, not counted
    model = rig.data(b"\x01")
    assert model.clocked[3906250] == 1 and model.anomaly_count == 2


def test_a_recording_without_clock_records_reads_as_before():
    rig = started()
    assert rig.model.spi_hz is None and rig.model.clocked == {} and rig.model.anomalies == []
