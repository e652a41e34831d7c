"""The virtual board's serial line: a pseudo-terminal, an optional link to it, a USB gap.

The host (mpremote) opens `port`; the board writes to and reads from the pty's master end.
With a link, the port's name survives a hard reset on a board with native USB: the pty goes
away for `usb_gap` seconds and a new one takes the same name, as a re-enumerated Pico's does.
A lock file beside the link keeps a second board off it (hold()).
"""

import fcntl
import os
import select
import termios
import time
import tty
from pathlib import Path

# What a board's USB is to the host, by the board file's MicroPython port: the device node's
# usual name and the seconds the port is away after a reset. A Pico has native USB (see
# usb_gone()); an ESP32 board has a USB-serial bridge, whose port stays.
USB_OF_PORT = {"rp2": ("ttyACM0", 1.5), "esp32": ("ttyUSB0", 0.0)}


class SerialLine:
    def __init__(self, log, link=None, usb_gap=0.0, clock=time.monotonic):
        # usb_gap needs a link (virtualboard_args refuses one without): the name the host opens
        # must outlive the pty.
        self.log = log
        self.link = None if link is None else Path(link)
        self.usb_gap = usb_gap
        self.clock = clock  # the USB gap's (a test's fake one)
        self.usb_back_at = None  # while the port is away: when it comes back
        self.master = self.slave = None
        self.lock = None  # held on a file beside the link while this line lives
        if self.link is not None:
            self.link.parent.mkdir(parents=True, exist_ok=True)  # build/ on a fresh clone
            self.lock = hold(self.link)
        self._usb_attach()

    @property
    def port(self):
        """The name the host opens: the link when there is one (it survives a USB gap)."""
        return str(self.link) if self.link is not None else self.tty

    @property
    def away(self):
        """The port is gone (a USB gap): nothing can be read or written."""
        return self.master is None

    def _usb_attach(self):
        """A fresh pty, as the host's new device node after the board (re-)enumerates."""
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.tty = os.ttyname(self.slave)
        if self.link is not None:
            staged = self.link.with_name(self.link.name + ".new")
            staged.unlink(missing_ok=True)
            staged.symlink_to(self.tty)
            os.replace(staged, self.link)  # the name appears whole, as a udev node does

    def usb_gone(self):
        """A hard reset on a board with native USB: the port goes away for usb_gap seconds.

        A Pico's machine.reset() restarts the chip and its USB controller (ports/rp2/
        modmachine.c): the host removes /dev/ttyACM0 (an open one gets EIO) and makes it again
        when the firmware enumerates, about 1.5 s later. Here the link goes and the pty closes;
        output meanwhile is lost. main.py runs at once, while the host enumerates (ports/rp2/
        main.c), so the gap counts from main.py's start (usb_main_started()).
        """
        self._usb_detach()
        self.log("USB gone for %.1f s (re-enumerating after the reset)" % self.usb_gap)

    def usb_main_started(self):
        """main.py has just been started (or, without one, the REPL) after a reset that took
        the port away."""
        self.usb_back_at = self.clock() + self.usb_gap

    def usb_check(self):
        """Bring the port back once its gap is over."""
        if self.usb_back_at is not None and self.clock() >= self.usb_back_at:
            self.usb_back_at = None
            self._usb_attach()
            self.log("USB back")

    def wait_limit(self, wait):
        """`wait` seconds, or less if the port comes back sooner (the serving loop's select)."""
        if self.usb_back_at is None:
            return wait
        return min(wait, max(0.0, self.usb_back_at - self.clock()))

    def write(self, data):
        """Send to the host. Output nobody reads for 1 s is dropped (with what is still unread),
        as a board's USB serial drops output while no program has the port open."""
        if self.master is None:
            return  # the port is away: nobody can read it
        view = memoryview(bytes(data))
        deadline = time.monotonic() + 1.0
        while view:
            try:
                view = view[os.write(self.master, view) :]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    termios.tcflush(self.slave, termios.TCIFLUSH)
                    deadline = time.monotonic() + 1.0
                    continue
                select.select([], [self.master], [], 0.05)

    def read(self):
        """What the host has sent (up to 4 KB), or None (nothing, or the port is away)."""
        if self.master is None:
            return None
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return None

    def close(self):
        """The pty closed, the link gone and free for another board."""
        self._usb_detach()
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def _usb_detach(self):
        """The pty closed (its open ends see a hangup) and the link gone."""
        if self.master is not None:
            os.close(self.master)
            os.close(self.slave)
            self.master = self.slave = None
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()


def hold(link):
    """The fd of a lock on a file beside `link`, held until it is closed (or the process ends,
    even killed); a ValueError if another board holds it. A second board on the link would take
    it over and delete it as it ended, leaving the first out of reach."""
    fd = os.open(link.with_name(link.name + ".lock"), os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ValueError(
            "%s is in use by another virtual board: stop it first, or give this one another "
            "board or --link" % link
        ) from None
    return fd
