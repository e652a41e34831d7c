# The link cable's framing: a message is a COBS frame ended by a zero byte, with a CRC-16 in it.
# SPDX-License-Identifier: MIT
"""Why COBS (consistent overhead byte stuffing, Cheshire and Baker 1999): no zero byte occurs
inside a frame, so a board that lost its place (noise on a floating RX, the other board's boot
or REPL banner, a cable pulled in the middle of a frame) finds the next frame at the next zero
byte, and garbage costs at most the frame it falls in. It adds one byte to a short frame (a
SLIP escape can double one), and unlike a length prefix, garbage cannot pass for a length. The
CRC-16 in each frame (CCITT: polynomial 0x1021, from 0xFFFF) throws out what garbage still
makes a frame of; what is left (1 in 65,536 of such frames) the link's session refuses by its
own checks (version, kind, sequence, the move's legality and the position).

A frame on the wire: COBS(message + CRC-16, big-endian) + b"\\x00". A message is 1 to MAX
bytes; receiving allocates nothing (the game loop polls it at every step)."""

from micropython import const

MAX = const(12)  # the longest message, in bytes
_FRAMED = const(15)  # MAX + the CRC's 2 + COBS's 1: the longest frame, its zero left out


def crc16(buf, n):
    """The CRC-16/CCITT-FALSE of buf[:n]."""
    crc = 0xFFFF
    for i in range(n):
        crc ^= buf[i] << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        crc &= 0xFFFF
    return crc


class Wire:
    """Messages to and from the other board over `uart` (a machine.UART, or anything with its
    write(buf) and readinto(buf) -> count or None). `message` holds the last message received;
    `dropped` counts frames thrown out (too long, a broken COBS code or a wrong CRC)."""

    def __init__(self, uart):
        self._uart = uart
        self._chunk = bytearray(16)  # what one readinto() brought
        self._got = 0  # bytes in _chunk
        self._at = 0  # the next of them to look at
        self._frame = bytearray(_FRAMED)  # the frame coming in, still encoded
        self._n = 0  # its bytes so far; -1: too long, skipped up to the next zero
        self._out = bytearray(_FRAMED + 1)
        self._plain = bytearray(MAX + 2)  # a message and its CRC, before encoding
        self.message = bytearray(MAX + 2)
        self.dropped = 0

    def send(self, msg, n):
        """Send msg[:n], 1 <= n <= MAX, as one frame; ValueError for another length."""
        if not 0 < n <= MAX:
            raise ValueError("a link message is 1 to %d bytes, not %d" % (MAX, n))
        plain = self._plain
        for i in range(n):
            plain[i] = msg[i]
        crc = crc16(plain, n)
        plain[n] = crc >> 8
        plain[n + 1] = crc & 0xFF
        out = self._out
        code_at = 0  # where the current block's code byte goes
        w = 1
        for i in range(n + 2):
            b = plain[i]
            if b:
                out[w] = b
                w += 1
            else:  # a zero ends a block: its code is its length + 1
                out[code_at] = w - code_at
                code_at = w
                w += 1
        out[code_at] = w - code_at
        out[w] = 0
        self._uart.write(memoryview(out)[: w + 1])

    def receive(self):
        """The length of the next whole message that came in (now in `message`), or 0 when no
        whole one is there yet. Reads only what the UART already holds."""
        chunk = self._chunk
        frame = self._frame
        while True:
            if self._at == self._got:
                got = self._uart.readinto(chunk)
                if not got:
                    return 0
                self._got = got
                self._at = 0
            b = chunk[self._at]
            self._at += 1
            n = self._n
            if b:
                if 0 <= n < _FRAMED:
                    frame[n] = b
                    self._n = n + 1
                else:
                    self._n = -1
                continue
            self._n = 0  # a zero: the frame ends
            if n == 0:
                continue  # an empty frame: two zeros, or a zero after a dropped frame
            length = self._decode(n) if n > 0 else -1
            if length > 0:
                return length
            self.dropped += 1

    def _decode(self, n):
        # COBS-decode _frame[:n] into message and check its CRC: the message's length, or -1.
        frame = self._frame
        out = self.message
        r = 0
        w = 0
        while r < n:
            code = frame[r]
            end = r + code
            if end > n:
                return -1  # a block runs past the frame: not COBS
            r += 1
            while r < end:
                out[w] = frame[r]
                w += 1
                r += 1
            if r < n:  # a block but the last ends at a zero (no frame is 254 bytes long)
                out[w] = 0
                w += 1
        if w < 3:
            return -1
        w -= 2
        if crc16(out, w) != (out[w] << 8) | out[w + 1]:
            return -1
        return w
