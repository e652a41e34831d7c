"""The simulator's board (tools/simulator.py is its command line): the firmware as deployed, run
by the MicroPython unix port with the host's stand-ins; its LCD on a simview.Screen, its buzzer
on a simsound.Speaker, its buttons pressed in order from a simkeys.Buttons once it has booted."""

import fcntl
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cableport
import deploy_chains
import mpyrun
from simkeys import Buttons
from simsound import Speaker
from simview import CONSOLE_KEPT, Screen

ROOT = Path(__file__).resolve().parents[1]
TESTBED = ROOT / "testbed"
HOSTBOARD = TESTBED / "hostboard"
# The simulated board's flash (settings.json, the tally) was here, where `make clean` deleted it
# without a word; an old one is moved to default_flash() on first use.
OLD_FLASH = ROOT / "build" / "sim" / "flash"
HEAPSIZE = "192k"  # the firmware's heap (-X heapsize; simulator_mp's notes on it assume it)
FLASHES = 9  # default flashes for simulators running at once (claim_flash)
FIRMWARE_STOPPED = 3  # exit status when the firmware stopped by itself
SAFE_MODE_HELP = (
    "the firmware started in safe mode (a button was held at power-on: --hold-at-boot)\n"
    'and stopped. The glass\'s "the REPL is free" and "press reset" are for a real board;\n'
    "here, run the simulator again without --hold-at-boot to play."
)
BOOT = "import simulator_mp\nsimulator_mp.boot(%r)\n"  # board, port model, main.py


def default_flash(environ=os.environ):
    """The simulated board's flash unless --flash names one: the player's settings and tally
    are state, not a build product, so they live where `make clean` (and a fresh clone) keep
    them, one board for every checkout: $XDG_STATE_HOME/oxo5110/sim-flash, by default under
    ~/.local/state."""
    state = environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(state) / "oxo5110" / "sim-flash"


def claim_flash(flash, most=FLASHES):
    """The first of `flash`, `flash`-2 ... -`most` that no other simulator has: (its path, the
    fd of the lock this process holds on it while it lives, a flock on a file beside it), or
    (`flash`, None) when all are taken. Two simulators on one flash (two `make play LINK=`)
    would overwrite each other's settings and tally."""
    flash = Path(flash)
    flash.parent.mkdir(parents=True, exist_ok=True)
    for n in range(1, most + 1):
        path = flash if n == 1 else flash.with_name("%s-%d" % (flash.name, n))
        fd = os.open(path.with_name(path.name + ".lock"), os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # another simulator has it
            os.close(fd)
            continue
        return path, fd
    return flash, None


# -- the firmware process and its buttons ----------------------------------------------------


class Simulator:
    """The firmware under micropython, its LCD on a Screen, and a queue of button actions.

    Actions (a press, a hold, a wait) run strictly in order once the firmware has booted (the
    glass has shown a picture, so no key can reach its safe-mode check at power-on)."""

    def __init__(
        self, board="pico", flash=None, hold_at_boot=None, sound="off", cable=None, **view
    ):
        self.board = board
        self.cable = cable  # the link cable's TCP port (cableport.py), or None: no cable
        self.screen = Screen(sys.stdout, **view)  # png_dir, clear, colours
        self.flash_lock = None  # held while this simulator has the default flash
        if flash is None:
            flash = default_flash()
            if OLD_FLASH.is_dir() and not flash.exists():
                flash.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(OLD_FLASH, flash)
                self.screen.note("the board's flash moved to %s (make clean keeps it)" % flash)
            flash, self.flash_lock = claim_flash(flash)
            if flash != default_flash():
                self.screen.note("another simulator has the first flash: this one's is %s" % flash)
        self.flash = Path(flash)
        self.flash.mkdir(parents=True, exist_ok=True)
        self.speaker = Speaker(sound, self.screen)
        self.buttons = Buttons(self.screen)
        self.hold_at_boot = hold_at_boot
        self.ready = False
        self.inputs = {}  # more fds for pump() to wait on: fd -> callback(fd)
        self.frames_buf = bytearray()
        self.key_began = None  # what the glass showed as the key action under way began
        self.proc = None
        self.build_dir = None
        self.console_open = True

    def start(self):
        # What `make deploy` copies (main.py stays source), with line numbers for tracebacks.
        self.build_dir = tempfile.TemporaryDirectory(prefix="oxo5110-sim-")
        mpy = deploy_chains.stage(self.board, Path(self.build_dir.name), lines=True)
        env = dict(os.environ, SIMLINK_OUT=mpyrun.CHILD_OUT, SIMLINK_IN=mpyrun.CHILD_IN)
        env.pop("SIMLINK_HOLD", None)
        if self.hold_at_boot:
            env["SIMLINK_HOLD"] = self.hold_at_boot
        env.pop(cableport.ENV, None)
        if self.cable is not None:
            env.update(cableport.environ(self.board, self.cable))
            self.screen.note(
                "the link cable is on port %d: Link play here and on the other board" % self.cable
            )
        boot = BOOT % str(mpy / "main.py")
        self.proc, self.out_r, self.keys_w = mpyrun.spawn(
            ["-c", boot], (HOSTBOARD, mpy, TESTBED), HEAPSIZE, env, cwd=self.flash
        )
        self.started = time.monotonic()

    def pump(self, timeout):
        """Wait up to timeout for firmware output or an input; False once the firmware ended."""
        self._send()
        if self.speaker.wait() is not None:
            timeout = min(timeout, self.speaker.wait())
        console = self.proc.stdout.fileno()
        fds = [self.out_r] + ([console] if self.console_open else [])
        ready, _, _ = select.select(fds + list(self.inputs), [], [], timeout)
        if self.out_r in ready and not self._take(self.out_r):
            return self._ended()
        if console in ready and self._take(console):
            self.screen.refresh(force=True)
        for fd in ready:
            if fd in self.inputs:
                self.inputs[fd](fd)
        self.speaker.tick()
        if self.proc.poll() is not None:
            return self._ended()
        self._send()
        self.buttons.drops_over(time.monotonic())
        return True

    def _send(self):
        if self.ready:  # no key may reach the firmware's safe-mode check at power-on
            idle = self.buttons.in_flight == 0
            self.buttons.send(lambda line: os.write(self.keys_w, line))
            if idle and self.buttons.in_flight:
                self.key_began = self.screen.look()

    def _take(self, fd):
        """Take in what the firmware wrote on `fd`, its frames or its console; False at the
        end."""
        data = os.read(fd, 65536)
        if fd == self.out_r:
            self.frames_buf += data
            self._frames()
        elif data:
            console = self.screen.console
            console.extend(t for t in data.decode(errors="replace").splitlines() if t.strip())
            del console[:-CONSOLE_KEPT]
        else:
            self.console_open = False
        return bool(data)

    def _frames(self):
        for kind, payload in frames(self.frames_buf):
            if kind == b"K":
                self.buttons.done()
                if payload:
                    self.screen.note(payload.decode(errors="replace"))
                else:
                    self._key_done()
            elif kind == b"S":
                self.speaker.feed(payload)
            else:
                self.screen.feed(kind, payload)
        self.screen.refresh()
        look = self.screen.look()
        if not self.ready and look is not None and any(look[0]):
            self.ready = True  # boot is over: the firmware drew its first picture

    def _key_done(self):
        # The firmware swallows the first press after the backlight went off or the display
        # went to sleep (firmware/drivers/power.py): say so, or the key looks lost. The next action
        # begins as this one ends (simulator_mp runs them back to back).
        began, now = self.key_began, self.screen.look()
        self.key_began = now
        why = woken(began, now)
        if why:
            why = "simulator: that key only woke the board (%s): the next one plays" % why
        if why != self.screen.wake_note:
            self.screen.wake_note = why
            self.screen.refresh(force=True)

    def _ended(self):
        """The firmware process ended: take in everything it still wrote; False."""
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.set_blocking(self.out_r, True)
        while self._take(self.out_r):
            pass
        while self.console_open and self._take(self.proc.stdout.fileno()):
            pass
        self.screen.refresh(force=True)
        return False

    def stopped_by_itself(self):
        return self.proc is not None and self.proc.returncode is not None

    def why(self):
        """Why the firmware stopped, for the person at the terminal."""
        said = "\n".join(self.screen.console)
        if "safe mode" in said or (self.hold_at_boot and self.proc.returncode == 0):
            return SAFE_MODE_HELP
        last = "\n".join("  " + line for line in self.screen.console[-6:]) or "  (none)"
        why = "the firmware stopped (exit status %s); its last output:\n%s"
        return why % (self.proc.returncode, last)

    def stop(self):
        if self.proc is not None:
            mpyrun.end(self.proc, (self.keys_w, self.out_r), grace=2)
        if self.build_dir is not None:
            self.build_dir.cleanup()
        self.speaker.close()
        if self.flash_lock is not None:
            os.close(self.flash_lock)
            self.flash_lock = None


def frames(buf):
    """Take the whole frames simulator_mp streamed off the front of bytearray `buf`: a kind byte,
    a 4-byte big-endian length, the payload; yields (kind, payload). A frame still being written
    (its header out, its payload not yet) stays in `buf`."""
    while len(buf) >= 5:
        n = int.from_bytes(buf[1:5], "big")
        if len(buf) < 5 + n:
            return
        kind, payload = bytes(buf[:1]), bytes(buf[5 : 5 + n])
        del buf[: 5 + n]
        yield kind, payload


def woken(before, after):
    """Why a key that took the glass from look `before` to `after` (Screen.look()) only woke
    the board, or None: the display came back from sleep, or the backlight came on with the
    picture unchanged (a key that turns the Light setting ON changes the picture too)."""
    if before is None or after is None:
        return None
    if before[2] is None and after[2] is not None:
        return "the display had gone to sleep"
    if not before[1] and after[1] and before[0] == after[0]:
        return "the backlight had gone off"
    return None
