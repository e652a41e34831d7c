"""The PCD8544 model against the datasheet's behaviour (CPython side), reading what the
recording bus (test_fakebus.py) carries: reset, power-down, display control, addressing and the
instruction set. The serial interface, reading the glass and the SPI clock:
test_pcd8544_model_wire.py."""

import random

import fakebus
import pcd8544_model as pm
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pcd8544rig import started


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


def test_feed_accepts_hex_text():
    bus = fakebus.Bus()
    fakebus.Pin(bus, "dc", 0)
    fakebus.SPI(bus).write(b"\x21\xb2\x20\x0d")
    model = pm.Model(rst=None).feed(bus.hexlify() + "\n")
    assert (model.vop, model.mode, model.h, model.powered_down) == (0x32, pm.INVERSE, 0, False)


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


# -- addressing ----------------------------------------------------------------------------


def test_horizontal_addressing_wraps_from_every_start():
    rig = started()
    for start in range(504):
        x0, y0 = start % 84, start // 84
        rig.cmd(0x80 | x0, 0x40 | y0)
        rig.data(bytes((start + k) & 0xFF for k in range(505)))
        ram = rig.model.ram
        for k in (1, 83, 84, 503):
            assert ram[(start + k) % 504] == (start + k) & 0xFF, (x0, y0, k)
        assert ram[start] == (start + 504) & 0xFF  # the 505th byte wrapped onto the first
        assert rig.model.y * 84 + rig.model.x == (start + 505) % 504


def test_vertical_addressing_wraps_from_every_start():
    rig = started()
    rig.cmd(0x22)  # V=1, H=0, PD=0
    for start in range(504):
        x0, y0 = start // 6, start % 6  # position in the vertical order
        rig.cmd(0x80 | x0, 0x40 | y0)
        rig.data(bytes((start + k) & 0xFF for k in range(505)))
        ram = rig.model.ram
        for k in (1, 5, 6, 503, 504):
            v = (start + k) % 504
            assert ram[(v % 6) * 84 + v // 6] == (start + k) & 0xFF, (x0, y0, k)
        v = (start + 505) % 504
        assert (rig.model.x, rig.model.y) == (v // 6, v % 6)


def test_out_of_range_addresses_are_anomalies():
    rig = started()
    model = rig.cmd(0x80 | 84, 0x46)
    assert "set X 84 out of range 0..83 (0xd4)" in model.anomalies
    assert "set Y 6 out of range 0..5 (0x46)" in model.anomalies
    ram = bytes(model.ram)
    rig.data(b"\x55")
    assert model.ram == ram, "a write at an invalid address must not land in the RAM"
    assert any("out-of-range address X=84 Y=6" in a for a in model.anomalies)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0x20, 0x22]),
            st.integers(0, 83),
            st.integers(0, 5),
            st.binary(min_size=1, max_size=1200),
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_writes_land_where_the_address_counters_say(writes, cleared_first):
    """A reference walk of the counters, byte by byte, in both modes (and both model paths:
    the RAM fully written once takes the model's linear fast path for horizontal writes)."""
    rig = started()
    if cleared_first:
        rig.cmd(0x80, 0x40)
        rig.data(bytes(504))
    ref = bytearray(rig.model.ram)
    for function, x, y, payload in writes:
        rig.cmd(function, 0x80 | x, 0x40 | y)
        model = rig.data(payload)
        for byte in payload:
            ref[y * 84 + x] = byte
            if function == 0x22:
                y, x = (0, (x + 1) % 84) if y == 5 else (y + 1, x)
            else:
                x, y = (0, (y + 1) % 6) if x == 83 else (x + 1, y)
        assert model.ram == ref and (model.x, model.y) == (x, y)
    assert model.anomalies == []


# -- the instruction set -------------------------------------------------------------------


def test_h_bit_decides_between_set_x_and_set_vop():
    rig = started()
    model = rig.cmd(0x21, 0x80 | 0x45, 0x20)
    assert (model.vop, model.x) == (0x45, 0)
    model = rig.cmd(0x80 | 0x45)
    assert (model.vop, model.x) == (0x45, 0x45)
    assert model.anomalies == []


def test_forgetting_to_leave_the_extended_set_clobbers_vop():
    rig = started()
    model = rig.cmd(0x21, 0x80 | 60)  # contrast set, H left at 1
    model = rig.cmd(0x80, 0x40)  # meant as X=0, Y=0
    assert model.vop == 0, "0x80 with H=1 is set Vop 0"
    assert "undefined command 0x40 with H=1" in model.anomalies


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
        if meaning == "set Y" and c & 7 > 5 or meaning == "set X" and c & 0x7F > 83:
            assert model.anomalies, hex(c)
        elif meaning in ("nop", "reserved"):
            assert model.state().split(" anomalies")[0] == before.split(" anomalies")[0]
        elif meaning == "set Vop":
            assert model.vop == c & 0x7F
        elif meaning == "tc":
            assert model.tc == c & 3
        elif meaning == "bias":
            assert model.bias == c & 7
        elif meaning == "display control":
            assert model.mode == ((c >> 1) & 2) | (c & 1)
        elif meaning == "function set":
            assert (model.powered_down, model.vertical, model.h) == (
                bool(c & 4),
                (c >> 1) & 1,
                c & 1,
            )


def test_vop_beyond_the_generator_limit_is_an_anomaly():
    rig = started()
    assert rig.cmd(0x21, 0x80 | 90, 0x20).anomalies == []
    assert "Vop 91 above 90" in rig.cmd(0x21, 0x80 | 91, 0x20).anomalies[0]
