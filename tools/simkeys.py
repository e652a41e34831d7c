"""Button actions for tools/simulator.py: their timings, their queue, the keyboard, scripts,
and the loops that play a script or the keyboard into a running simulator.Simulator.

A press is the button down PRESS_MS then up GAP_MS, a hold keeps it down HOLD_MS; both are
worked out from firmware/drivers/buttons.py's own defaults, so the firmware sees each one whole.
"""

import ast
import collections
import os
import re
import time
from pathlib import Path

import layout

ROOT = Path(__file__).resolve().parents[1]


def _pad_defaults():
    """debounce_ms, long_ms, repeat_delay_ms as buttons.py's Pad has them (the board files take
    the defaults), read from its source: importing it would need the firmware's other modules
    on the path."""
    tree = ast.parse(layout.source("buttons").read_text())
    pad = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Pad")
    init = next(n for n in pad.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    args = init.args.args[-len(init.args.defaults) :]  # the last arguments have the defaults
    defaults = dict(zip([a.arg for a in args], init.args.defaults, strict=True))
    names = ("debounce_ms", "long_ms", "repeat_delay_ms")
    return tuple(ast.literal_eval(defaults[name]) for name in names)


DEBOUNCE_MS, LONG_MS, REPEAT_DELAY_MS = _pad_defaults()
POLL_MS = 10  # firmware/app.py App.poll_ms: the buttons are sampled every 10 ms while awake
# Down (or up) this long is seen as one whole press (release) by a debouncer that ignores the
# level for DEBOUNCE_MS after an edge and only samples every POLL_MS: one poll late, one spare.
PRESS_MS = GAP_MS = DEBOUNCE_MS + 2 * POLL_MS
# A hold outlasts the time the firmware acts on it (SELECT's LONG; PREV/NEXT's first REPEAT,
# which the game reads as their long press) by a poll or two and some spare.
HOLD_SPARE_MS = 50
ACTS_MS = dict(SELECT=LONG_MS, PREV=REPEAT_DELAY_MS, NEXT=REPEAT_DELAY_MS)
HOLD_MS = {button: ms + HOLD_SPARE_MS for button, ms in ACTS_MS.items()}
AHEAD = 2  # actions handed to the firmware side at once: the next starts without a round trip
KEY_QUEUE_MAX = 16  # keyboard actions waiting (about 1.6 s of presses); more are dropped, said
DROP_NOTE_S = 3  # the dropped-keys note stays this long after the last drop, queue drained
REPEAT_MAX = 1000  # script `xN`
WAIT_MAX_MS = 600000  # script `wait`
SCRIPT_MAX_ACTIONS = 10000
BOOT_TIMEOUT_S = 30  # a script gives up if the firmware shows nothing for this long

KEYS = {  # the bytes a key sends: (the button, held)
    **dict.fromkeys((b"\x1b[D", b"\x1b[A"), ("PREV", False)),  # left, up
    **dict.fromkeys((b"\x1b[C", b"\x1b[B"), ("NEXT", False)),  # right, down
    **dict.fromkeys((b" ", b"\r", b"\n"), ("SELECT", False)),
    b"h": ("SELECT", True),
    b"u": ("PREV", True),
    b"p": ("NEXT", True),
}


class Buttons:
    """The queue of button actions (a press, a hold, a wait) as simulator_mp's lines, handed to
    it strictly in order, at most AHEAD at a time; `screen` shows the note on dropped keys."""

    def __init__(self, screen):
        self.screen = screen
        self.queue = collections.deque()  # action lines not handed over yet
        self.in_flight = 0  # actions handed to simulator_mp, not yet reported done
        self.dropped = 0  # keys dropped since the last one taken (Screen.drop_note)
        self.dropped_at = None

    def press(self, button, hold=False):
        """Queue a press (or a hold) of button "PREV", "NEXT" or "SELECT"."""
        ms = HOLD_MS[button] if hold else PRESS_MS
        self.queue.append(b"%s %d %d\n" % (button.encode(), ms, GAP_MS))

    def wait(self, ms):
        """Queue a pause of ms after the actions before it have finished."""
        self.queue.append(b"WAIT %d 0\n" % ms)

    def pending(self):
        """Actions not finished yet (queued or under way)."""
        return len(self.queue) + self.in_flight

    def typed(self, button, hold):
        """A key typed: press()ed, but ignored while the screen cannot show the glass (see
        simview.KEYS_IGNORED) and dropped, counted in one note, while KEY_QUEUE_MAX wait."""
        if not self.screen.shows_glass():
            return
        if self.pending() >= KEY_QUEUE_MAX:
            self.dropped += 1
            self.dropped_at = time.monotonic()
            keys = "1 key" if self.dropped == 1 else "%d keys" % self.dropped
            note = "simulator: %s dropped: %d were already waiting" % (keys, KEY_QUEUE_MAX)
            self.screen.drop_note = note
            self.screen.refresh(force=True)
            return
        self.drops_over()  # room again: the note would be old news
        self.press(button, hold)

    def drops_over(self, now=None):
        """Clear the dropped-keys note: at once (a key was taken), or given `now`, once the
        queue has drained and DROP_NOTE_S have passed since the last drop."""
        if not self.dropped:
            return
        if now is not None and (self.pending() or now - self.dropped_at < DROP_NOTE_S):
            return
        self.dropped = 0
        self.screen.drop_note = None
        self.screen.refresh(force=True)

    def send(self, write):
        """Hand the next actions to the firmware side with write(line), AHEAD at most."""
        while self.queue and self.in_flight < AHEAD:
            write(self.queue.popleft())
            self.in_flight += 1

    def done(self):
        """The firmware side reported an action finished."""
        self.in_flight -= 1


SCRIPT_LINE = re.compile(r"(select|prev|next)(?: x(\d+))?|hold (select|prev|next)|wait (\d+)")
SCRIPT_HELP = (
    "a line is one of: select | prev | next [xN] (N 1..%d), hold select|prev|next, "
    "wait MS (0..%d), or a # comment" % (REPEAT_MAX, WAIT_MAX_MS)
)


def read_script(path):
    """[(button, False) press, (button, True) hold, (None, ms) wait] from a script file (see
    the module docstring); ValueError naming the file and line for anything else."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            "%s: not a text script (not UTF-8 at byte %d); %s" % (path, err.start, SCRIPT_HELP)
        ) from None
    steps = []
    for number, line in enumerate(text.splitlines(), 1):
        words = " ".join(line.split("#")[0].lower().split())
        if not words:
            continue
        where = "%s:%d: %r" % (path, number, line.strip())
        step = SCRIPT_LINE.fullmatch(words)
        if step is None:
            raise ValueError("%s: cannot read this; %s" % (where, SCRIPT_HELP))
        press, count, hold, wait = step.groups()
        if count is not None and not 1 <= int(count) <= REPEAT_MAX:
            raise ValueError("%s: repeat count must be 1..%d" % (where, REPEAT_MAX))
        if wait is not None and int(wait) > WAIT_MAX_MS:
            raise ValueError("%s: wait at most %d ms" % (where, WAIT_MAX_MS))
        if wait is not None:
            steps.append((None, int(wait)))
        elif hold is not None:
            steps.append((hold.upper(), True))
        else:
            steps += [(press.upper(), False)] * int(count or 1)
        if len(steps) > SCRIPT_MAX_ACTIONS:
            raise ValueError("%s: a script has at most %d actions" % (where, SCRIPT_MAX_ACTIONS))
    return steps


class Keyboard:
    """Raw keys in, Buttons.typed(); q asks to quit, Ctrl-C raises KeyboardInterrupt."""

    def __init__(self, buttons):
        self.buttons = buttons
        self.pending = b""
        self.quit = False

    def __call__(self, fd):
        self.feed(os.read(fd, 1024))

    def feed(self, data):
        """Bytes from the terminal; b"" is its end (as q)."""
        if not data:
            self.quit = True
        self.pending += data
        while self.pending:
            if self.pending[:1] == b"\x03":
                raise KeyboardInterrupt  # as the SIGINT it is in a cooked terminal
            if self.pending[:1] in (b"q", b"Q"):
                self.quit = True
                return
            for key, (button, hold) in KEYS.items():
                if self.pending.startswith(key):
                    self.pending = self.pending[len(key) :]
                    self.buttons.typed(button, hold)
                    break
            else:
                if self.pending in (b"\x1b", b"\x1b["):
                    break  # the rest of an arrow key is on its way
                self.pending = self.pending[1:]


# -- driving a running simulator.Simulator (its pump() waits on the firmware and the inputs) --


def run_script(sim, steps):
    """Run the steps from boot on, then let the last frames settle; False if the firmware
    stopped."""
    for button, arg in steps:
        if button is None:
            sim.buttons.wait(arg)
        else:
            sim.buttons.press(button, arg)
    while sim.buttons.pending() or not sim.ready:
        if not sim.ready and time.monotonic() - sim.started > BOOT_TIMEOUT_S:
            raise RuntimeError("the firmware showed nothing for %d s" % BOOT_TIMEOUT_S)
        if not sim.pump(0.5):
            return False
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        if not sim.pump(end - time.monotonic()):
            return False
    return True


def run_keyboard(sim, fd):
    """Play the keys typed on the terminal `fd` until q (or its end); False if the firmware
    stopped."""
    keyboard = Keyboard(sim.buttons)
    sim.inputs[fd] = keyboard
    while not keyboard.quit:
        if not sim.pump(1.0):
            return False
    return True
