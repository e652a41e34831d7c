"""Benchmark the PCD8544 driver on the MicroPython unix port: bus traffic and show() time.

Run by `make bench` (or `.venv/bin/python bench/bench_lcd.py`). The driver is compiled by
mpy-cross as deployed; traffic is counted on the recording fake bus and decoded by the
controller model. Target per full frame: 504 data bytes + at most 3 command bytes, in at most
2 SPI writes, and no allocation.
"""

import sys

import benchkit
import pcd8544_model as pm
from benchkit import TESTBED
from fakebus import unhexlify

SHOWS = 2000

MP_SCRIPT = """
import gc, sys, time, micropython
import fakebus, pcd8544

def timed(lcd, n):
    gc.collect()
    before = micropython.mem_total()
    t0 = time.ticks_us()
    for _ in range(n):
        lcd.show()
    dt = time.ticks_diff(time.ticks_us(), t0)
    after = micropython.mem_total()
    return dt, after - before

n = int(sys.argv[1])
bus = fakebus.Bus(4096)
spi = fakebus.SPI(bus)
pins = [fakebus.Pin(bus, name, 1) for name in ("dc", "cs", "rst", "backlight")]
gc.collect()
free = gc.mem_free()
lcd = pcd8544.PCD8544(spi, *pins)
gc.collect()
print("RAM", free - gc.mem_free())
print("INIT", bus.spi_writes, bus.hexlify())
bus.clear()
writes = bus.spi_writes
lcd.text("bench", 0, 0, 1)
lcd.show()
print("SHOW", bus.spi_writes - writes, bus.hexlify())
bus.clear()
lcd.contrast(50)
print("CONTRAST", bus.hexlify())
bus.clear()
null = pcd8544.PCD8544(fakebus.SPI(), fakebus.Pin(), fakebus.Pin(), fakebus.Pin(), fakebus.Pin())
dt, alloc = timed(null, n)
print("TIME null", dt, alloc)
small = fakebus.Bus(4096)
rec = pcd8544.PCD8544(fakebus.SPI(small), fakebus.Pin(small, "dc"), fakebus.Pin(small, "cs"))
import pcd8544_model
model = pcd8544_model.Model().feed(small.preamble())
rec.show()
frame = small.take()


def show_clear():
    rec.show()
    small.clear()


# us for n calls of each (glass() for a tenth of them, times ten)
for name, fn, k in (("fakebus", show_clear, 1), ("feed", lambda: model.feed(frame), 1),
                    ("glass", model.glass, 10)):
    t0 = time.ticks_us()
    for _ in range(n // k):
        fn()
    print("TIME", name, time.ticks_diff(time.ticks_us(), t0) * k, 0)
"""


def traffic(model, raw):
    before = (model.commands, model.data_bytes)
    model.feed(raw)
    return model.commands - before[0], model.data_bytes - before[1]


def main():
    if benchkit.skipped("bench_lcd"):
        return 0
    with benchkit.workdir() as tmp:
        benchkit.firmware_mpy(tmp, "pcd8544", "valid")  # the driver checks with valid
        script = tmp / "bench_lcd_mp.py"
        script.write_text(MP_SCRIPT)
        output = benchkit.run_mp("bench_lcd", script, (SHOWS,), (tmp, TESTBED), "256k")
    lines = {}
    for line in output.splitlines():
        key, rest = line.split(" ", 1)
        lines.setdefault(key, []).append(rest.split())
    model = pm.Model()
    init_writes, init_hex = lines["INIT"][0]
    init_cmd, init_data = traffic(model, unhexlify(init_hex))
    show_writes, show_hex = lines["SHOW"][0]
    show_cmd, show_data = traffic(model, unhexlify(show_hex))
    contrast_cmd, _ = traffic(model, unhexlify(lines["CONTRAST"][0][0]))
    times = {kind: (int(dt), int(alloc)) for kind, dt, alloc in lines["TIME"]}
    ok = show_data == 504 and show_cmd <= 3 and int(show_writes) <= 2 and not model.anomalies

    rows = [
        ("show(): data bytes", show_data, "504"),
        ("show(): command bytes", show_cmd, "<= 3"),
        ("show(): SPI write() calls", show_writes, "<= 2"),
        ("show(): heap allocated (null bus)", "%d B" % (times["null"][1] // SHOWS), "0"),
        ("show(): time, null SPI/pins", "%.1f us" % (times["null"][0] / SHOWS), ""),
        ("show(): time, recording fake bus", "%.1f us" % (times["fakebus"][0] / SHOWS), ""),
        ("show(): wire time at 4 MHz (computed)", "%.2f ms" % ((show_cmd + 504) * 8 / 4e3), ""),
        ("model.feed(one show) on the unix port", "%.1f us" % (times["feed"][0] / SHOWS), ""),
        ("model.glass() on the unix port", "%.1f us" % (times["glass"][0] / SHOWS), ""),
        ("init: command / data bytes", "%d / %d" % (init_cmd, init_data), ""),
        ("init: SPI write() calls", init_writes, ""),
        ("contrast(): command bytes", contrast_cmd, ""),
        ("driver object RAM (incl. 504 B buffer)", "%s B" % lines["RAM"][0][0], ""),
    ]
    print("PCD8544 driver on the MicroPython unix port (%d shows timed)" % SHOWS)
    benchkit.header("measure", "value", "target")
    for name, value, target in rows:
        benchkit.row(name, value, target)
    print("target met" if ok else "TARGET MISSED", "; model anomalies:", model.anomalies or "none")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
