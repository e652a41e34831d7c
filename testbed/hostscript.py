# A script played against the firmware a HostApp booted: its actions at their exact times.
# SPDX-License-Identifier: MIT
"""`Script(h, script)`: the generator script(h) of a HostApp's play(), whose actions (h.wait,
h.press, h.chord, h.until, h.power_cycle: tuples of steps; a bare int is a wait) are done at
their exact times of the fake clock, inside the firmware's sleeps (HostApp._listen calls due()).
The script's end, its exceptions and a power cut unwind the firmware as the exceptions below,
which the firmware must not catch (it catches Exception only)."""

import sys

import machine


class Done(BaseException):
    """The script finished: unwinds the firmware (which must not catch BaseException)."""


class PowerCycle(BaseException):
    """The script pulled the plug."""


class ScriptError(BaseException):
    """The script raised args[0]; carried through the firmware unharmed."""


class Script:
    def __init__(self, h, script):
        self.h = h
        self._gen = script(h)
        self._queue = []
        self.due_at = None  # when the next queued step is due (fake ms), None while none waits

    def due(self, target, light):
        """Run the steps that fall due before `target`, each at its own time; True if one
        fired a pin the port wakes on during a lightsleep (`light`): the sleep ends there
        (machine.lightsleep() dropped any wake from before it)."""
        clock = self.h.clock
        while self.due_at is not None and self.due_at <= target:
            clock.step_to(self.due_at)
            self.due_at = None
            self.step()
            if light and machine.take_wake():
                return True
        return False

    def step(self):
        # Do queued actions up to the next wait, resuming the script when the queue is empty.
        queue = self._queue
        while True:
            if not queue:
                try:
                    action = next(self._gen)
                except StopIteration:
                    raise Done()  # noqa: B904
                except Exception as err:
                    sys.print_exception(err)
                    raise ScriptError(err)  # noqa: B904
                if isinstance(action, int):
                    action = (("wait", action),)
                queue.extend(action)
                continue
            item = queue.pop(0)
            kind = item[0]
            if kind == "wait":
                self.due_at = self.h.clock.now + max(0, item[1])
                return
            if kind == "until":
                if not item[1]():
                    if self.h.clock.now >= item[2]:
                        late = "until(): still false after %d ms\n%s" % (item[4], self.h.screen())
                        raise ScriptError(AssertionError(late))
                    queue.insert(0, item)
                    self.due_at = self.h.clock.now + item[3]
                    return
            elif kind == "cycle":
                self.due_at = self.h.clock.now
                raise PowerCycle()
            elif kind in ("down", "up"):
                try:
                    (self.h.down if kind == "down" else self.h.up)(item[1])
                except ValueError as err:  # a button the board has not
                    raise ScriptError(err)  # noqa: B904
            else:
                raise ScriptError(ValueError("unknown action %r" % (item,)))
