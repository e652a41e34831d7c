# linkwire.py, the link cable's framing, under MicroPython: receiving leaves no garbage on the
# heap. Its properties (any message, any chunking, every fault of a game's traffic):
# test_linkwire.py (CPython); the link played under MicroPython: test_linkplay.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=64k
import gc

import cable
import linkwire
import micropython
import mptest
from mptest import check


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
            if into.receive() == 5 and into.message[2] == got:  # the messages, in order
                got += 1
    finally:
        micropython.heap_unlock()
    after = gc.mem_alloc()
    gc.enable()
    check(got == 20 and into.dropped == 2, (got, into.dropped))
    check(after == before, "receive() left %d bytes" % (after - before))


mptest.run(globals())
