"""The PCD8544 model (testbed/pcd8544_model.py) against the datasheet's behaviour, reading what
the recording bus (test_fakebus.py) carries: reset, power-down, display control, addressing, the
instruction set, the serial interface and the SPI clock. Under MicroPython (no allocation,
memory flat over a long run): mp/mp_pcd8544_model.py. Its readers of the glass (pixels, half
blocks) are held by the golden .txt twins and test_pcd8544.py's frames."""

import random

import fakebus
import pcd8544_model as pm
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


class Rig:
    """A bus with the usual pins, and shorthands that send commands or data and return the
    model fed what the bus carried. Without SCE or RES pins, as a module may be wired:
    test_pcd8544.py's init scenes (cs=0 rst=0) and random frames."""

    def __init__(self):
        self.bus = fakebus.Bus()
        self.spi = fakebus.SPI(self.bus)
        self.dc = fakebus.Pin(self.bus, "dc", 0)
        self.cs = fakebus.Pin(self.bus, "cs", 1)
        self.rst = fakebus.Pin(self.bus, "rst", 1)
        self.model = pm.Model()

    def send(self, dc, payload):
        self.dc(dc)
        self.cs(0)
        self.spi.write(bytes(payload))
        self.cs(1)
        return self.feed()

    def cmd(self, *codes):
        return self.send(0, codes)

    def data(self, payload):
        return self.send(1, payload)

    def reset(self):
        self.rst(0)
        self.rst(1)
        return self.feed()

    def feed(self):
        self.model.feed(self.bus.take())
        return self.model

    def start(self):
        """The datasheet's typical start: RES pulse, extended set, Vop 0x38, TC 0, BS 4, basic
        set, normal mode."""
        self.reset()
        return self.cmd(0x21, 0x80 | 0x38, 0x04, 0x14, 0x20, 0x0C)


def started():
    rig = Rig()
    rig.start()
    return rig


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_feeding_in_pieces_of_any_size_equals_feeding_at_once(data):
    bus = fakebus.Bus()
    spi = fakebus.SPI(bus)
    pins = [fakebus.Pin(bus, name, 1) for name in ("dc", "cs", "rst")]
    spi.write(b"\x21\xb8\x04\x14\x20\x0c")
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(20):
        rng.choice(pins)(rng.getrandbits(1))
        spi.write(bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 40))))
    raw = bus.take()
    whole = pm.Model().feed(raw)
    pieces = pm.Model()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    for a, b in zip([0] + cuts, cuts + [len(raw)], strict=True):
        pieces.feed(raw[a:b])
    assert pieces.ram == whole.ram and pieces.glass() == whole.glass()
    assert pieces.state() == whole.state()


# -- reset, power-down ---------------------------------------------------------------------


def test_reset_state_is_the_datasheets():
    rig = started()
    rig.cmd(0x22 | 0x01, 0x80 | 70, 0x07, 0x15, 0x20, 0x0D, 0x85, 0x42)
    rig.data(b"\xaa")
    ram_before = bytes(rig.model.ram)
    model = rig.reset()
    assert (model.powered_down, model.vertical, model.h) == (True, 0, 0)
    assert (model.mode, model.x, model.y) == (pm.BLANK, 0, 0)
    assert (model.tc, model.bias, model.vop) == (0, 0, 0)
    assert bytes(model.ram) == ram_before, "reset must not clear the RAM"
    assert model.glass() == bytes(504)
    assert model.resets == 2


def test_ram_is_noise_until_written():
    rig = started()
    model = rig.model
    assert model.unwritten == 504 and len(model.dark_pixels()) > 500
    rig.cmd(0x80, 0x40)
    rig.data(bytes(500))
    assert model.unwritten == 4
    rig.data(bytes(10))
    assert model.unwritten == 0 and model.dark_pixels() == set()


def test_power_down_blanks_the_glass_and_keeps_ram():
    rig = started()
    rig.cmd(0x80, 0x40)
    rig.data(bytes([0x81]) * 504)
    picture = rig.model.glass()
    assert picture == bytes([0x81]) * 504
    model = rig.cmd(0x24)
    assert model.powered_down and model.glass() == bytes(504) and model.pixel(0, 0) == 0
    rig.cmd(0x80, 0x40)
    rig.data(b"\x00")  # commands and RAM writes still work while powered down
    model = rig.cmd(0x20)
    assert not model.powered_down
    assert model.glass() == b"\x00" + picture[1:]


# -- display control -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, mode, expect",
    [
        (0x08, pm.BLANK, lambda b: 0),
        (0x0C, pm.NORMAL, lambda b: b),
        (0x09, pm.ALL_ON, lambda b: 0xFF),
        (0x0D, pm.INVERSE, lambda b: b ^ 0xFF),
    ],
)
def test_display_control_modes(code, mode, expect):
    rig = started()
    rig.cmd(0x80, 0x40)
    pattern = bytes((i * 37) & 0xFF for i in range(504))
    rig.data(pattern)
    model = rig.cmd(code)
    assert model.mode == mode
    assert model.glass() == bytes(expect(b) for b in pattern)
    assert model.pixel(5, 9) == (expect(pattern[84 + 5]) >> 1) & 1
    assert model.ram == pattern
    with pytest.raises(ValueError, match="outside 0..83 x 0..47"):
        model.pixel(84, 0)


# -- addressing ----------------------------------------------------------------------------


def walk(ref, function, x, y, payload):
    """Write `payload` into `ref` (504 bytes) as the datasheet's address counters say, byte by
    byte, from (x, y) with function set `function` (0x20 horizontal, 0x22 vertical): the (x, y)
    after it."""
    for byte in payload:
        ref[y * 84 + x] = byte
        if function == 0x22:
            y, x = (0, (x + 1) % 84) if y == 5 else (y + 1, x)
        else:
            x, y = (0, (y + 1) % 6) if x == 83 else (x + 1, y)
    return x, y


@pytest.mark.parametrize("function", [0x20, 0x22], ids=["horizontal", "vertical"])
def test_addressing_wraps_from_every_start(function):
    # From each of the 504 addresses 505 bytes (every wrap, the last byte onto the first), and
    # from every seventh a short write and one that wraps twice; every byte value is data (0x21
    # too: D/C high makes it data). The horizontal run takes the model's linear fast path once
    # the RAM is fully written.
    rig = started()
    rig.cmd(function)
    ref = bytearray(rig.model.ram)
    for start in range(504):
        x, y = (start % 84, start // 84) if function == 0x20 else (start // 6, start % 6)
        for size in (505, 3, 1200) if start % 7 == 0 else (505,):
            rig.cmd(0x80 | x, 0x40 | y)
            payload = bytes((start + k) & 0xFF for k in range(size))
            model = rig.data(payload)
            assert (model.x, model.y) == walk(ref, function, x, y, payload), (x, y, size)
            assert model.ram == ref, (x, y, size)
    assert model.anomalies == []


def test_out_of_range_addresses_are_anomalies():
    rig = started()
    model = rig.cmd(0x80 | 84, 0x46)
    assert "set X 84 out of range 0..83 (0xd4)" in model.anomalies
    assert "set Y 6 out of range 0..5 (0x46)" in model.anomalies
    ram = bytes(model.ram)
    rig.data(b"\x55")
    assert model.ram == ram, "a write at an invalid address must not land in the RAM"
    assert any("out-of-range address X=84 Y=6" in a for a in model.anomalies)


# -- the instruction set -------------------------------------------------------------------


def _datasheet_meaning(h, c):
    """Table 1 of the datasheet, written out bit by bit, independently of the model."""
    bits = format(c, "08b")

    def match(pattern):
        return all(
            p in "xv" or p == b for p, b in zip(pattern.replace(" ", ""), bits, strict=True)
        )

    if c == 0:
        return "nop"
    if match("0010 0xxx"):
        return "function set"
    table = (
        [("0000 1x0x", "display control"), ("0100 0xxx", "set Y"), ("1xxx xxxx", "set X")]
        if h == 0
        else [("0000 01xx", "tc"), ("0001 0xxx", "bias"), ("1xxx xxxx", "set Vop")]
    )
    for pattern, meaning in table:
        if match(pattern):
            return meaning
    return "reserved"


# What each instruction sets, as (the model's value, the value the byte carries).
SETS = {
    "set X": lambda m, c: (m.x, c & 0x7F),
    "set Y": lambda m, c: (m.y, c & 7),
    "set Vop": lambda m, c: (m.vop, c & 0x7F),
    "tc": lambda m, c: (m.tc, c & 3),
    "bias": lambda m, c: (m.bias, c & 7),
    "display control": lambda m, c: (m.mode, (c >> 1) & 2 | c & 1),
    "function set": lambda m, c: (
        (m.powered_down, m.vertical, m.h),
        (bool(c & 4), (c >> 1) & 1, c & 1),
    ),
}


@pytest.mark.parametrize("h", [0, 1])
def test_every_command_byte_is_decoded_as_table_1_says(h):
    for c in range(256):
        rig = started()
        rig.cmd(0x20 | h)
        before = rig.model.state()
        model = rig.cmd(c)
        meaning = _datasheet_meaning(h, c)
        flagged = [a for a in model.anomalies if "undefined command" in a]
        assert bool(flagged) == (meaning == "reserved"), (hex(c), meaning, model.anomalies)
        if meaning in ("nop", "reserved"):
            assert model.state().split(" anomalies")[0] == before.split(" anomalies")[0]
        else:
            got, want = SETS[meaning](model, c)
            assert got == want, (hex(c), meaning)
        if meaning == "set Y" and c & 7 > 5 or meaning == "set X" and c & 0x7F > 83:
            assert model.anomalies, hex(c)


def test_vop_beyond_the_generator_limit_is_an_anomaly():
    rig = started()
    assert rig.cmd(0x21, 0x80 | 90, 0x20).anomalies == []
    assert "Vop 91 above 90" in rig.cmd(0x21, 0x80 | 91, 0x20).anomalies[0]


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


# -- joining late, naming the pins -------------------------------------------------------


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
    assert model.backlight is None  # no backlight pin either
    model = pm.Model(dc="GP16", rst=None).feed(raw)
    assert model.anomalies == [] and model.h == 1 and not model.powered_down


# -- the SPI clock ---------------------------------------------------------------------------


def test_bytes_clocked_above_4_mbit_are_an_anomaly_and_counted_per_rate():
    model = started().model  # a recording without clock records reads as before
    assert model.spi_hz is None and model.clocked == {} and model.anomalies == []
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
