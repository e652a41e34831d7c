"""A virtual MicroPython board on a pseudo-terminal, for testing deploy without hardware.

`python testbed/virtualboard.py --flash DIR [--path SHIMS]... [--link PORT]` prints the serial
port (`/dev/pts/N`, or PORT, a symlink to it) and then answers it the way a board's USB serial
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
  run that long, as a board with native USB does (a Pico: about 1.5 s); see usb_gone().

Code runs in the real `micropython` unix port (testbed/virtualboard_mp.py, a persistent exec
loop; a soft reset starts a new process). DIR is mounted at "/" inside it, so mpremote's file
commands (Python snippets run through the raw REPL) really write DIR. `--path` directories are
on MICROPYPATH for stand-ins of built-in modules (machine, time), imported before user code.
"""

import argparse
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))  # as `python testbed/virtualboard.py`

import mpyrun  # noqa: E402

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_WINDOW = 128
START_TIMEOUT = 10.0
# A Pico's heap: about 240 KB free at the REPL (measured on the real rp2 port, MicroPython
# 1.28, in an RP2040 emulator). The unix port's 64-bit objects make the same program somewhat
# larger here, so this errs towards a tight board.
HEAPSIZE = "240k"


class VirtualBoard:
    def __init__(
        self,
        flash,
        paths=(),
        heapsize=HEAPSIZE,
        name="virtual board",
        log=None,
        setup=None,
        link=None,
        usb_gap=0.0,
    ):
        if usb_gap and link is None:
            raise ValueError("usb_gap needs a link: the port's name must outlive its pty")
        self.setup = setup
        self.flash = Path(flash).resolve()
        self.flash.mkdir(parents=True, exist_ok=True)
        self.paths = [str(Path(p).resolve()) for p in paths]
        self.heapsize = heapsize
        self.banner = (
            b"MicroPython (unix port) on " + name.encode() + b'\r\nType "help()" for more '
            b"information.\r\n"
        )
        self.log = log or (lambda msg: print("virtualboard:", msg, file=sys.stderr, flush=True))
        self.link = None if link is None else Path(link)
        self.usb_gap = usb_gap
        self.usb_back_at = None  # while the port is away: when it comes back
        self.master = self.slave = None
        self._usb_attach()
        self.proc = None
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
        self.ctl_buf = bytearray()
        self.stopped = False
        self.crashes = 0
        self.interrupt = True  # Ctrl-C interrupts the running code (micropython.kbd_intr)

    # -- the interpreter ---------------------------------------------------------------------

    def start(self):
        if mpyrun.micropython_path() is None:  # before any pipe is made
            raise RuntimeError(mpyrun.UNAVAILABLE)
        to_child_r, self.ctl_w = os.pipe()
        self.ctl_r, from_child_w = os.pipe()
        self.proc = mpyrun.spawn(
            [HERE / "virtualboard_mp.py", self.flash]
            + ["/dev/fd/%d" % to_child_r, "/dev/fd/%d" % from_child_w]
            + ([self.setup] if self.setup else []),
            self.paths,
            self.heapsize,
            child_fds=(to_child_r, from_child_w),
            stdin=subprocess.PIPE,
            cwd=self.flash,
        )
        self.ctl_buf = bytearray()
        self.hard_reset = False
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            frame = self._next_frame(0.1)
            self._pump_output(cooked=True)
            if frame is not None:
                if frame[0] == b"R":
                    return
                raise RuntimeError("virtual board: unexpected %r at start" % (frame,))
            if self.proc.poll() is not None:
                break
        self._pump_output(cooked=True)
        raise RuntimeError("virtual board: the interpreter did not start")

    def stop_interpreter(self):
        if self.proc is None:
            return
        for fd in (self.ctl_w, self.ctl_r):
            os.close(fd)
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.proc = None

    def restart(self):
        self.stop_interpreter()
        self.start()

    def _send(self, tag, data=None):
        frame = tag + b"\n" if data is None else tag + b"%d\n" % len(data) + bytes(data)
        try:
            os.write(self.ctl_w, frame)
        except BrokenPipeError:
            pass  # the interpreter died: its control pipe's end-of-file reports it

    def _to_stdin(self, data):
        """Serial input for the running code (its sys.stdin)."""
        self.fed = True
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def _next_frame(self, timeout):
        """One complete control frame (tag, data) from the interpreter, or None."""
        while True:
            frame = self._parse_frame()
            if frame is not None:
                return frame
            ready, _, _ = select.select([self.ctl_r], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.ctl_r, 65536)
            if not chunk:
                return (b"EOF", b"")
            self.ctl_buf += chunk
            timeout = 0

    def _parse_frame(self):
        end = self.ctl_buf.find(b"\n")
        if end < 0:
            return None
        tag, size = bytes(self.ctl_buf[:1]), self.ctl_buf[1:end]
        if not size:
            del self.ctl_buf[: end + 1]
            return tag, b""
        n = int(size)
        if len(self.ctl_buf) < end + 1 + n:
            return None
        data = bytes(self.ctl_buf[end + 1 : end + 1 + n])
        del self.ctl_buf[: end + 1 + n]
        return tag, data

    def _pump_output(self, cooked):
        """Copy whatever the interpreter printed to the serial line."""
        if self.proc is None:
            return
        while True:
            try:
                data = os.read(self.proc.stdout.fileno(), 65536)
            except BlockingIOError:
                return
            if not data:
                return
            self.write(data.replace(b"\n", b"\r\n") if cooked else data)

    # -- the serial line ---------------------------------------------------------------------

    @property
    def port(self):
        """The name the host opens: the link when there is one (it survives a USB gap)."""
        return str(self.link) if self.link is not None else self.tty

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

        A Pico's machine.reset() is watchdog_reboot() (ports/rp2/modmachine.c,
        mp_machine_reset): the whole chip restarts, its USB controller too, so the host sees
        the CDC device detach, removes its node (/dev/ttyACM0), and makes it again when the
        new firmware enumerates, about 1.5 s later; a program that had it open gets EIO. Here
        the link goes and the pty closes (its open ends see a hangup); output meanwhile is lost.
        A board behind a USB-serial bridge (most ESP32 boards) keeps its port: usb_gap 0.

        The board runs main.py at once after the reset (ports/rp2/main.c, main(): tusb_init(),
        then boot.py and main.py, while the host is still enumerating), so when the port is back
        main.py has run for about usb_gap seconds: a main.py that returns at once (safe mode)
        has long returned. Starting the interpreter here takes real time a board does not
        spend, so the gap is counted from main.py's start (usb_main_started()), not from here.
        """
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = None
        self.log("USB gone for %.1f s (re-enumerating after the reset)" % self.usb_gap)

    def usb_main_started(self):
        """main.py has just been started (or, without one, the REPL) after a reset that took
        the port away."""
        self.usb_back_at = time.monotonic() + self.usb_gap

    def _usb_check(self):
        if self.usb_back_at is not None and time.monotonic() >= self.usb_back_at:
            self.usb_back_at = None
            self._usb_attach()
            self.log("USB back")

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

    def _read_serial(self):
        if self.master is None:
            return
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return
        if self.mode == "exec" and not self.held:
            for i, byte in enumerate(data):
                if byte == 3 and self.interrupt:
                    if i:
                        self._to_stdin(data[:i])
                    self.log("Ctrl-C: interrupting the running code")
                    self.proc.send_signal(signal.SIGINT)
                    self.held = True
                    self.pending += data[i + 1 :]
                    return
            self._to_stdin(data)
        else:
            self.pending += data

    # -- REPL states -------------------------------------------------------------------------

    def _execute(self, kind, tag, code=b""):
        # Like pyexec on a board: Ctrl-C interrupts each new block until it says otherwise.
        self.mode, self.exec_kind, self.held, self.interrupt = "exec", kind, False, True
        self.fed = False
        self._send(tag, code if tag != b"M" else None)

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

    def _friendly_prompt(self):
        self.mode = "friendly"
        self.write(b"... " if self.block else b">>> ")

    def _handle_byte(self, c):
        mode = self.mode
        if mode == "raw":
            if c == 1:
                self.code = bytearray()
                self.write(b"\r\n" + RAW_BANNER + b">")
            elif c == 2:
                self.mode, self.line, self.block = "friendly", bytearray(), []
                self.write(b"\r\n" + self.banner + b">>> ")
            elif c == 3:
                self.code = bytearray()
            elif c == 4:
                if self.code:
                    code, self.code = bytes(self.code), bytearray()
                    self.write(b"OK")
                    self._execute("raw", b"X", code)
                else:
                    self.log("soft reset (raw REPL)")
                    self.write(b"MPY: soft reboot\r\n")
                    self.restart()
                    self.write(RAW_BANNER + b">")
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
        if c == 1:
            self.mode, self.code = "raw", bytearray()
            self.write(b"\r\n" + RAW_BANNER + b">")
        elif c == 2:
            self.line, self.block = bytearray(), []
            self.write(b"\r\n" + self.banner + b">>> ")
        elif c == 3:
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
        self._pump_output(cooked)
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
                if self.usb_gap:
                    self.usb_gone()
                self.boot()
                if self.usb_gap:
                    self.usb_main_started()
            elif kind == "raw":
                self.log("soft reset (SystemExit)")
                self.write(b"\x04\x04MPY: soft reboot\r\n")
                self.restart()
                self.mode = "raw"
                self.write(RAW_BANNER + b">")
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
        frame = self._next_frame(0)
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
                self._send(b"U")
            elif tag in (b"D", b"E", b"Q", b"EOF", b"U"):
                if tag == b"U":
                    (tag, data), self.ended = self.ended, None
                self._finished(tag, data)
                if self.mode == "exec":
                    return  # a reset started main.py: its frames come later
            frame = self._next_frame(0)

    def serve(self, boot=True):
        """Run until stop() (or SIGTERM): power on, then answer the serial line."""
        if boot:
            self.boot()
        else:
            self.start()
            self.mode = "friendly"
            self.write(self.banner + b">>> ")
        self.run()

    def run(self):
        """Answer the serial line (and the interpreter) until stop()."""
        while not self.stopped:
            self._usb_check()
            watch = [] if self.master is None else [self.master]
            if self.proc is not None:
                watch += [self.proc.stdout.fileno(), self.ctl_r]
            wait = 0.2
            if self.usb_back_at is not None:
                wait = min(wait, max(0.0, self.usb_back_at - time.monotonic()))
            ready, _, _ = select.select(watch, [], [], wait)
            if self.proc is not None:
                # Output and control first: a kbd_intr(-1) must be known before the host's
                # answer to the output that followed it is read.
                self._pump_output(cooked=self.exec_kind != "raw" or self.mode != "exec")
                self._control()
            if self.master is not None and self.master in ready:
                self._read_serial()
            while self.pending and self.mode != "exec":
                byte = self.pending.pop(0)
                self._handle_byte(byte)
                if self.mode == "exec" and self.pending:
                    # Input typed ahead of a running block is the block's stdin.
                    data, self.pending = bytes(self.pending), bytearray()
                    self._typeahead(data)

    def _typeahead(self, data):
        index = data.find(b"\x03") if self.interrupt else -1
        if index < 0:
            self._to_stdin(data)
            return
        self._to_stdin(data[:index])
        self.proc.send_signal(signal.SIGINT)
        self.held = True
        self.pending += data[index + 1 :]

    def stop(self, *_):
        self.stopped = True

    def close(self):
        self.stop_interpreter()
        if self.master is not None:
            os.close(self.master)
            os.close(self.slave)
            self.master = self.slave = None
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flash", required=True, type=Path, help="the board's filesystem")
    parser.add_argument("--path", action="append", default=[], help="stand-in modules dir")
    parser.add_argument(
        "--heapsize", default=HEAPSIZE, help="MicroPython heap (default %s, a Pico's)" % HEAPSIZE
    )
    parser.add_argument("--name", default="virtual board", help="name in the REPL banner")
    parser.add_argument("--link", type=Path, help="also make this symlink to the port")
    parser.add_argument("--setup", help="module to import at every start (e.g. simulator_mp)")
    parser.add_argument(
        "--usb-gap",
        type=float,
        default=0.0,
        help="seconds the port is away after a hard reset, as on a board with native USB "
        "(1.5 models a Pico; needs --link); default 0, a USB-serial bridge",
    )
    args = parser.parse_args(argv)
    if args.usb_gap and not args.link:
        parser.error("--usb-gap needs --link: the port's name must outlive its pty")
    board = VirtualBoard(
        args.flash,
        args.path,
        args.heapsize,
        args.name,
        setup=args.setup,
        link=args.link,
        usb_gap=args.usb_gap,
    )
    signal.signal(signal.SIGTERM, board.stop)
    signal.signal(signal.SIGINT, board.stop)
    print(board.port, flush=True)
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
