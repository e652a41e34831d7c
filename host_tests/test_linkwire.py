"""linkwire.py, the link cable's framing, under CPython: every message arrives whole however the
bytes come in, and what a wire can do to them (a byte flipped, lost, doubled; garbage, a REPL
banner) never makes a message that was not sent. Under MicroPython (no garbage):
mp/mp_linkwire.py."""

import random

import cable
import linkwire
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linkpair import frame

MESSAGES = st.lists(st.binary(min_size=1, max_size=linkwire.MAX), min_size=1, max_size=8)
# A game's worth of messages as the link sends them: a version, a kind, a number, a cell and a
# position, zeros among them (what COBS must carry).
GAME = [
    bytes((1, kind, seq, seq % 9, 0, seq * 37 % 256, 0)) for seq in range(1, 12) for kind in (2, 3)
]
BANNER = (
    b"MPY: soft reboot\r\nMicroPython v1.28.0 on 2026-04-06; Raspberry Pi Pico with RP2040\r\n"
    b'Type "help()" for more information.\r\n>>> '
)


class Trickle:
    """A UART that hands over what it holds a few bytes a read, as `sizes` say."""

    def __init__(self, data, sizes):
        self.data = bytearray(data)
        self.sizes = sizes
        self.reads = 0

    def readinto(self, buf):
        n = min(len(self.data), len(buf), self.sizes[self.reads % len(self.sizes)])
        self.reads += 1
        if not n:
            return None
        buf[:n] = self.data[:n]
        self.data[:n] = b""
        return n


def framed(messages):
    """The bytes a Wire puts on the wire for `messages`."""
    return b"".join(frame(*m) for m in messages)


def received(data, sizes=(16,)):
    """The messages a Wire makes of `data`, read as `sizes` say, and its dropped count."""
    wire = linkwire.Wire(Trickle(data, sizes))
    out = []
    for _ in range(len(data) + 1):  # each receive() ends a frame or reads all there is
        n = wire.receive()
        if n:
            out.append(bytes(wire.message[:n]))
    return out, wire.dropped


@given(MESSAGES, st.lists(st.integers(1, 16), min_size=1, max_size=5))
def test_every_message_arrives_whole_however_the_bytes_come_in(messages, sizes):
    assert received(framed(messages), sizes) == (messages, 0)


def test_a_frame_holds_no_zero_but_its_end():
    for m in GAME + [bytes(linkwire.MAX), b"\xff" * linkwire.MAX]:
        frame = framed([m])
        assert frame.index(0) == len(frame) - 1
        assert len(frame) == len(m) + 4  # the CRC's 2, COBS's 1, the end


@pytest.mark.parametrize("n", [0, linkwire.MAX + 1])
def test_a_message_of_another_length_is_refused(n):
    with pytest.raises(ValueError, match="1 to 12 bytes, not %d" % n):
        linkwire.Wire(cable.Cable().a).send(bytes(n), n)


def test_the_crc_is_ccitt_false():
    assert linkwire.crc16(b"123456789", 9) == 0x29B1  # the catalogue's check value


def test_a_banner_or_noise_before_a_frame_costs_nothing_but_itself():
    noise = random.Random(5).randbytes(300)
    for garbage in (BANNER, noise, BANNER + noise, b"\x00" * 5):
        messages, dropped = received(garbage + b"\x00" + framed(GAME))
        assert messages == GAME, garbage[:20]
        assert dropped == 1 or garbage is not BANNER, "the banner: one frame thrown out"


def test_an_overlong_frame_is_dropped_and_the_next_arrives():
    messages, dropped = received(b"\x07" * 40 + b"\x00" + framed(GAME[:2]))
    assert (messages, dropped) == (GAME[:2], 1)


def test_100000_random_bytes_make_no_message():
    for seed in range(4):
        messages, dropped = received(random.Random(seed).randbytes(25_000))
        assert messages == [] and dropped > 50, (seed, dropped)


def faults(data):
    """(what, the bytes) for every fault of one byte of `data`: each bit flipped, the byte set
    to zero, lost, doubled."""
    for i, b in enumerate(data):
        for bit in range(8):
            yield "bit %d of byte %d" % (bit, i), data[:i] + bytes((b ^ 1 << bit,)) + data[i + 1 :]
        yield "byte %d zeroed" % i, data[:i] + b"\x00" + data[i + 1 :]
        yield "byte %d lost" % i, data[:i] + data[i + 1 :]
        yield "byte %d doubled" % i, data[:i] + data[i : i + 1] + data[i:]


def test_a_fault_in_any_byte_of_a_games_traffic_loses_frames_but_never_makes_one():
    # The messages that do arrive were sent, in order; the fault costs the frame it hits, and
    # its neighbour where it moved an end.
    data = framed(GAME)
    for what, faulty in faults(data):
        messages, _dropped = received(faulty)
        it = iter(GAME)
        assert all(m in it for m in messages), what  # a subsequence of what was sent
        assert len(messages) >= len(GAME) - 2, (what, len(messages))
