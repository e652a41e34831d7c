# The Pin and SPI stand-ins of the host side, and the bus that records what they do, in order.
# SPDX-License-Identifier: MIT
"""Pin/SPI stand-ins and a recording bus for host tests, benchmarks and the simulator, under
CPython and MicroPython; the fake `machine` (testbed/hostboard) builds its own on them. The
recording is one compact bytearray of records (no Python object per byte):

    0x00..0x3F  id level                 pin `id` is now at `level` (0 or 1)        2 bytes
    0xF0        id n name[n]              pin `id` is named `name` (ASCII)            3+n bytes
    0xF1        hi lo data[hi*256+lo]     one SPI write() call carrying these bytes   3+n bytes
    0xF2        b3 b2 b1 b0               SCK now runs at this many Hz (big-endian)   5 bytes

A pin is declared (0xF0) with its start level when made, so a recording needs no side table;
a level is recorded only when it changes; a write() over 65535 bytes takes several 0xF1
records; a clock record precedes the first write at a new rate (none without `hz`). `take()`
streams it in pieces, `hexlify()` / `unhexlify()` carry it between processes, `Decoder` reads it.

    bus = Bus()                        # Bus(capacity): no allocation while recording fits
    spi = SPI(bus); dc = Pin(bus, "dc", 0); cs = Pin(bus, "cs", 1)   # SPI(bus, hz=4000000)
    button = Pin(value=1)              # not recorded: the test sets button.level = 0 / 1
    ...                                # code under test uses spi.write(buf), dc(1), cs.off()
    model.feed(bus.take())             # or: print(bus.hexlify()); bus.clear()
    bus.spi_writes, bus.spi_bytes      # totals since the bus was made
    bus.preamble()                     # pin declarations + current levels, for a late reader
"""

import binascii

PIN = 0
SPI_WRITE = 1
SPI_CLOCK = 2
_DECLARE = 0xF0
_WRITE = 0xF1
_CLOCK = 0xF2
_MAX_PINS = 0x40
_MAX_CHUNK = 0xFFFF


class Bus:
    """Records pin level changes and SPI writes, in order, in one bytearray that doubles when
    full: nothing is allocated until `capacity` bytes are used (code can run heap-locked)."""

    def __init__(self, capacity=4096):
        self._buf = bytearray(max(capacity, 16))
        self._n = 0
        self.names = []  # pin id -> name
        self.levels = []  # pin id -> current level
        self.spi_writes = 0  # write() calls since the bus was made (take()/clear() keep it)
        self.spi_bytes = 0  # bytes written since the bus was made
        self.hz = None  # the SCK rate last recorded (clock()), None until one is

    @property
    def data(self):
        """The recording since the last take()/clear(), as a memoryview (no copy)."""
        return memoryview(self._buf)[: self._n]

    def __len__(self):
        return self._n

    def _room(self, size):
        n = self._n
        if n + size > len(self._buf):
            bigger = bytearray(max(2 * len(self._buf), n + size))
            bigger[:n] = memoryview(self._buf)[:n]
            self._buf = bigger
        return n

    def pin_id(self, name):
        """The id of the pin called `name`, declaring it in the recording the first time."""
        if name in self.names:
            return self.names.index(name)
        if len(self.names) >= _MAX_PINS:
            raise ValueError("a Bus records at most 64 pins")
        raw = name.encode()
        if not raw or len(raw) > 255:
            raise ValueError("a pin name is 1..255 ASCII characters, got %r" % (name,))
        self.names.append(name)
        self.levels.append(0)
        pin = len(self.names) - 1
        n = self._room(3 + len(raw))
        self._buf[n] = _DECLARE
        self._buf[n + 1] = pin
        self._buf[n + 2] = len(raw)
        self._buf[n + 3 : n + 3 + len(raw)] = raw
        self._n = n + 3 + len(raw)
        return pin

    def level(self, pin, value):
        """Record that pin `pin` (an id from pin_id) is now at `value` (0 or 1)."""
        n = self._room(2)
        self._buf[n] = pin
        self._buf[n + 1] = value
        self._n = n + 2
        self.levels[pin] = value

    def clock(self, hz):
        """Record that SCK now runs at `hz` (an int, Hz); nothing is recorded if it already
        did, so a caller may say it before every write (allocation-free)."""
        if hz == self.hz:
            return
        if not 0 < hz < 1 << 32:
            raise ValueError("an SPI clock is 1..4294967295 Hz, got %r" % (hz,))
        self.hz = hz
        n = self._room(5)
        buf = self._buf
        buf[n] = _CLOCK
        for k in range(4):  # big-endian
            buf[n + 1 + k] = (hz >> (24 - 8 * k)) & 0xFF
        self._n = n + 5

    def write(self, buf):
        """Record one SPI write() call of the bytes in `buf` (any buffer)."""
        size = len(buf)
        self.spi_writes += 1
        self.spi_bytes += size
        start = 0
        while True:
            chunk = min(size - start, _MAX_CHUNK)
            n = self._room(3 + chunk)
            self._buf[n] = _WRITE
            self._buf[n + 1] = chunk >> 8
            self._buf[n + 2] = chunk & 0xFF
            if chunk == size:
                self._buf[n + 3 : n + 3 + chunk] = buf
            else:
                self._buf[n + 3 : n + 3 + chunk] = memoryview(buf)[start : start + chunk]
            self._n = n + 3 + chunk
            start += chunk
            if start >= size:
                return

    def take(self):
        """The recording since the last take()/clear() as bytes; the bus starts a new one."""
        out = bytes(self.data)
        self._n = 0
        return out

    def clear(self):
        """Drop the recording, keeping the buffer; a Decoder reading on must have seen the pin
        declarations (or preamble())."""
        self._n = 0

    def preamble(self):
        """bytes declaring every pin with its current level (and the SPI clock, once known): a
        new reader (a Decoder or a model made mid-run) fed this first can then read what the
        bus records from now on. A new bus records them, so the ids are the same."""
        out = Bus(64)
        for pin, name in enumerate(self.names):
            out.level(out.pin_id(name), self.levels[pin])
        if self.hz is not None:
            out.clock(self.hz)
        return out.take()

    def hexlify(self):
        """The recording since the last take()/clear() as a hex str (for print())."""
        return binascii.hexlify(self.data).decode()


def unhexlify(text):
    """bytes from a hex str made by Bus.hexlify() (surrounding whitespace is ignored)."""
    return binascii.unhexlify(text.strip())


class Pin:
    """The machine.Pin stand-in: value(), value(v), (), on(), off(), high(), low(), toggle().

    `level` is the level on the wire: the code drives it with value(v), a test plays the outside
    world by setting `level` (a button: 1 released, 0 pressed). On a `bus` (Pin(bus, "dc", 1))
    every change value(v) makes is recorded (a test's `level` is not); without one it records
    nothing. value() allocates nothing either way."""

    _bus = None  # class defaults: a pin without a bus carries one attribute of its own
    _id = 0
    name = None

    def __init__(self, bus=None, name=None, value=None):
        self.level = 1 if value else 0
        if bus is not None:
            self.attach(bus, name)

    def attach(self, bus, name):
        """Record this pin on `bus` as `name` from now on, starting with its level now."""
        self._id = bus.pin_id(name)
        self._bus = bus
        self.name = name
        bus.level(self._id, self.level)

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            if self._bus is not None:
                self._bus.level(self._id, v)
        return None

    __call__ = value  # a subclass that redefines value() says this again

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(1 - self.level)


class SPI:
    """The machine.SPI stand-in: write(buf) records the bytes on `bus` (with `hz`, the rate SCK
    runs at first), or sends them nowhere without one. Nothing is read back."""

    def __init__(self, bus=None, hz=None):
        self.bus = bus
        self.hz = hz

    def write(self, buf):
        bus = self.bus
        if bus is not None:
            hz = self.hz
            if hz is not None:
                bus.clock(hz)
            bus.write(buf)


class Decoder:
    """Reads a recording fed in pieces of any size (a record cut at the end of one is completed
    by the next): `events(data)` yields (PIN, name, level), (SPI_WRITE, memoryview valid until
    the next event, None) and (SPI_CLOCK, hz, None), in order."""

    def __init__(self):
        self.names = {}  # id -> name
        self.levels = {}  # name -> level
        self._tail = b""

    def events(self, data):
        if self._tail:
            data = self._tail + bytes(data)
            self._tail = b""
        view = memoryview(data)
        n = len(data)
        i = 0
        while i < n:
            tag = data[i]
            if tag < _MAX_PINS:
                if i + 2 > n:
                    break
                name = self.names.get(tag)
                if name is None:
                    raise ValueError("recording sets undeclared pin %d" % tag)
                level = data[i + 1]
                self.levels[name] = level
                i += 2
                yield PIN, name, level
            elif tag == _CLOCK:
                if i + 5 > n:
                    break
                hz = (data[i + 1] << 24) | (data[i + 2] << 16) | (data[i + 3] << 8) | data[i + 4]
                i += 5
                yield SPI_CLOCK, hz, None
            elif tag == _DECLARE or tag == _WRITE:
                if i + 3 > n:
                    break
                size = data[i + 2] if tag == _DECLARE else (data[i + 1] << 8) | data[i + 2]
                if i + 3 + size > n:
                    break
                body = view[i + 3 : i + 3 + size]
                i += 3 + size
                if tag == _DECLARE:
                    self.names[data[i - 3 - size + 1]] = bytes(body).decode()
                else:
                    yield SPI_WRITE, body, None
            else:
                raise ValueError("not a fakebus recording: byte 0x%02x at %d" % (tag, i))
        if i < n:
            self._tail = bytes(view[i:])


def decode(data):
    """A whole recording as a list of ("pin", name, level), ("spi", bytes) and ("clock", hz)
    tuples."""
    out = []
    for kind, a, b in Decoder().events(data):
        if kind == PIN:
            out.append(("pin", a, b))
        elif kind == SPI_CLOCK:
            out.append(("clock", a))
        else:
            out.append(("spi", bytes(a)))
    return out
