"""The Pico lab's Python side: a MicroPython firmware booted in rp2040js (testbed/rp2040/lab.mjs),
seen only through its pins and its USB serial, for host_tests/test_pico.py and the benches.

    board = Board(firmware, fs=image_bytes)   # boots at once; fs: a littlefs image or None
    board = boot("stock")                     # the same, as testbed/picosetup.py configures it
    board.run(500)                            # simulated ms
    board.press("select", "next")             # each button's GPIO low 100 ms, then high again
    board.frames[-1].glass                    # what the LCD showed (testbed/pcd8544_model.py)
    board.notes()                             # [(Hz, start ms, end ms)] played on GP12
    board.raw("import gc; print(gc.mem_alloc())")    # at the REPL (interrupt() first)
    board.link_take()                         # [(ms, byte)] UART0 sent (the link cable's TX)
    board.link_feed(bytes_sent_by_another)    # into UART0's RX at the line's rate
    picopair.Pair(board, other)               # joined: either board's run() runs both
    board.close()                             # or: with Board(...) as board:

Times are the emulator's simulated ms since the first power-on (rp2040js runs the chip's
clock cycle by cycle: exact, and nothing like the host's speed). testbed/picosetup.py says
where the firmware and the boot ROM come from.
"""

import json
import subprocess
from pathlib import Path
from typing import NamedTuple

import fakebus
import pcd8544_model
import picoinfo
import picosetup
import uf2
import webtools
from image import PICO_FS_OFFSET as FS_OFFSET  # rp2's filesystem in a 2 MB flash
from image import PICO_FS_SIZE as FS_SIZE

BUTTONS = {"prev": 13, "select": 14, "next": 15}  # boards/pico.py
_NOTE_GAP_MS = 5.0  # rising edges further apart than this are a silence, not a tone
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"


class Frame(NamedTuple):
    """The glass after a transfer that changed it: when (ms), the 504 bytes, lit, Vop."""

    t: float
    glass: bytes
    lit: bool
    vop: int


class LabError(RuntimeError):
    """The node side failed; the message has its stack."""


class Board:
    """One emulated Pico. `fs`: bytes of a littlefs image written at FS_OFFSET (stock
    MicroPython with deploy's files), None for a flash holding only the firmware.
    `flash_timing`: erases and programs take the W25Q16JV's typical times (testbed/rp2040/
    flashrom.mjs) rather than none."""

    def __init__(self, firmware, fs=None, flash_timing=True):
        webtools.ensure_node_modules(picosetup.LAB)
        self._proc = subprocess.Popen(
            ["node", str(picosetup.SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.t = 0.0  # ms
        self.serial = bytearray()  # everything the board wrote on its USB serial
        self.frames = []
        self.transfers = []  # (ms, SCK Hz) where each CS-low stretch on the LCD's bus ended
        # The lab's lists (testbed/rp2040/lab.mjs), each answer's appended:
        self.edges = []  # (ms, level) of the buzzer pin
        self.flash_ops = []  # (ms, "erase"/"program", offset, size)
        self.resets = []  # (ms, why): "watchdog", "power cut", "power on"
        self.clocks = []  # (ms, clk_sys Hz, clk_peri Hz) at each change
        self.link_sent = []  # (ms, byte) UART0 transmitted, until link_take()
        self.off = False
        self.cable = None  # a picopair.Pair: run() runs both boards
        # The LCD's bus recorded as the host's stand-ins record theirs, for the model to read;
        # its control pins declared at the start, low, as the chip's are.
        self._bus = fakebus.Bus()
        self._model = pcd8544_model.Model()
        for role in self._model.roles:
            self._bus.level(self._bus.pin_id(role), 0)
        self._cmd(
            cmd="boot",
            flash=flash_image(Path(firmware), fs).hex(),
            bootrom=str(picosetup.bootrom()),
            flash_timing=flash_timing,
        )

    # -- the node side --------------------------------------------------------------------

    def _cmd(self, **message):
        self._ask(**message)
        return self._answer()

    def _ask(self, **message):
        # A command on its way; _answer() reads what it did.
        self._proc.stdin.write(json.dumps(message) + "\n")
        self._proc.stdin.flush()

    def _answer(self):
        proc = self._proc
        line = proc.stdout.readline()
        if not line:
            raise LabError("the lab (node) ended: exit %s" % proc.wait())
        answer = json.loads(line)
        if not answer["ok"]:
            raise LabError(answer["error"])
        self._absorb(answer)
        return answer

    def _absorb(self, answer):
        self.t = answer["t"]
        self.off = answer["off"]
        self.serial += bytes.fromhex(answer["serial"])
        for key in ("edges", "flash_ops", "resets", "clocks", "link_sent"):
            getattr(self, key).extend(map(tuple, answer[key]))
        bus = self._bus
        for t, kind, a, b in answer["bus"]:  # testbed/rp2040/recorder.mjs
            if kind == "pin":
                bus.level(bus.pin_id(a), b)
            else:
                if a:  # the SCK rate (Hz), 0 while SPI0 has none
                    bus.clock(a)
                bus.write(bytes(b))
            if kind == "pin" and a == "cs" and b:  # a transfer's end
                self._model.feed(bus.take())
                self._transfer_done(t)
        self._model.feed(bus.take())

    def _transfer_done(self, t):
        model = self._model
        self.transfers.append((t, model.spi_hz or 0))
        glass = bytes(model.glass())
        lit = bool(model.backlight)
        last = self.frames[-1] if self.frames else None
        if last is None or (last.glass, last.lit, last.vop) != (glass, lit, model.vop):
            self.frames.append(Frame(t, glass, lit, model.vop))

    @property
    def anomalies(self):
        """What the controller model found wrong on the bus (pcd8544_model.Model)."""
        return self._model.anomalies

    def close(self):
        if self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()

    # -- time, pins, power ------------------------------------------------------------------

    def run(self, ms, until=None):
        """Run `ms` simulated ms, or until the serial output holds `until` (bytes); True if
        it does. On a cable, both boards run `ms` (`until` unheeded)."""
        if self.cable is not None:
            return self.cable.run(ms)
        text = until.decode("latin-1") if until else None
        return self._cmd(cmd="run", ms=ms, until=text)["found"]

    def run_begin(self, ms):
        """run(ms) in two halves, so that several boards run at once (a lab each): this one
        starts the run and returns; run_end() waits for it."""
        self._ask(cmd="run", ms=ms, until=None)

    def run_end(self):
        self._answer()

    def pin(self, name, level):
        self._cmd(cmd="pin", gpio=BUTTONS[name], level=level)

    def press(self, *names, ms=100, after=150):
        """Press each button in turn for `ms`, release it, and let `after` ms pass."""
        for name in names:
            self.pin(name, 0)
            self.run(ms)
            self.pin(name, 1)
            self.run(after)

    def cut_after(self, n):
        """Cut the power right after the board's next `n`-th flash erase or program."""
        self._cmd(cmd="cut_after", n=n)

    def power_on(self):
        """Power back on (after a cut, or a power cycle): the same flash, a fresh chip."""
        self._model = pcd8544_model.Model()  # the LCD lost power too: a new reader
        self._bus.hz = None  # it learns the rate from the next byte on
        self._model.feed(self._bus.preamble())
        self._cmd(cmd="power_on")

    def flash(self, offset=FS_OFFSET, size=FS_SIZE):
        """Bytes of the flash (by default the filesystem's range) as the chip holds them."""
        return bytes.fromhex(self._cmd(cmd="flash", offset=offset, size=size)["data"])

    # -- the link cable (UART0, GP0 TX and GP1 RX) ------------------------------------------

    def link_take(self):
        """[(ms, byte)]: what UART0 transmitted since the last call, with when."""
        sent, self.link_sent = self.link_sent, []
        return sent

    def link_feed(self, sent):
        """Bytes another board's UART0 sent, [(ms, byte)] with when on this board's clock, into
        this one's RX: each arrives a character's time at the line's rate after it was sent or
        after the byte before it, and not before now (testbed/rp2040/lab.mjs)."""
        self._cmd(cmd="link", bytes=sent)

    # -- the USB serial -------------------------------------------------------------------

    def send(self, data):
        self._cmd(cmd="serial", hex=bytes(data).hex())

    def wait_for(self, text, ms=5000, since=None):
        """Run until `text` shows on the serial output after index `since` (by default: the
        output so far); return its index; TimeoutError after ms."""
        since = len(self.serial) if since is None else since
        end = self.t + ms
        while True:
            at = self.serial.find(text, since)
            if at >= 0:
                return at
            if self.t >= end:
                raise TimeoutError(
                    "no %r on the serial within %d ms: %r" % (text, ms, bytes(self.serial[-300:]))
                )
            self.run(min(50, end - self.t), until=text)

    def interrupt(self, keys=b"\r\x03\x03"):
        """Ctrl-C until the REPL's prompt shows (b"\\x03\\x03" at power-on: the lab holds them
        until the USB serial is up)."""
        since = len(self.serial)
        self.send(keys)
        self.wait_for(b">>> ", since=since)

    def enter_raw(self, then=b"\x01"):
        """Ctrl-A at the REPL's prompt (or `then` at the raw REPL's): where the raw REPL's
        prompt shows."""
        since = len(self.serial)
        self.send(then)
        return self.wait_for(RAW_PROMPT, since=since)

    def soft_reset(self):
        """A soft reset from the raw REPL (the REPL must be at its prompt): MicroPython's heap
        and the port's machine state are made anew and _boot.py mounts the filesystem as at
        power-on, but main.py does not run (ports/rp2/main.c runs it in the friendly REPL's
        mode only). Back at the friendly prompt."""
        self.enter_raw()
        since = self.enter_raw(b"\x04")
        self.send(b"\x02")
        self.wait_for(b">>> ", since=since)

    def raw(self, code, ms=10000):
        """Run `code` in the raw REPL (the REPL must be at its prompt: interrupt()); return
        (stdout, stderr) as text. The raw REPL is left again (Ctrl-B)."""
        since = self.enter_raw()
        self.send(code.encode() + b"\x04")
        start = self.wait_for(b"OK", since=since) + 2
        end = self.wait_for(b"\x04", ms=ms, since=start)
        err_end = self.wait_for(b"\x04", ms=ms, since=end + 1)
        out = bytes(self.serial[start:end]).decode("utf-8", "replace")
        err = bytes(self.serial[end + 1 : err_end]).decode("utf-8", "replace")
        self.send(b"\x02")
        self.wait_for(b">>> ", since=err_end)
        return out, err

    # -- the buzzer -------------------------------------------------------------------------

    def notes(self, since=0.0):
        """The tones on the buzzer pin from `since` (ms) on: [(Hz, start ms, end ms)], a tone
        being a run of rising edges a steady period apart (the PWM's frequency), ending where
        the next tone's period starts or, before a silence, at its last falling edge."""
        return notes_of([e for e in self.edges if e[0] >= since])


def boot(kind, **options):
    """A Board of the firmware `kind` ("frozen"/"stock") as picosetup configures it; stock
    MicroPython gets deploy's files on its filesystem."""
    fs = picosetup.deploy_image() if kind == "stock" else None
    return Board(picosetup.firmwares()[kind], fs=fs, **options)


def flash_image(firmware, fs):
    """A new board's flash up to the filesystem's end: erased (0xFF), the firmware (a .uf2's
    blocks for the main flash, or a .bin from the start), `fs` at FS_OFFSET if not None."""
    data = firmware.read_bytes()
    image = bytearray(b"\xff") * (FS_OFFSET + FS_SIZE)
    if data[:4] == b"UF2\n":
        for block in uf2.read_blocks(data, str(firmware)):
            if not block.flags & 1:  # flag 1: not for the main flash
                at = block.address - picoinfo.XIP_BASE
                image[at : at + len(block.payload)] = block.payload
    else:
        image[: len(data)] = data
    if fs is not None:
        image[FS_OFFSET : FS_OFFSET + len(fs)] = fs
    return image


def notes_of(edges):
    """[(Hz, start, end)] from [(ms, level)] edges of a PWM pin (see Board.notes)."""
    rises = [t for t, level in edges if level]
    falls = [t for t, level in edges if not level]
    out = []
    i = 0
    while i + 1 < len(rises):
        period = rises[i + 1] - rises[i]
        if period > _NOTE_GAP_MS:
            i += 1
            continue
        j = i + 1  # the last rise of this tone
        while j + 1 < len(rises) and abs(rises[j + 1] - rises[j] - period) <= 0.02 * period:
            j += 1
        gap = rises[j + 1] - rises[j] if j + 1 < len(rises) else None
        if gap is not None and gap <= _NOTE_GAP_MS:
            end = rises[j]  # the next tone starts here with its own period
            nxt = j
        else:
            end = next((t for t in falls if t > rises[j]), rises[j] + period / 2)
            nxt = j + 1
        if j - i >= 2:  # a lone period is a change of frequency caught half-way, no tone
            out.append((1000.0 * (j - i) / (rises[j] - rises[i]), rises[i], end))
        i = nxt
    return out
