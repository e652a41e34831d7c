# The link cable on the host: two UART ends joined TX to RX, with the faults a wire can have.
# SPDX-License-Identifier: MIT
"""`Cable()` has two ends, `a` and `b`, each with what the firmware uses of a machine.UART:
write(buf) -> count, readinto(buf) -> count or None (nothing waiting, as a UART with timeout=0
answers), any() -> bytes waiting. What one end writes the other reads, in order. `fault`, if
set, is called with (end that wrote, the bytes) and returns what goes on the wire instead:
bytes flipped, dropped, doubled. `pulled` drops all that is written both ways. Runs under
CPython and MicroPython."""


class End:
    def __init__(self, cable, name):
        self._cable = cable
        self.name = name
        self.inbox = bytearray()  # what the other end sent, not read yet
        self.other = None

    def write(self, buf):
        data = bytes(buf)
        cable = self._cable
        if cable.fault is not None:
            data = cable.fault(self.name, data)
        if not cable.pulled:
            self.other.inbox.extend(data)
        return len(buf)

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox))
        if not n:
            return None
        buf[:n] = self.inbox[:n]
        self.inbox[:n] = b""
        return n

    def any(self):
        return len(self.inbox)


class Cable:
    def __init__(self):
        self.fault = None
        self.pulled = False
        self.a = End(self, "a")
        self.b = End(self, "b")
        self.a.other = self.b
        self.b.other = self.a
