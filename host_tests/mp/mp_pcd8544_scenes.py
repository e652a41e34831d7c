# Drive the PCD8544 driver through scenes, one check each; print the bus recording after each
# step as "STEP <label> <hex>" so host_tests/test_pcd8544.py replays it into the controller model.
# Arguments: FRAMES (a file for test_scene_pixels), then the option sets of test_scene_init.
# SPDX-License-Identifier: MIT
import sys

import fakebus
import mptest
import pcd8544


def make(cs=True, rst=True, light=True, **options):
    bus = fakebus.Bus(2048)
    spi = fakebus.SPI(bus)
    dc = fakebus.Pin(bus, "dc", 0)
    cs = fakebus.Pin(bus, "cs", 1) if cs else None
    rst = fakebus.Pin(bus, "rst", 1) if rst else None
    light = fakebus.Pin(bus, "backlight", 0) if light else None
    return bus, pcd8544.PCD8544(spi, dc, cs, rst, light, **options)


def step(bus, label):
    print("STEP", label, bus.hexlify())
    bus.clear()


def test_scene_init():
    # Each option set (an argument from the second on): "cs=0 rst=0 light=0 contrast=45 bias=3
    # tc=2" or any subset; the step is labelled "init" and the option set.
    for options in sys.argv[2:]:
        kw = {}
        pins = {}
        for item in options.split():
            key, value = item.split("=")
            (pins if key in ("cs", "rst", "light") else kw)[key] = int(value)
        bus, lcd = make(**pins, **kw)
        step(bus, ("init " + options).strip())


def test_scene_pixels():
    # The file FRAMES (the first argument): one frame per line, each pixel as 4 hex digits
    # "xxyy"; each frame is drawn on a cleared buffer and shown
    bus, lcd = make(cs=False)
    step(bus, "init")
    with open(sys.argv[1]) as frames:
        for line in frames:
            lcd.fill(0)
            for i in range(0, len(line) - 3, 4):
                lcd.pixel(int(line[i : i + 2], 16), int(line[i + 2 : i + 4], 16), 1)
            lcd.show()
            step(bus, "frame")


def test_scene_modes():
    bus, lcd = make()
    lcd.fill_rect(0, 0, 42, 48, 1)
    lcd.show()
    step(bus, "picture")
    lcd.invert(True)
    step(bus, "inverse")
    lcd.invert(False)
    step(bus, "normal")
    lcd.power_off()
    step(bus, "off")
    lcd.contrast(33)
    step(bus, "contrast while off")
    lcd.power_on()
    step(bus, "on")
    lcd.contrast(70)
    lcd.fill(0)
    lcd.pixel(10, 10, 1)
    lcd.show()
    step(bus, "contrast then show")


def test_scene_golden():
    bus, lcd = make()
    lcd.rect(0, 0, 84, 48, 1)
    lcd.text("oxo5110", 14, 4, 1)
    lcd.hline(2, 14, 80, 1)
    for i in range(3):
        lcd.rect(14 + 20 * i, 18, 16, 16, 1)
    lcd.fill_rect(38, 22, 8, 8, 1)
    lcd.line(18, 22, 26, 30, 1)
    lcd.line(26, 22, 18, 30, 1)
    for x, y in ((1, 1), (82, 1), (1, 46), (82, 46), (4, 40), (79, 40)):
        lcd.pixel(x, y, 1)
    lcd.text("X:1 O:0", 14, 37, 1)
    lcd.show()
    step(bus, "frame")


mptest.run(globals())
