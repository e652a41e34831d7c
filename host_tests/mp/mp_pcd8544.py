# The PCD8544 driver on MicroPython itself: allocation, errors, optional pins; and scenes, each
# printing the bus recording after each step as "STEP <label> <hex>" so that
# host_tests/test_pcd8544.py replays it into the controller model (its class runs this script).
# Arguments: FRAMES (a file for test_scene_pixels), then the option sets of test_scene_init.
# SPDX-License-Identifier: MIT
import gc
import sys

import fakebus
import framebuf
import micropython
import pcd8544
import pcd8544_model
from mptest import check, run


def make(cs=True, rst=True, light=True, capacity=2048, **options):
    gc.collect()
    bus = fakebus.Bus(capacity)
    spi = fakebus.SPI(bus)
    dc = fakebus.Pin(bus, "dc", 0)
    cs = fakebus.Pin(bus, "cs", 1) if cs else None
    rst = fakebus.Pin(bus, "rst", 1) if rst else None
    light = fakebus.Pin(bus, "backlight", 0) if light else None
    lcd = pcd8544.PCD8544(spi, dc, cs, rst, light, **options)
    return bus, lcd


def raises_value_error(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except ValueError as exc:
        return str(exc)
    return None


def test_show_and_the_controls_allocate_nothing():
    bus, lcd = make()
    model = pcd8544_model.Model().feed(bus.take())
    lcd.fill(0)
    lcd.text("heap", 0, 0, 1)
    micropython.heap_lock()
    try:
        lcd.show()
        lcd.show()
        lcd.contrast(50)
        lcd.invert(True)
        lcd.invert(False)
        lcd.power_off()
        lcd.power_on()
        lcd.backlight(True)
        lcd.backlight(False)
    finally:
        micropython.heap_unlock()
    model.feed(bus.take())
    check(model.anomalies == [], repr(model.anomalies))
    check(model.vop == 50 and model.mode_name == "normal" and not model.powered_down)
    check(model.glass() == lcd.buffer, "the glass differs from the frame buffer")


def test_each_show_is_two_writes_of_506_bytes():
    bus, lcd = make()
    writes, sent = bus.spi_writes, bus.spi_bytes
    for _ in range(3):
        lcd.show()
    check(bus.spi_writes - writes == 6, "writes per show: %d" % ((bus.spi_writes - writes) / 3))
    check(bus.spi_bytes - sent == 3 * 506, "bytes per show: %d" % ((bus.spi_bytes - sent) / 3))


def test_contrast_outside_0_127_raises_and_sends_nothing():
    bus, lcd = make()
    bus.clear()
    for bad in (-1, 128, 255, 60.5, "60", None, True):
        message = raises_value_error(lcd.contrast, bad)
        check(message is not None, "contrast(%r) did not raise ValueError" % (bad,))
        check("0..127" in message, message)
    check(len(bus) == 0, "a rejected contrast reached the bus")
    lcd.contrast(0)
    lcd.contrast(127)


def test_constructor_validates_every_value():
    for name, bad in (("contrast", 128), ("contrast", -1), ("bias", 8), ("tc", 4), ("tc", -1)):
        kw = {name: bad}
        message = raises_value_error(make, **kw)
        check(message is not None and name in message, "%s=%r: %r" % (name, bad, message))


def test_works_without_cs_rst_and_backlight():
    bus, lcd = make(cs=False, rst=False, light=False)
    lcd.pixel(83, 47, 1)
    lcd.show()
    lcd.backlight(True)  # no pin: nothing happens
    lcd.backlight(False)
    check(bus.names == ["dc"], repr(bus.names))
    model = pcd8544_model.Model().feed(bus.take())
    check(model.anomalies == [], repr(model.anomalies))
    check(model.dark_pixels() == {(83, 47)}, repr(model.dark_pixels()))


def test_backlight_polarity():
    for on_level in (0, 1):
        bus, lcd = make(backlight_on=on_level)
        model = pcd8544_model.Model(light_on=on_level)
        lcd.backlight(True)
        check(model.feed(bus.take()).backlight is True)
        lcd.backlight(False)
        check(model.feed(bus.take()).backlight is False)


def test_is_an_84x48_framebuffer_with_one_504_byte_buffer():
    bus, lcd = make()
    check(isinstance(lcd, framebuf.FrameBuffer))
    check((lcd.width, lcd.height, len(lcd.buffer)) == (84, 48, 504))
    lcd.pixel(3, 9, 1)
    check(lcd.buffer[84 + 3] == 2, "not MONO_VLSB")


def test_init_again_restores_the_picture_after_power_loss():
    bus, lcd = make()
    lcd.text("ok", 0, 0, 1)
    lcd.show()
    head = bus.preamble()
    bus.clear()
    lcd.init()
    fresh = pcd8544_model.Model().feed(head)  # a controller that just got power again
    fresh.feed(bus.take())
    check(fresh.anomalies == [] and fresh.unwritten == 0, repr(fresh.anomalies))
    check(fresh.glass() == lcd.buffer, "the picture did not come back")


def test_init_after_power_off_leaves_the_display_on_through_contrast():
    # init() powers the controller up; a later contrast() (which sends function set with H=1
    # then H=0) must not bring back the power-down bit of the earlier power_off().
    bus, lcd = make()
    model = pcd8544_model.Model()
    lcd.text("on", 0, 0, 1)
    lcd.show()
    lcd.power_off()
    model.feed(bus.take())
    check(model.powered_down, "power_off() did not power down")
    lcd.init()
    lcd.contrast(50)
    model.feed(bus.take())
    check(not model.powered_down and model.vop == 50, model.state())
    check(model.glass() == lcd.buffer, "the picture is not on the glass")


def test_model_text_runs_here():
    bus, lcd = make()
    lcd.fill_rect(0, 0, 2, 3, 1)
    lcd.show()
    lines = pcd8544_model.Model().feed(bus.take()).text().split("\n")
    check(len(lines) == 24 and len(lines[0]) == 84)
    check(lines[0][:3] == "\u2588\u2588 " and lines[1][:3] == "\u2580\u2580 ", repr(lines[:2]))


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


run(globals())
