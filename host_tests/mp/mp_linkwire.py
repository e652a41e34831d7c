# linkwire.py, the link cable's framing, under MicroPython: messages of every length and byte
# arrive whole, garbage before them costs nothing, and receiving leaves no garbage on the heap.
# Its properties over every fault of a game's traffic: test_linkwire.py (CPython).
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=64k
import gc

import cable
import linkwire
import micropython
import mptest
from mptest import check


def test_messages_of_every_length_and_byte_arrive_whole():
    c = cable.Cable()
    out = linkwire.Wire(c.a)
    into = linkwire.Wire(c.b)
    for b in range(256):
        for n in range(1, linkwire.MAX + 1):
            m = bytes(b if i % 3 else 0 for i in range(n))
            out.send(m, n)
            got = into.receive()
            check(got == n and bytes(into.message[:n]) == m, "%d bytes of %d: %r" % (n, b, got))
    check(into.receive() == 0 and into.dropped == 0)


def test_a_banner_before_a_frame_costs_nothing_but_itself():
    c = cable.Cable()
    c.b.inbox.extend(b"MicroPython v1.28.0 on 2026-04-06; Raspberry Pi Pico\r\n>>> \x00")
    linkwire.Wire(c.a).send(b"\x01\x02\x00", 3)
    into = linkwire.Wire(c.b)
    check(into.receive() == 3 and bytes(into.message[:3]) == b"\x01\x02\x00")
    check(into.dropped == 1, "the banner, one frame thrown out: %d" % into.dropped)


class Held:
    # A UART holding `data`, handed over without allocating.
    def __init__(self, data):
        self.data = data
        self.at = 0

    def readinto(self, buf):
        n = min(len(buf), len(self.data) - self.at)
        if not n:
            return None
        for i in range(n):
            buf[i] = self.data[self.at + i]
        self.at += n
        return n


def test_receiving_leaves_no_garbage():
    c = cable.Cable()
    sender = linkwire.Wire(c.a)
    for i in range(20):
        sender.send(bytes((1, 2, i, 0, 255)), 5)
    data = bytes(c.b.inbox) + b"garbage\x00\x01\x00"
    into = linkwire.Wire(Held(data))
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    micropython.heap_lock()
    got = 0
    try:
        for _ in range(40):
            if into.receive():
                got += 1
    finally:
        micropython.heap_unlock()
    after = gc.mem_alloc()
    gc.enable()
    check(got == 20 and into.dropped == 2, (got, into.dropped))
    check(after == before, "receive() left %d bytes" % (after - before))


mptest.run(globals())
