# The fake bus and the PCD8544 model under MicroPython: recording allocates nothing, a long run
# keeps memory flat. Their behaviour: test_fakebus.py, test_pcd8544_model.py (CPython); the model
# reading the driver under MicroPython: mp_pcd8544.py.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=64k
import gc

import fakebus
import micropython
import pcd8544_model
from mptest import check, run


def rig():
    bus = fakebus.Bus(1024)
    pins = (fakebus.Pin(bus, "dc", 0), fakebus.Pin(bus, "cs", 1), fakebus.Pin(bus, "rst", 1))
    return bus, fakebus.SPI(bus), pins


def start(spi, pins):
    dc, cs, rst = pins
    rst(0)
    rst(1)
    cs(0)
    spi.write(b"\x21\xbc\x04\x14\x20\x0c\x80\x40")
    dc(1)
    spi.write(bytes(504))
    dc(0)
    cs(1)


def test_recording_allocates_nothing_while_it_fits():
    bus, spi, (dc, cs, rst) = rig()
    frame = bytearray(504)
    micropython.heap_lock()
    try:
        cs(0)
        dc(1)
        spi.write(frame)
        dc.off()
        cs.on()
    finally:
        micropython.heap_unlock()
    check(bus.spi_writes == 1 and bus.spi_bytes == 504)
    declarations = 5 + 5 + 6 + 3 * 2  # names and start levels of dc, cs, rst
    check(len(bus) == declarations + 4 * 2 + 3 + 504, "recording is %d bytes" % len(bus))


def test_stand_ins_without_a_bus_allocate_nothing():
    # What the fuzz, the soak and the benchmarks drive the real driver and Pad with.
    out, button, spi = fakebus.Pin(), fakebus.Pin(value=1), fakebus.SPI(hz=4000000)
    frame = bytearray(504)
    micropython.heap_lock()
    try:
        out(1)
        out.toggle()
        button.level = 0
        pressed = button.value()
        spi.write(frame)
    finally:
        micropython.heap_unlock()
    check(out.value() == 0 and pressed == 0)


def test_long_run_fed_and_cleared_keeps_memory_flat():
    bus, spi, pins = rig()
    start(spi, pins)
    model = pcd8544_model.Model()
    model.feed(bus.data)
    bus.clear()
    dc, cs, rst = pins
    cs(0)
    chunk = bytearray(32)
    free = None
    for i in range(3000):
        dc(i & 1)
        spi.write(b"\x80\x40" if not i & 1 else chunk)
        model.feed(bus.data)
        bus.clear()
        if i == 500:
            gc.collect()
            free = gc.mem_free()
    gc.collect()
    check(gc.mem_free() >= free - 256, "memory grew: %d -> %d" % (free, gc.mem_free()))
    check(model.data_bytes == 504 + 1500 * 32, repr(model.data_bytes))
    check(model.commands == 8 + 1500 * 2, repr(model.commands))
    check(model.anomalies == [], repr(model.anomalies))


run(globals())
