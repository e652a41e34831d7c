"""Two emulated Picos (testbed/picolab.py) joined by a link cable, UART0 to UART0 (GP0 TX to the
other's GP1 RX, both ways), stepped together with this process as the cable.

    pair = Pair(picolab.Board(firmware, fs=fs), picolab.Board(firmware, fs=fs))
    pair.run(500)                      # both boards, simulated ms
    a = pair.side("a")                 # board a as picoplay plays a board: run() steps both
    picoplay.play_cell(a, 4)
    pair.pulled = True                 # the cable out: what either sends is lost
    pair.close()                       # or: with Pair(...) as pair:

Both labs run each slice at once (one on each core), then the bytes each board's UART0 sent
in it go to the other's RX, where they arrive at the line's rate (testbed/rp2040/lab.mjs). A
byte thus reaches the other board up to one slice later than a wire would bring it. Why 2 ms:
well under the game's 10 ms poll of its UART (app.App.poll_ms), so a message is read at the
poll a wire would give or the next, and the link's timers (250 ms retries, 2 s to NO LINK)
never see the difference; each slice costs a round trip to both labs (docs/benchmarks.md), so
only bench/bench_link.py takes slices of a character's time (87 us at 115200 baud).
"""

SLICE_MS = 2.0


class Pair:
    def __init__(self, a, b, slice_ms=SLICE_MS):
        self.boards = {"a": a, "b": b}
        self.slice_ms = slice_ms
        self.pulled = False  # the cable out: bytes sent either way are lost
        self.traffic = {"a": [], "b": []}  # (ns on its clock, byte) each sent, pulled or not

    def close(self):
        for board in self.boards.values():
            board.close()

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()

    def run(self, ms):
        """Both boards on for `ms` (as board a counts it), the cable carrying each slice's
        bytes at its end."""
        a, b = self.boards["a"], self.boards["b"]
        end = a.t + ms
        while a.t < end - 1e-6:
            step = min(self.slice_ms, end - a.t)
            a.run_begin(step)
            b.run_begin(step)
            a.run_end()
            b.run_end()
            for name, here, there in (("a", a, b), ("b", b, a)):
                sent = here.link_take()
                self.traffic[name].extend(sent)
                if sent and not self.pulled:
                    # onto the receiver's clock: a board that ran alone (at its REPL) is ahead
                    shift = (there.t - here.t) * 1e6
                    there.link_feed([(ns + shift, value) for ns, value in sent])

    def pin(self, name, button, level):
        self.boards[name].pin(button, level)

    def press(self, name, button, ms=100, after=150):
        """Press a button on board `name` for `ms`, release it, and let `after` ms pass."""
        self.pin(name, button, 0)
        self.run(ms)
        self.pin(name, button, 1)
        self.run(after)

    def side(self, name):
        return Side(self, name)


class Side:
    """One board of a pair as testbed/picoplay.py plays a board (frames, t, run, press), with
    the other board stepped alongside."""

    def __init__(self, pair, name):
        self.pair = pair
        self.name = name
        self.board = pair.boards[name]

    @property
    def frames(self):
        return self.board.frames

    @property
    def t(self):
        return self.board.t

    def run(self, ms):
        self.pair.run(ms)

    def press(self, button, ms=100, after=150):
        self.pair.press(self.name, button, ms, after)
