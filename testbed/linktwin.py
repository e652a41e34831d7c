# Two boards in a link game on the host, stepped together, with this process as their cable.
# SPDX-License-Identifier: MIT
"""`Twin(paths)` runs two testbed/linkboard_mp.py processes (two boards, each a HostApp under
the MicroPython unix port with its own flash and fake clock) and steps them together in
slices of STEP_MS, carrying what each board's UART wrote to the other board's after each
slice. `fault(end, data)` (end "a" or "b") may change the bytes on the way; `pulled` drops
them both ways. Buttons: press on board a or b; glass reads:
`ask(board, "eval ...")` or `read(board, expr)`.

    with Twin(paths) as t:
        t.run(500)
        t.press("a", "SELECT")
        assert t.read("b", "h.cell(4)") == "X"
"""

import binascii
import subprocess
from pathlib import Path

import mpyrun

STEP_MS = 10  # a slice: bytes cross the cable at its end, as a board polls its UART every 10 ms
PRESS_MS = 80
GAP_MS = 80
_SCRIPT = Path(__file__).with_name("linkboard_mp.py")


class Twin:
    def __init__(self, paths, boards=("pico", "pico"), fault=None, heapsize="512k"):
        self.fault = fault
        self.pulled = False
        self.now = 0
        self.procs = {}
        self._paths = paths
        self._heapsize = heapsize
        self._boards = dict(zip("ab", boards, strict=True))
        for name in "ab":
            self.power_on(name)

    def power_on(self, name):
        """Board `name` starts (again: a reset; its flash starts empty), its clock at the
        coordinator's (board b 3 ms on: two boards never share a clock)."""
        old = self.procs.get(name)
        if old is not None:
            old.kill()
            old.wait()
        start_ms = self.now + (3 if name == "b" else 0)
        cmd, env = mpyrun.command(
            [_SCRIPT, self._boards[name], start_ms], self._paths, self._heapsize
        )
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=env, bufsize=1,
        )  # fmt: skip
        self.procs[name] = proc
        first = proc.stdout.readline()
        if first.strip() != "ready":
            self.close()
            raise RuntimeError("board %s did not start: %s%s" % (name, first, _rest(proc)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.stdin.close()
                proc.wait(timeout=10)

    def ask(self, name, line):
        """Send board `name` one command (linkboard_mp.py); its answer, "error ..." raised."""
        proc = self.procs[name]
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        answer = proc.stdout.readline().rstrip("\n")
        if not answer or answer.startswith("error"):
            raise AssertionError("board %s, %r: %s%s" % (name, line, answer, _rest(proc)))
        return answer

    def read(self, name, expr):
        """repr() of `expr` on board `name` (h is its HostApp), evaluated back into a value."""
        return eval(self.ask(name, "eval " + expr))  # noqa: S307 - our own test bed's repr

    def run(self, ms):
        """Both boards on for ms, the cable carrying bytes at the end of each slice."""
        for _ in range(max(1, ms // STEP_MS)):
            self.now += STEP_MS
            sent = {}
            for name in "ab":
                sent[name] = binascii.unhexlify(self.ask(name, "run %d" % STEP_MS)[3:])
            for name, other in (("a", "b"), ("b", "a")):
                data = sent[name]
                if data and self.fault is not None:
                    data = self.fault(name, data)
                if data and not self.pulled:
                    self.ask(other, "feed " + data.hex())

    def press(self, name, *buttons, ms=PRESS_MS, gap=GAP_MS):
        """Press each of `buttons` on board `name` in turn, for `ms` (a hold: 700), `gap` apart."""
        for button in buttons:
            self.ask(name, "down " + button)
            self.run(ms)
            self.ask(name, "up " + button)
            self.run(gap)


def _rest(proc):
    # What a board that stopped answering printed last (its traceback).
    if proc.poll() is None:
        return ""
    return "\n" + proc.stdout.read()
