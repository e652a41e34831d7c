"""A virtual MicroPython board on a pseudo-terminal, for testing deploy without hardware.

`python testbed/virtualboard.py --flash DIR [--link PORT]` (or `--board pico [--cable N]`,
`make vboard BOARD=pico`: see virtualboard_args.py) prints the serial port (`/dev/pts/N`, or
PORT, a symlink to it) and then answers it the way a board's USB serial
REPL does, so `mpremote connect PORT ...` (and `make deploy PORT=...`) work unchanged:

- friendly REPL (`>>> `, echo, Ctrl-C, Ctrl-D soft reset that runs /main.py, Ctrl-A raw REPL);
- raw REPL: `raw REPL; CTRL-B to exit\\r\\n>`, code ... Ctrl-D -> `OK` output `\\x04` error
  `\\x04` `>`; raw-paste mode (Ctrl-E A Ctrl-A, window flow control); Ctrl-B back to friendly;
  Ctrl-D on an empty line = soft reset (fresh interpreter, main.py not run, as on a board);
- `machine.reset()` = hard reset: fresh interpreter, then /main.py runs like at power-on;
- Ctrl-C while code runs raises KeyboardInterrupt in it (SIGINT to the interpreter), unless
  the code turned that off with micropython.kbd_intr(-1) (mpremote's mount does); other input
  is the code's sys.stdin, and what it leaves unread goes back to the REPL (also what came
  while the code was ending: the host asks for it once the code has ended, see _control());
- `--usb-gap SECONDS` (with `--link PORT`): a hard reset takes the port away until main.py has
  run that long, as a board with native USB does (a Pico: about 1.5 s); see serialline.py.

This file is the REPL's state machine; serialline.py is the port (pty, link, USB gap) and
interpreter.py the process the code runs in: the real `micropython` unix port
(testbed/virtualboard_mp.py, a persistent exec loop; a soft reset starts a new process). DIR
is mounted at "/" inside it, so mpremote's file commands (Python snippets run through the raw
REPL) really write DIR. The board runs on testbed/hostboard's machine and time, brought up
as every host run's is (hostapp.HostApp), on the real clock.
"""

import os
import select
import signal
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # as `python testbed/virtualboard.py`

import cableport  # noqa: E402
import virtualboard_args  # noqa: E402
from interpreter import HEAPSIZE, Interpreter  # noqa: E402
from serialline import SerialLine  # noqa: E402

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_WINDOW = 128


class VirtualBoard:
    def __init__(
        self,
        flash,
        heapsize=HEAPSIZE,
        name="virtual board",
        log=None,
        setup=None,
        link=None,
        usb_gap=0.0,
        port=None,
        cable=None,
    ):
        self.log = log or (lambda msg: print("virtualboard:", msg, file=sys.stderr, flush=True))
        self.serial = SerialLine(self.log, link, usb_gap)
        self.flash = Path(flash).resolve()
        self.flash.mkdir(parents=True, exist_ok=True)
        # cable: the link cable's environment for simulator_mp (cableport.environ), or None
        self.interpreter = Interpreter(self.flash, self.write, heapsize, setup, port, cable)
        self.banner = (
            b"MicroPython (unix port) on " + name.encode() + b'\r\nType "help()" for more '
            b"information.\r\n"
        )
        # off (booting: not at a REPL yet) | friendly | raw | paste_head | paste | exec
        self.mode = "off"
        self.exec_kind = None  # raw | friendly | boot, while mode == "exec"
        self.pending = bytearray()  # serial input not yet handled
        self.held = False  # after Ctrl-C during exec, or once it ended: keep input for the REPL
        self.fed = False  # the running code was given stdin: ask for what it left unread
        self.ended = None  # (tag, data) of the code's end, while its unread stdin is asked for
        self.line = bytearray()
        self.block = []  # friendly REPL continuation lines
        self.code = bytearray()
        self.paste_count = 0
        self.hard_reset = False
        self.stopped = False
        self.crashes = 0
        self.interrupt = True  # Ctrl-C interrupts the running code (micropython.kbd_intr)

    @property
    def port(self):
        return self.serial.port

    def write(self, data):
        self.serial.write(data)

    # -- the interpreter ---------------------------------------------------------------------

    def start(self):
        self.hard_reset = False
        self.interpreter.start()

    def restart(self):
        self.interpreter.stop()
        self.start()

    def _to_stdin(self, data):
        """Serial input for the running code (its sys.stdin)."""
        self.fed = True
        self.interpreter.to_stdin(data)

    def _read_serial(self):
        data = self.serial.read()
        if data is None:
            return
        if self.mode == "exec" and not self.held:
            self._to_code(data)
        else:
            self.pending += data

    # -- REPL states -------------------------------------------------------------------------

    def _execute(self, kind, tag, code=b""):
        # Like pyexec on a board: Ctrl-C interrupts each new block until it says otherwise.
        self.mode, self.exec_kind, self.held, self.interrupt = "exec", kind, False, True
        self.fed = False
        self.interpreter.send(tag, code)

    def boot(self, soft=False):
        """Power-on, hard or (friendly REPL) soft reset: fresh interpreter, then main.py."""
        self.mode = "off"
        if soft:
            self.write(b"MPY: soft reboot\r\n")
        self.restart()
        if (self.flash / "main.py").exists():
            self.log("running main.py")
            self._execute("boot", b"M")
            return
        # Without main.py nothing runs (pyexec_file_if_exists): the board is at its REPL at
        # once. Running an empty block instead left a moment where a Ctrl-C typed during the
        # boot (mpremote sends one as it connects) became a SIGINT for code that had ended.
        self.log("no main.py")
        self.write(self.banner)
        self._friendly_prompt()

    def _raw_soft_reset(self, why, before):
        # Ctrl-D on an empty raw REPL, or SystemExit in a block: a fresh interpreter, main.py
        # not run, back at the raw REPL.
        self.log("soft reset (%s)" % why)
        self.write(before + b"MPY: soft reboot\r\n")
        self.restart()
        self.mode = "raw"
        self.write(RAW_BANNER + b">")

    def _friendly_prompt(self):
        self.mode = "friendly"
        self.write(b"... " if self.block else b">>> ")

    def _handle_byte(self, c):
        mode = self.mode
        if c in (1, 2) and mode in ("raw", "friendly"):
            if c == 1:  # Ctrl-A: the raw REPL, afresh
                self.mode, self.code = "raw", bytearray()
                self.write(b"\r\n" + RAW_BANNER + b">")
            else:  # Ctrl-B: the friendly REPL, afresh
                self.mode, self.line, self.block = "friendly", bytearray(), []
                self.write(b"\r\n" + self.banner + b">>> ")
        elif mode == "raw":
            if c == 3:
                self.code = bytearray()
            elif c == 4:
                if self.code:
                    code, self.code = bytes(self.code), bytearray()
                    self.write(b"OK")
                    self._execute("raw", b"X", code)
                else:
                    self._raw_soft_reset("raw REPL", b"")
            elif c == 5 and not self.code:
                self.mode, self.paste_head = "paste_head", bytearray()
            else:
                self.code.append(c)
        elif mode == "paste_head":
            self.paste_head.append(c)
            if len(self.paste_head) == 2:
                if bytes(self.paste_head) == b"A\x01":
                    self.mode, self.paste_count = "paste", 0
                    self.write(b"R\x01" + struct.pack("<H", PASTE_WINDOW))
                else:
                    self.mode = "raw"
                    self.write(b"R\x00")
        elif mode == "paste":
            if c == 4:
                code, self.code = bytes(self.code), bytearray()
                self.write(b"\x04")
                self._execute("raw", b"X", code)
            else:
                self.code.append(c)
                self.paste_count += 1
                if self.paste_count >= PASTE_WINDOW:
                    self.paste_count -= PASTE_WINDOW
                    self.write(b"\x01")
        elif mode == "friendly":
            self._friendly_byte(c)

    def _friendly_byte(self, c):
        if c == 3:
            self.line, self.block = bytearray(), []
            self.write(b"\r\nKeyboardInterrupt\r\n>>> ")
        elif c == 4:
            if not self.line and not self.block:
                self.log("soft reset (friendly REPL)")
                self.write(b"\r\n")
                self.boot(soft=True)
        elif c == 13:
            self.write(b"\r\n")
            line, self.line = bytes(self.line), bytearray()
            if self.block:
                if line.strip():
                    self.block.append(line)
                    self.write(b"... ")
                    return
                code, self.block = b"\n".join(self.block) + b"\n", []
                self._execute("friendly", b"S", code)
            elif line.rstrip().endswith(b":"):
                self.block = [line]
                self.write(b"... ")
            elif line.strip():
                self._execute("friendly", b"S", line + b"\n")
            else:
                self.write(b">>> ")
        elif c in (8, 127):
            if self.line:
                self.line.pop()
                self.write(b"\b \b")
        elif c >= 32 or c == 9:
            self.line.append(c)
            self.write(bytes([c]))

    def _finished(self, tag, data):
        """The running code ended (tag D, E, Q or EOF): report it the way its REPL does."""
        kind, cooked = self.exec_kind, self.exec_kind != "raw"
        self.interpreter.pump_output(cooked)
        if tag in (b"Q", b"EOF"):
            hard = self.hard_reset or tag == b"EOF"
            if tag == b"EOF":
                self.crashes += 1
                if self.crashes >= 3:
                    raise RuntimeError("virtual board: the interpreter keeps dying")
                self.log("the interpreter died: restarting like a hard reset")
            if hard:
                self.log("hard reset (machine.reset)")
                self.pending = bytearray()
                if self.serial.usb_gap:
                    self.serial.usb_gone()
                self.boot()
                if self.serial.usb_gap:
                    self.serial.usb_main_started()
            elif kind == "raw":
                self._raw_soft_reset("SystemExit", b"\x04\x04")  # the block's end first
            else:
                self.boot(soft=True)
            return
        self.crashes = 0
        if kind == "raw":
            self.mode = "raw"
            self.write(b"\x04" + data + b"\x04>")
            return
        if data:
            self.write(data.replace(b"\n", b"\r\n"))
        if kind == "boot":
            self.write(self.banner)
        self._friendly_prompt()

    def _control(self):
        frame = self.interpreter.next_frame(0)
        while frame is not None:
            tag, data = frame
            if tag == b"L":
                self.pending[:0] = data
            elif tag == b"H":
                self.hard_reset = True
            elif tag == b"K":
                self.interrupt = data == b"3"
            elif tag in (b"D", b"E") and self.fed:
                # Serial input read while the code was ending went to its stdin after its last
                # read: ask for all it left unread (the bytes written so far are in the pipe
                # before the request), and keep what comes meanwhile for the REPL, after it.
                # A board's REPL gets all of it from its ring buffer, in order.
                self.ended, self.held = (tag, data), True
                self.interpreter.send(b"U")
            elif tag in (b"D", b"E", b"Q", b"EOF", b"U"):
                if tag == b"U":
                    (tag, data), self.ended = self.ended, None
                self._finished(tag, data)
                if self.mode == "exec":
                    return  # a reset started main.py: its frames come later
            frame = self.interpreter.next_frame(0)

    def serve(self):
        """Run until stop() (or SIGTERM): power on, then answer the serial line (make vboard,
        bench_tools.py)."""
        self.boot()
        self.run()

    def run(self):
        """Answer the serial line (and the interpreter) until stop()."""
        while not self.stopped:
            self.serial.usb_check()
            watch = [] if self.serial.away else [self.serial.master]
            watch += self.interpreter.fds()
            ready, _, _ = select.select(watch, [], [], self.serial.wait_limit(0.2))
            if self.interpreter.running:
                # Output and control first: a kbd_intr(-1) must be known before the host's
                # answer to the output that followed it is read.
                self.interpreter.pump_output(cooked=self.exec_kind != "raw" or self.mode != "exec")
                self._control()
            if not self.serial.away and self.serial.master in ready:
                self._read_serial()
            while self.pending and self.mode != "exec":
                byte = self.pending.pop(0)
                self._handle_byte(byte)
                if self.mode == "exec" and self.pending:
                    # Input typed ahead of a running block is the block's stdin.
                    data, self.pending = bytes(self.pending), bytearray()
                    self._to_code(data)

    def _to_code(self, data):
        """Serial input while code runs: its stdin, up to a Ctrl-C that interrupts it (unless
        kbd_intr(-1) made Ctrl-C data); what follows that is kept for the REPL."""
        index = data.find(b"\x03") if self.interrupt else -1
        if index < 0:
            self._to_stdin(data)
            return
        if index:
            self._to_stdin(data[:index])
        self.log("Ctrl-C: interrupting the running code")
        self.interpreter.keyboard_interrupt()
        self.held = True
        self.pending += data[index + 1 :]

    def stop(self, *_):
        self.stopped = True

    def close(self):
        self.interpreter.stop()
        self.serial.close()


def main(argv=None):
    options = vars(virtualboard_args.parse(argv, __doc__.split("\n")[0]))
    name = options.pop("board")  # what the rest are filled in from, if given
    try:
        board = VirtualBoard(**options)
    except ValueError as err:  # its port is another board's
        print("virtualboard:", err, file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, board.stop)
    signal.signal(signal.SIGINT, board.stop)
    print(board.port, flush=True)
    if name:
        port = os.path.relpath(board.port, ROOT)  # make's directory
        board.log(
            "%s (Ctrl-C stops it); from another terminal: make deploy BOARD=%s PORT=%s"
            % (options["name"], name, port)
        )
    if options["cable"]:
        cable_port, uart = options["cable"][cableport.ENV].split()
        board.log(
            "its link cable, UART(%s), is on localhost port %s (make play LINK=%s joins it)"
            % (uart, cable_port, cable_port)
        )
    try:
        board.serve()
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 1
    finally:
        board.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
