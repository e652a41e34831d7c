# The simulator's link cable (testbed/tcpcable.py) under the unix port: two ends find each other
# on a localhost port, a third waits alone, an end that goes away is a pulled cable and the next
# one another board; through the host board's UART, what came before it was opened is lost.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=256k paths={hostboard}
import socket

import machine
import mptest
import tcpcable
import utime  # the real clock (time is the host board's)
from mptest import check


def free_port():
    """A port below the ephemeral ones that nobody listens on now."""
    port = 20000 + utime.ticks_us() % 10000
    while True:
        sock = socket.socket()
        try:
            sock.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
            return port
        except OSError:
            port += 1
        finally:
            sock.close()


def settle(ends, done, what):
    """Look at every end (as each firmware's loop does) until done(); fails after 2 s."""
    for _ in range(2000):
        for end in ends:
            end.any()
        if done():
            return
        utime.sleep_ms(1)
    check(False, "%s: %s" % (what, [end.state for end in ends]))


def heard(end, n):
    """The next n bytes that came in at `end` (a cable end or a UART), or fewer after 2 s."""
    buf = bytearray(n)
    got = bytearray()
    for _ in range(2000):
        k = end.readinto(buf)
        if k:
            got.extend(buf[:k])
        if len(got) >= n:
            break
        utime.sleep_ms(1)
    return bytes(got)


def joined(a, b):
    settle((a, b), lambda: a.state == b.state == tcpcable.JOINED, "never joined")


def test_two_ends_join_a_third_waits_alone_a_pulled_cable_and_the_next_is_another_board():
    # The first end to look listens, the second joins it; bytes go both ways.
    port = free_port()
    a = tcpcable.End(port)
    check(a.state == tcpcable.IDLE, "an end nobody looked at does nothing")
    settle((a,), lambda: a.state == tcpcable.LISTENING, "the first end did not listen")
    b = tcpcable.End(port)
    joined(a, b)
    check(a.write(b"hello\x00") == 6)
    check(heard(b, 6) == b"hello\x00", "a -> b")
    b.write(b"\x01\x02")
    check(heard(a, 2) == b"\x01\x02", "b -> a")
    check(a.readinto(bytearray(4)) is None and not a.any(), "nothing more came")
    # A third end waits alone and hears nothing of the pair.
    third = tcpcable.End(port)
    settle((third,), lambda: third.state == tcpcable.LISTENING, "the third did not listen alone")
    a.write(b"to b")
    check(heard(b, 4) == b"to b" and not third.any() and third.joins == 0, "the third heard")
    third.close()
    # The other end gone (its process ended) is a pulled cable.
    b.write(b"last")
    b.close()
    check(heard(a, 4) == b"last", "what came before the pull is still read")
    settle((a,), lambda: a.state == tcpcable.LISTENING, "a did not listen again")
    check(a.write(b"into the air") == 12 and not a.any(), "pulled: written to nobody")
    c = tcpcable.End(port)
    joined(a, c)
    check(a.joins == 2, "a joined twice")
    c.write(b"new")
    check(heard(a, 3) == b"new", "the new board is heard")
    # The end that listened goes away: the one that connected listens in its turn.
    a.close()
    settle((c,), lambda: c.state == tcpcable.LISTENING, "c did not listen")
    d = tcpcable.End(port)
    joined(c, d)
    d.write(b"d")
    check(heard(c, 1) == b"d")
    c.close()
    d.close()


def test_through_the_uart_what_came_before_it_was_opened_is_lost():
    port = free_port()
    machine.reset_state()
    a, b = tcpcable.End(port), tcpcable.End(port)
    joined(a, b)
    machine.plug(1, a)
    b.write(b"before")
    utime.sleep_ms(20)
    uart = machine.UART(1, 115200)
    check(uart.any() == 0, "the bytes sent before the UART was made are gone")
    b.write(b"after")
    got = heard(uart, 5)
    check(got == b"after", repr(got))
    uart.write(b"back")
    check(heard(b, 4) == b"back")
    machine.plug(1, None)
    a.close()
    b.close()


def test_a_backlog_piled_up_while_nobody_looked_costs_no_more_than_hold():
    # A board out of link play for minutes: the other's greetings pile up in its socket. When
    # it looks again, it keeps HOLD bytes of them at most, as a UART loses what it cannot hold
    # (an unbounded inbox ran the simulator's 192 KB heap out: a MemoryError on the glass).
    port = free_port()
    a, b = tcpcable.End(port), tcpcable.End(port)
    joined(a, b)
    for _ in range(64):
        b.write(bytes(1000))
    utime.sleep_ms(50)
    a.any()
    check(a.any() == tcpcable.HOLD, "kept %d" % a.any())
    a.clear()
    check(a.any() == 0)
    a.close()
    b.close()


mptest.run(globals())
