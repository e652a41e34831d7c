"""Two emulated Picos (testbed/picolab.py) joined by a link cable, UART0 to UART0 (GP0 TX to the
other's GP1 RX, both ways), stepped together with this process as the cable.

    pair = Pair(picolab.boot("stock"), picolab.boot("stock"))
    a = pair.boards["a"]
    a.run(500)                         # either board's run() runs both, simulated ms
    picoplay.play_cell(a, 4)
    pair.pulled = True                 # the cable out: what either sends is lost
    pair.close()                       # or: with Pair(...) as pair:

Both labs run each slice at once (one on each core), then the bytes each board's UART0 sent
in it go to the other's RX, where they arrive at the line's rate (testbed/rp2040/lab.mjs): up
to a slice later than a wire would bring them. 2 ms is well under the game's 10 ms poll of its
UART (app.App.poll_ms) and the link's timers; each slice costs a round trip to both labs, so
only bench/bench_link.py takes slices of a character's time (docs/benchmarks.md).
"""

SLICE_MS = 2.0


class Pair:
    def __init__(self, a, b, slice_ms=SLICE_MS):
        self.boards = {"a": a, "b": b}
        a.cable = b.cable = self
        self.slice_ms = slice_ms
        self.pulled = False  # the cable out: bytes sent either way are lost
        self.traffic = {"a": [], "b": []}  # (ms on its clock, byte) each sent, pulled or not

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
                    shift = there.t - here.t
                    there.link_feed([(t + shift, value) for t, value in sent])
