"""The virtual board's interpreter half: a `micropython` process answering control frames."""

import os
import time

import interpreter
import mpyrun
import pytest


@pytest.fixture
def interp(tmp_path):
    if mpyrun.micropython_path() is None:
        pytest.skip(mpyrun.UNAVAILABLE)
    printed = []
    it = interpreter.Interpreter(tmp_path, printed.append)
    it.printed = printed
    it.start()
    yield it
    it.stop()


def frames(it, count):
    """The next `count` control frames from the interpreter half."""
    got = []
    end = time.monotonic() + 5
    while len(got) < count and time.monotonic() < end:
        frame = it.next_frame(0.1)  # None until a whole frame is in
        if frame is not None:
            got.append(frame)
    return got


def test_input_typed_while_booting_without_main_py_reaches_the_repl(interp):
    # A board keeps what was typed during its boot for the REPL; the interpreter half must
    # hand back stdin it did not read even when main.py was not there to run (the host looks
    # first and sends no M then, but the file may go in between).
    interp.to_stdin(b"2 + 3\r")
    time.sleep(0.05)  # the bytes wait in the interpreter's stdin, as in a board's buffer
    interp.send(b"M")
    assert frames(interp, 1) == [(b"D", b"")]
    interp.send(b"U")  # the host asks for what the boot left unread
    assert frames(interp, 2) == [(b"L", b"2 + 3\r"), (b"U", b"")]


def test_frames_come_out_whole_however_the_pipe_splits_them(tmp_path):
    it = interpreter.Interpreter(tmp_path, print)
    it.ctl_r, w = os.pipe()
    os.write(w, b"(b'E', b'Traceback:")
    assert it.next_frame(0) is None  # not all in yet
    os.write(w, b"\\n1/0')\n(b'D', b'')\n")  # a newline in the data is escaped: data
    assert it.next_frame(0) == (b"E", b"Traceback:\n1/0")
    assert it.next_frame(0) == (b"D", b"")
    assert it.next_frame(0) is None
    os.close(w)
    assert it.next_frame(0) == (b"EOF", b"")
    os.close(it.ctl_r)
