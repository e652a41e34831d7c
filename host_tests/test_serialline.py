"""The virtual board's serial line: a pty the host opens, and the USB gap of a native-USB board."""

import errno
import os
import re

import pytest
import serialline


class Clock:
    """A fake time.monotonic()."""

    now = 100.0

    def __call__(self):
        return self.now


def test_usb_gap_takes_the_port_away_and_brings_it_back_under_the_same_name(tmp_path):
    link, events, clock = tmp_path / "ttyACM0", [], Clock()
    line = serialline.SerialLine(events.append, link=link, usb_gap=1.5, clock=clock)
    try:
        assert line.port == str(link) and link.exists()
        host = os.open(line.port, os.O_RDWR | os.O_NOCTTY)
        line.usb_gone()
        assert line.away and not link.exists()
        # The open one hung up, as a vanished tty does: reads end (pyserial: "device reports
        # readiness to read but returned no data"), writes fail with EIO.
        while os.read(host, 4096):
            pass
        with pytest.raises(OSError) as err:
            os.write(host, b"\r")
        assert err.value.errno == errno.EIO
        os.close(host)
        line.write(b"lost")  # output while away goes nowhere
        assert line.read() is None
        line.usb_main_started()  # the gap counts from main.py's start
        assert line.wait_limit(0.2) == 0.2
        clock.now += 1.4
        line.usb_check()
        assert line.away and abs(line.wait_limit(0.2) - 0.1) < 1e-9
        clock.now += 0.1
        line.usb_check()
        assert not line.away and link.exists()
        assert events == ["USB gone for 1.5 s (re-enumerating after the reset)", "USB back"]
        host = os.open(line.port, os.O_RDWR | os.O_NOCTTY)  # a new device, the same name
        line.write(b">>> ")
        assert os.read(host, 16) == b">>> "
        os.close(host)
    finally:
        line.close()
    assert not link.exists()


def test_the_link_is_made_in_a_folder_that_does_not_exist_yet(tmp_path):
    # make vboard's build/ttyACM0 on a fresh clone, before anything has made build/.
    link = tmp_path / "build" / "ttyACM0"
    line = serialline.SerialLine(lambda msg: None, link=link)
    try:
        assert line.port == str(link) and link.exists()
    finally:
        line.close()


def test_a_second_line_on_the_same_link_is_refused_and_the_first_keeps_it(tmp_path):
    # A new user's second `make vboard BOARD=pico` took build/ttyACM0 over and deleted it as it
    # ended, leaving the first board out of reach. The link is held while its line lives, even
    # while a USB gap has taken it away; closed, it is free for the next.
    link = tmp_path / "ttyACM0"
    first = serialline.SerialLine(lambda msg: None, link=link, usb_gap=1.5, clock=Clock())
    refused = "^%s is in use by another virtual board: stop it first" % re.escape(str(link))
    try:
        with pytest.raises(ValueError, match=refused):
            serialline.SerialLine(lambda msg: None, link=link)
        assert os.readlink(link) == first.tty
        first.usb_gone()  # away after a reset, and still the first board's
        with pytest.raises(ValueError, match=refused):
            serialline.SerialLine(lambda msg: None, link=link)
        assert not link.exists()
    finally:
        first.close()
    serialline.SerialLine(lambda msg: None, link=link).close()
