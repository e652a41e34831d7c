"""simulator_mp (the simulator's and the virtual board's MicroPython half) with nothing reading
its LCD, as the virtual board runs without $SIMLINK_OUT, under the MicroPython unix port."""

import interpreter
import mpcheck


class mp_simulator_mp(mpcheck.Script):
    """Its checks, each a pytest item, in the virtual board's heap (a Pico's)."""

    heapsize = interpreter.HEAPSIZE
    paths = (mpcheck.fixture("hostboard"),)
    args = (mpcheck.TMPDIR,)
