"""The virtual board's interpreter: the `micropython` process and its control pipe.

The process runs testbed/virtualboard_mp.py (a persistent exec loop; its header lists the
control frames). Its stdin and stdout are the serial line's data; the control frames travel on
two extra pipes, so the code never sees them. A soft or hard reset is a new process.
"""

import ast
import os
import select
import signal
import subprocess
import time
from pathlib import Path

import mpyrun

HERE = Path(__file__).resolve().parent

START_TIMEOUT = 10.0
# A Pico's heap: about 240 KB free at the REPL (measured on the real rp2 port, MicroPython
# 1.28, in an RP2040 emulator). The unix port's 64-bit objects make the same program somewhat
# larger here, so this errs towards a tight board.
HEAPSIZE = "240k"


class Interpreter:
    def __init__(self, flash, output, heapsize=HEAPSIZE, setup=None, port=None, env=None):
        """`output(data)` takes what the code prints; `setup` is a module imported at start;
        `port` the MicroPython port the stand-ins model (machine.use_port: "rp2", "esp32");
        `env` more environment for it (the link cable's, which `setup` reads)."""
        self.flash = flash
        self.output = output
        self.heapsize = heapsize
        self.setup = setup
        self.port = port
        self.env = env or {}
        self.proc = None
        self.ctl_r = self.ctl_w = None  # the control pipes' ends, spawn()'s
        self.ctl_buf = bytearray()

    @property
    def running(self):
        return self.proc is not None

    def fds(self):
        """What to select() on for its output and its control frames (none while stopped)."""
        return [] if self.proc is None else [self.proc.stdout.fileno(), self.ctl_r]

    def start(self):
        self.proc, self.ctl_r, self.ctl_w = mpyrun.spawn(
            [HERE / "virtualboard_mp.py", self.flash, mpyrun.CHILD_IN, mpyrun.CHILD_OUT]
            + [self.setup or "", self.port or ""],
            [HERE / "hostboard", HERE],  # the stand-ins of machine and time, then the test bed
            self.heapsize,
            dict(os.environ, **self.env),
            stdin=subprocess.PIPE,
            cwd=self.flash,
        )
        self.ctl_buf = bytearray()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            frame = self.next_frame(0.1)
            self.pump_output(cooked=True)
            if frame is not None:
                if frame[0] == b"R":
                    return
                raise RuntimeError("virtual board: unexpected %r at start" % (frame,))
            if self.proc.poll() is not None:
                break
        self.pump_output(cooked=True)
        raise RuntimeError("virtual board: the interpreter did not start")

    def stop(self):
        if self.proc is not None:
            mpyrun.end(self.proc, (self.ctl_w, self.ctl_r))
            self.proc = None

    def send(self, tag, data=b""):
        """A control frame to the interpreter half (one line: see virtualboard_mp.py)."""
        try:
            os.write(self.ctl_w, repr((tag, bytes(data))).encode() + b"\n")
        except BrokenPipeError:
            pass  # the interpreter died: its control pipe's end-of-file reports it

    def to_stdin(self, data):
        """Serial input for the running code (its sys.stdin)."""
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def keyboard_interrupt(self):
        """Ctrl-C for the running code: KeyboardInterrupt in it."""
        self.proc.send_signal(signal.SIGINT)

    def next_frame(self, timeout):
        """One whole control frame (tag, data) from the interpreter, or None; (b"EOF", b"")
        once it has closed its end."""
        while b"\n" not in self.ctl_buf:
            ready, _, _ = select.select([self.ctl_r], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.ctl_r, 65536)
            if not chunk:
                return (b"EOF", b"")
            self.ctl_buf += chunk
            timeout = 0
        line, _, self.ctl_buf = self.ctl_buf.partition(b"\n")
        return ast.literal_eval(line.decode())

    def pump_output(self, cooked):
        """Pass on whatever the interpreter printed (cooked: newlines as the REPL's CR LF)."""
        if self.proc is None:
            return
        while True:
            try:
                data = os.read(self.proc.stdout.fileno(), 65536)
            except BlockingIOError:
                return
            if not data:
                return
            self.output(data.replace(b"\n", b"\r\n") if cooked else data)
