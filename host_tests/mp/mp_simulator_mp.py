# simulator_mp with nothing reading the LCD (the virtual board without $SIMLINK_OUT): it keeps a
# board's real time and, over a long run, none of what the fake SPI records.
# SPDX-License-Identifier: MIT
# In the virtual board's heap (testbed/interpreter.py HEAPSIZE, a Pico's), on a flash of its own:
# mpcheck: heapsize=240k paths={hostboard} args={tmp}
import gc
import os
import sys
import time  # the hostboard's: its RealClock reads the host's ticks through `time.utime`

import hostapp
import machine
import mptest
import simulator_mp  # start() runs at import: no $SIMLINK_OUT or $SIMLINK_IN here
import utime
from mptest import check

MINUTE = 60000


class Done(BaseException):
    """The stepped clock reached the end of the run (not an Exception: the game lets it by)."""


class Stepped:
    """The host's clock under simulator_mp.Clock, stepped: utime's tick functions, and the poll
    its sleeps wait in, which passes the time asked for at once. At each of `marks` (ms) the
    heap in use after a collection is noted, with the bytes the bus still holds."""

    ticks_add = staticmethod(utime.ticks_add)
    ticks_diff = staticmethod(utime.ticks_diff)

    def __init__(self, marks):
        self.now = 0
        self.marks = list(marks)
        self.seen = []  # (heap in use, bytes on the bus) at each mark

    def ticks_ms(self):
        return self.now

    def ticks_us(self):
        return self.now * 1000

    def poll(self, ms):
        self.now += ms
        while self.marks and self.now >= self.marks[0]:
            self.marks.pop(0)
            gc.collect()
            self.seen.append((gc.mem_alloc(), len(machine.BUS)))
            if not self.marks:
                raise Done


def test_the_game_runs_half_an_hour_without_a_reader_and_its_memory_stays_flat():
    clock = time.clock()
    check(isinstance(clock, simulator_mp.Clock), "not simulator_mp's real-time clock: %r" % clock)
    os.chdir(sys.argv[1])  # the board's flash: settings.json and the tally go there
    stepped = Stepped((MINUTE, 30 * MINUTE))
    simulator_mp.utime = time.utime = simulator_mp._idle = stepped
    hostapp.HostApp("pico", flash=None, clock=clock)  # as simulator_mp.boot() brings it up
    import startup

    try:
        startup.main()  # the title, the demo, dimming and sleep: every screen draws on the bus
    except Done:
        pass
    (early, _), (late, kept) = stepped.seen
    check(kept == 0, "the bus kept %d bytes that nobody reads" % kept)
    check(late - early < 1024, "the heap grew by %d bytes in 29 minutes" % (late - early))


mptest.run(globals())
