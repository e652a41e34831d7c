# The page's link cable end: the board's link UART to another tab of the page, over tabcable.js.
# SPDX-License-Identifier: MIT
"""Plugged by web/oxoweb.py's Page.plug() into the board's LINK_UART (machine.plug). Fetched in
game.bin, with link play's modules: a page that never plays over the cable needs none of it
for its first frame."""

import binascii


class TabEnd:
    """The cable end machine.plug() joins to the link UART (testbed/hostboard/machine_uart.py:
    write, readinto, any, clear), over the page's TabCable (web/tabcable.js), which pairs this
    tab with another. The firmware's polls poll it: each look takes what the JS side received
    (hex), and nothing waits."""

    def __init__(self, cable):
        self._cable = cable
        self._inbox = bytearray()

    def _look(self):
        came = self._cable.take()
        if came:
            self._inbox.extend(binascii.unhexlify(came))

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
        self._cable.send(binascii.hexlify(buf).decode())
        return len(buf)

    def clear(self):
        """What came while no UART was open went nowhere (machine_uart calls this)."""
        self._look()
        self._inbox[:] = b""
