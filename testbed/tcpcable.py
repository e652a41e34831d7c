# The simulator's link cable: a TCP connection on this machine, one end in each simulated board.
# SPDX-License-Identifier: MIT
"""`End(port)` is what machine.plug() joins to a simulated board's link UART
(testbed/hostboard/machine_uart.py): write(buf) -> count, readinto(buf) -> count or None,
any() and clear(). It runs in the firmware's own loop under the unix port, so nothing waits:
the sockets are non-blocking, and the connection is looked after each time the firmware looks
at its UART (an end never looked at does nothing).

Two ends meet on 127.0.0.1:`port` with no one in charge: an end alone connects, and if nobody
listens there, listens itself; once joined it stops listening (a third end waits alone). The
other end gone (end of file) is a pulled cable: what is written goes nowhere, and this end
looks again as before. Why TCP, and why a port below the ephemeral ones: docs/commands.md, the
link cable."""

import errno
import select
import socket

# The most this end keeps of what came in and was not read: a board's UART holds 256 bytes
# (machine_uart.py) and loses the rest, so more is never needed; a board that left link play
# for minutes finds the other's greetings piled up in its socket, and reads them through this.
HOLD = 512
IDLE = 0  # no other end and no socket: the next look connects
LISTENING = 1  # nobody was listening: this end listens for the other
CONNECTING = 2  # a connect under way
JOINED = 3  # the other end is there


class End:
    def __init__(self, port):
        self.addr = socket.getaddrinfo("127.0.0.1", port)[0][-1]
        self.state = IDLE
        self.joins = 0  # connections made, either way
        self._sock = None  # the listening, connecting or joined socket
        self._poll = None  # on a connecting socket
        self._inbox = bytearray()  # what came in, not read yet
        self._chunk = bytearray(256)

    def any(self):
        self._look()
        return len(self._inbox)

    def readinto(self, buf):
        self._look()
        inbox = self._inbox
        n = min(len(buf), len(inbox))
        if not n:
            return None
        buf[:n] = inbox[:n]
        inbox[:n] = b""
        return n

    def write(self, buf):
        """Send buf if the other end is there. A socket whose buffer is full (the other
        board's firmware not reading for a long while) loses it, as a wire nobody reads does."""
        self._look()
        if self.state == JOINED:
            try:
                self._sock.write(buf)
            except OSError:  # EPIPE, ECONNRESET: the other end went away
                self._drop()
        return len(buf)

    def clear(self):
        """Drop what came in while no UART was open: a board's RX pin was no UART then, so
        those bytes went nowhere (machine_uart calls this as it sets the UART up)."""
        self._look()
        self._inbox[:] = b""

    def close(self):
        self._drop()

    # -- the connection ----------------------------------------------------------------------

    def _look(self):
        state = self.state
        if state == IDLE:
            self._connect()
        elif state == LISTENING:
            self._accept()
        elif state == CONNECTING:
            self._connecting()
        if self.state == JOINED:
            self._receive()

    def _connect(self):
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.connect(self.addr)
        except OSError as err:
            if err.errno != errno.EINPROGRESS:  # refused at once: nobody listens
                sock.close()
                self._listen()
                return
            self._sock = sock
            self._poll = select.poll()
            self._poll.register(sock, select.POLLOUT)
            self.state = CONNECTING
            return
        self._join(sock)

    def _connecting(self):
        events = self._poll.poll(0)
        if not events:
            return
        flags = events[0][1]
        self._poll = None
        if flags & (select.POLLERR | select.POLLHUP):  # refused: nobody listens
            self._drop()
            self._listen()
        elif flags & select.POLLOUT:
            self._join(self._sock)

    def _listen(self):
        sock = socket.socket()
        # A connection this port had may linger in TIME_WAIT; the port is free all the same.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(self.addr)
            sock.listen(1)
        except OSError:  # another end began listening since: connect to it at the next look
            sock.close()
            return
        sock.setblocking(False)
        self._sock = sock
        self.state = LISTENING

    def _accept(self):
        try:
            sock, _ = self._sock.accept()
        except OSError:  # nobody yet (EAGAIN), or one that left at once (ECONNABORTED)
            return
        self._sock.close()  # one other end: a third board finds nobody listening
        sock.setblocking(False)  # an accepted socket starts blocking
        self._join(sock)

    def _join(self, sock):
        self._sock = sock
        self.state = JOINED
        self.joins += 1

    def _receive(self):
        chunk = self._chunk
        while True:
            try:
                n = self._sock.readinto(chunk)
            except OSError:  # ECONNRESET: the other end went away
                self._drop()
                return
            if n is None:  # nothing more waiting
                return
            if not n:  # the other end closed its side: a pulled cable
                self._drop()
                return
            inbox = self._inbox
            room = HOLD - len(inbox)
            if room > 0:  # the rest is lost, as a full UART loses it
                inbox.extend(memoryview(chunk)[: min(n, room)])

    def _drop(self):
        if self._sock is not None:
            self._sock.close()
        self._sock = None
        self._poll = None
        self.state = IDLE
