# A model of the PCD8544 LCD controller, written from the datasheet, fed by a fakebus recording.
# SPDX-License-Identifier: MIT
"""What would a PCD8544 (Nokia 5110 display) show after the bytes and pin changes on a bus?

Runs under CPython and the MicroPython unix port. Written from the Philips datasheet (1999)
facts collected for the team, never from a driver:

- Serial interface: a byte counts only while SCE (chip enable) is low; a module without an SCE
  pin (tied low) is always selected. D/C, sampled with each byte: 0 command, 1 data. At most
  4.0 Mbit/s: where the recording says the rate SCK runs at (a fakebus clock record), bytes
  the controller takes at a faster clock are an anomaly (the glass may show garbage), and
  `clocked` counts the bytes taken at each rate.
- Display RAM: 6 banks (Y) x 84 columns (X), a byte is a vertical strip of 8 pixels, LSB on
  top, bank 0 on top (the layout of framebuf.MONO_VLSB 84x48).
- Addressing: horizontal (V=0) X+1, after X=83 X=0 and Y+1; vertical (V=1) Y+1, after Y=5
  Y=0 and X+1; after (83, 5) both wrap to (0, 0).
- Instructions: the H bit of "function set" selects the basic (H=0) or extended (H=1) set, so
  0x80|n is "set X" with H=0 and "set Vop" with H=1.
- Reset (RES low): PD=1, V=0, H=0, D=E=0 (blank), X=Y=0, TC=0, BS=0, Vop=0; the RAM is kept.
  At power-on the RAM is undefined: the model fills it with a visible noise pattern and counts
  the bytes never written (`unwritten`).
- Power-down (PD=1): glass blank, RAM kept, commands and RAM writes still accepted.

Use: m = Model(); m.feed(recording); m.pixel(x, y); m.glass(); m.text(); m.anomalies.
Pin roles are found by name in the recording: dc="dc", cs="cs", rst="rst", light="backlight"
by default (pass other names, or None for a pin the module does not have). A role whose pin
never appears on the bus counts as absent: no SCE pin = always selected, no RES pin = the
module's own power-on reset (state as after RES), no D/C pin = an anomaly.

Anomalies (distinct messages, first MAX_ANOMALIES kept, `anomaly_count` counts all): bytes
before any RES pulse when a RES pin exists, bytes while RES is low, data before a function set
with PD=0, set X/Y out of range, data at an out-of-range address, reserved command patterns
(per instruction set), Vop above 90 (VLCD beyond 8.5 V), SPI bytes without the D/C pin, bytes
clocked faster than 4.0 Mbit/s.
"""

from fakebus import PIN, SPI_CLOCK, Decoder

WIDTH = 84
HEIGHT = 48
BANKS = 6
RAM_SIZE = WIDTH * BANKS  # 504

# Display control D,E (datasheet Table 1, "0000 1D0E").
BLANK = 0
NORMAL = 2  # D=1 E=0
ALL_ON = 1  # D=0 E=1
INVERSE = 3  # D=1 E=1
MODE_NAMES = ("blank", "all on", "normal", "inverse")

VOP_MAX_SAFE = 90  # VLCD = 3.06 V + 0.06 V * Vop; the generator is specified up to 8.5 V
MAX_SPI_HZ = 4000000  # serial interface: at most 4.0 Mbit/s
MAX_ANOMALIES = 100  # distinct messages kept; `anomaly_count` counts them all

HALF_BLOCKS = (" ", "\u2580", "\u2584", "\u2588")  # glass_text's: none, upper, lower, both


class Model:
    """One PCD8544. Feed it recordings (in order, in pieces of any size) and ask what it shows."""

    def __init__(self, dc="dc", cs="cs", rst="rst", light="backlight", light_on=1):
        self.roles = (dc, cs, rst, light)
        self.light_on = light_on
        self._decoder = Decoder()
        # Power-on: RAM undefined. A deterministic noise pattern makes a missing clear visible.
        self.ram = bytearray(RAM_SIZE)
        seed = 0x5A
        for i in range(RAM_SIZE):
            seed = (seed * 73 + 41) & 0xFF
            self.ram[i] = seed
        self._written = bytearray(RAM_SIZE)
        self.unwritten = RAM_SIZE  # RAM bytes never written since power-on
        self.anomalies = []
        self.anomaly_count = 0
        self.commands = 0  # command bytes accepted
        self.data_bytes = 0  # data bytes accepted
        self.ignored = 0  # bytes sent while SCE was high or RES low
        self.resets = 0  # RES low pulses seen
        self.spi_hz = None  # the rate SCK runs at, from the recording; None until it says
        self.clocked = {}  # Hz -> bytes taken at that SCK rate (only where the rate is known)
        self._reset_state()

    def _reset_state(self):
        self.x = 0
        self.y = 0
        self.h = 0
        self.vertical = 0
        self.powered_down = True
        self.mode = BLANK
        self.vop = 0
        self.tc = 0
        self.bias = 0
        self.initialised = False  # a function set with PD=0 since the last reset

    # -- pins -------------------------------------------------------------------------------

    def _level(self, role, default):
        name = self.roles[role]
        if name is None:
            return default
        return self._decoder.levels.get(name, default)

    @property
    def selected(self):
        """SCE is low, or the module has no SCE pin."""
        return self._level(1, 0) == 0

    @property
    def in_reset(self):
        return self._level(2, 1) == 0

    @property
    def backlight(self):
        """True/False from the backlight pin's level and polarity; None without that pin."""
        level = self._level(3, None)
        return None if level is None else level == self.light_on

    # -- feeding ----------------------------------------------------------------------------

    def feed(self, data):
        """Apply a recording: bytes, bytearray, memoryview, or hex text (whitespace ignored).

        Pieces must come in order; a record cut at the end of one piece is completed by the
        next. The recording may be cleared after each feed (the model keeps what it needs).
        """
        if isinstance(data, str):
            import binascii

            data = binascii.unhexlify("".join(data.split()))
        dc, _, rst, _ = self.roles
        for kind, a, b in self._decoder.events(data):
            if kind == PIN:
                if a == rst:
                    if b == 0:
                        self.resets += 1
                        self._reset_state()
                continue
            if kind == SPI_CLOCK:
                self.spi_hz = a
                continue
            if not self.selected or self.in_reset:
                self.ignored += len(a)
                if self.in_reset and self.selected:
                    self._anomaly("bytes sent while RES is low are lost")
                continue
            if rst is not None and self.resets == 0 and rst in self._decoder.levels:
                self._anomaly("bytes sent before any RES pulse (state undefined)")
            if dc not in self._decoder.levels:
                self._anomaly("SPI bytes but no D/C pin named %r: read as commands" % (dc,))
            hz = self.spi_hz
            if hz is not None:
                self.clocked[hz] = self.clocked.get(hz, 0) + len(a)
                if hz > MAX_SPI_HZ:
                    self._anomaly(
                        "bytes clocked at %d Hz, above the 4.0 Mbit/s the controller takes" % hz
                    )
            if self._decoder.levels.get(dc, 0):
                self._data(a)
            else:
                for byte in a:
                    self._command(byte)
        return self

    def _anomaly(self, message):
        self.anomaly_count += 1
        if message not in self.anomalies and len(self.anomalies) < MAX_ANOMALIES:
            self.anomalies.append(message)

    def _data(self, data):
        if not self.initialised:
            self._anomaly("data before initialisation (no function set with PD=0 since reset)")
        ram = self.ram
        if not self.vertical and not self.unwritten and self.x < WIDTH and self.y < BANKS:
            # Fast path: horizontal addressing walks the RAM linearly (Y*84+X), wrapping at 504.
            n = len(data)
            at = self.y * WIDTH + self.x
            done = 0
            while done < n:
                size = min(n - done, RAM_SIZE - at)
                ram[at : at + size] = data[done : done + size]
                done += size
                at = (at + size) % RAM_SIZE
            self.data_bytes += n
            self.y, self.x = divmod(at, WIDTH)
            return
        written = self._written
        for byte in data:
            x = self.x
            y = self.y
            if x >= WIDTH or y >= BANKS:
                self._anomaly("data written at out-of-range address X=%d Y=%d" % (x, y))
                continue
            i = y * WIDTH + x
            ram[i] = byte
            if not written[i]:
                written[i] = 1
                self.unwritten -= 1
            self.data_bytes += 1
            # The next address in the RAM's order for the addressing mode, (83, 5) to (0, 0).
            if self.vertical:
                self.x, self.y = divmod((x * BANKS + y + 1) % RAM_SIZE, BANKS)
            else:
                self.y, self.x = divmod((i + 1) % RAM_SIZE, WIDTH)

    def _command(self, c):
        self.commands += 1
        if c == 0x00:  # NOP, either set
            return
        if c & 0xF8 == 0x20:  # function set 0010 0 PD V H, either set
            self.powered_down = bool(c & 4)
            self.vertical = (c >> 1) & 1
            self.h = c & 1
            if not self.powered_down:
                self.initialised = True
            return
        if self.h == 0:
            if c & 0x80:  # set X 1xxx xxxx
                x = c & 0x7F
                if x >= WIDTH:
                    self._anomaly("set X %d out of range 0..83 (0x%02x)" % (x, c))
                self.x = x
            elif c & 0xF8 == 0x40:  # set Y 0100 0yyy
                y = c & 7
                if y >= BANKS:
                    self._anomaly("set Y %d out of range 0..5 (0x%02x)" % (y, c))
                self.y = y
            elif c & 0xFA == 0x08:  # display control 0000 1D0E
                self.mode = ((c >> 1) & 2) | (c & 1)
            else:
                self._anomaly("undefined command 0x%02x with H=0" % c)
        else:
            if c & 0x80:  # set Vop 1vvv vvvv
                self.vop = c & 0x7F
                if self.vop > VOP_MAX_SAFE:
                    self._anomaly(
                        "Vop %d above %d: VLCD beyond the generator's 8.5 V" % (c & 0x7F, 90)
                    )
            elif c & 0xFC == 0x04:  # temperature coefficient 0000 01tt
                self.tc = c & 3
            elif c & 0xF8 == 0x10:  # bias system 0001 0bbb
                self.bias = c & 7
            else:
                self._anomaly("undefined command 0x%02x with H=1" % c)

    # -- what the glass shows -----------------------------------------------------------------

    @property
    def mode_name(self):
        return MODE_NAMES[self.mode]

    @property
    def showing(self):
        """The glass shows something: powered, out of reset (Vop is not judged here)."""
        return not self.powered_down and not self.in_reset

    def glass(self):
        """What the glass shows, as a new 504-byte MONO_VLSB bytearray (1 = dark pixel)."""
        if not self.showing or self.mode == BLANK:
            return bytearray(RAM_SIZE)
        if self.mode == ALL_ON:
            return bytearray(b"\xff" * RAM_SIZE)
        if self.mode == INVERSE:
            return bytearray(byte ^ 0xFF for byte in self.ram)
        return bytearray(self.ram)

    def pixel(self, x, y):
        """1 if the glass shows pixel (x, y) dark, else 0."""
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            raise ValueError("pixel (%d, %d) is outside 0..83 x 0..47" % (x, y))
        if not self.showing or self.mode == BLANK:
            return 0
        if self.mode == ALL_ON:
            return 1
        bit = (self.ram[(y >> 3) * WIDTH + x] >> (y & 7)) & 1
        return bit ^ 1 if self.mode == INVERSE else bit

    def ram_pixel(self, x, y):
        """1 if the display RAM holds pixel (x, y) set (whatever the mode and power)."""
        return (self.ram[(y >> 3) * WIDTH + x] >> (y & 7)) & 1

    def dark_pixels(self):
        """The set of (x, y) shown dark."""
        return pixels_of(self.glass())

    def text(self, border=False):
        """The glass as 24 lines of 84 Unicode half blocks (two pixel rows per line)."""
        return glass_text(self.glass(), border)

    def state(self):
        """A short summary, for assertion messages."""
        return "mode=%s PD=%d H=%d V=%d X=%d Y=%d Vop=%d BS=%d TC=%d anomalies=%r" % (
            self.mode_name,
            self.powered_down,
            self.h,
            self.vertical,
            self.x,
            self.y,
            self.vop,
            self.bias,
            self.tc,
            self.anomalies,
        )


def pixels_of(glass):
    """The set of (x, y) that are 1 in a 504-byte MONO_VLSB 84x48 buffer."""
    out = set()
    for i in range(RAM_SIZE):
        byte = glass[i]
        if byte:
            x = i % WIDTH
            top = (i // WIDTH) * 8
            for bit in range(8):
                if byte >> bit & 1:
                    out.add((x, top + bit))
    return out


def glass_text(glass, border=False):
    """A 504-byte MONO_VLSB 84x48 buffer as 24 lines of Unicode half blocks."""
    lines = []
    for row in range(0, HEIGHT, 2):
        base = (row >> 3) * WIDTH
        shift = row & 7
        chars = []
        for x in range(WIDTH):
            pair = (glass[base + x] >> shift) & 3
            chars.append(HALF_BLOCKS[pair])
        line = "".join(chars)
        lines.append("|" + line + "|" if border else line)
    if border:
        edge = "+" + "-" * WIDTH + "+"
        lines.insert(0, edge)
        lines.append(edge)
    return "\n".join(lines)
