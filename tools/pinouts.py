"""The pin headers of the boards the board files describe, as they sit on the board, and the
LCD module's, for the wiring pictures (tools/wiring.py draws what wiringsvg.py renders: both take
these from here, so neither imports the other).

Each board is seen from above, its USB end as the datasheet draws it, with two header columns;
each column lists its pins from the top down as (label printed beside it, GPIO number or None).
"""

from typing import NamedTuple


class Header(NamedTuple):
    title: str
    top: str  # what is at the top end of the drawing
    left: tuple  # ((label, gpio or None), ...) from the top down
    right: tuple
    left_numbers: tuple  # the physical pin number of each left pin, as printed in the docs
    right_numbers: tuple


def _gp(*gpios):
    return tuple(("GP%d" % n, n) for n in gpios)


# Raspberry Pi Pico datasheet, "Pinout" (section 1, figure 2): USB at the top, pin 1 (GP0) at
# the top left, pins 1-20 down the left side, 21-40 up the right side (pin 40, VBUS, top right).
PICO = Header(
    title="Raspberry Pi Pico",
    top="USB",
    left=_gp(0, 1) + (("GND", None),) + _gp(2, 3, 4, 5) + (("GND", None),) + _gp(6, 7, 8, 9)
    + (("GND", None),) + _gp(10, 11, 12, 13) + (("GND", None),) + _gp(14, 15),
    right=(("VBUS", None), ("VSYS", None), ("GND", None), ("3V3_EN", None), ("3V3(OUT)", None),
           ("ADC_VREF", None), ("GP28", 28), ("AGND", None), ("GP27", 27), ("GP26", 26),
           ("RUN", None)) + _gp(22) + (("GND", None),) + _gp(21, 20, 19, 18)
    + (("GND", None),) + _gp(17, 16),
    left_numbers=tuple(range(1, 21)),
    right_numbers=tuple(range(40, 20, -1)),
)  # fmt: skip

# ESP32-DevKitC V4 user guide (Espressif, "Header Block"): the antenna end at the top, J1 down
# the left side from 3V3, J3 down the right side from GND; the flash pins (SD0-SD3, CMD, CLK,
# GPIO6-11) at the USB end.
ESP32 = Header(
    title="ESP32-DevKitC",
    top="antenna",
    left=(("3V3", None), ("EN", None), ("VP", 36), ("VN", 39), ("IO34", 34), ("IO35", 35),
          ("IO32", 32), ("IO33", 33), ("IO25", 25), ("IO26", 26), ("IO27", 27), ("IO14", 14),
          ("IO12", 12), ("GND", None), ("IO13", 13), ("SD2", 9), ("SD3", 10), ("CMD", 11),
          ("5V", None)),
    right=(("GND", None), ("IO23", 23), ("IO22", 22), ("TXD0", 1), ("RXD0", 3), ("IO21", 21),
           ("GND", None), ("IO19", 19), ("IO18", 18), ("IO5", 5), ("IO17", 17), ("IO16", 16),
           ("IO4", 4), ("IO0", 0), ("IO2", 2), ("IO15", 15), ("SD1", 8), ("SD0", 7),
           ("CLK", 6)),
    left_numbers=tuple("J1-%d" % n for n in range(1, 20)),
    right_numbers=tuple("J3-%d" % n for n in range(1, 20)),
)  # fmt: skip

HEADERS = {"pico": PICO, "esp32": ESP32}
POWER_3V3 = ("3V3(OUT)", "3V3")  # the 3.3 V output pin's label on each board


class Pin(NamedTuple):
    side: str  # "left" or "right"
    row: int  # 0 at the top
    label: str
    number: object  # the physical pin: 24, or "J3-9"


def pins(header):
    """Every header pin as a Pin, the left column first."""
    found = []
    for side, column, numbers in (
        ("left", header.left, header.left_numbers),
        ("right", header.right, header.right_numbers),
    ):
        found += [Pin(side, row, label, numbers[row]) for row, (label, _) in enumerate(column)]
    return found


def gpio_pin(header, gpio):
    """The Pin where GPIO `gpio` comes out; ValueError if the header has none."""
    for pin, (_, n) in zip(pins(header), header.left + header.right, strict=True):
        if n == gpio:
            return pin
    raise ValueError("%s has no GPIO %s on its headers" % (header.title, gpio))


def labelled(header, labels):
    """The Pins whose label is one of `labels`."""
    return [pin for pin in pins(header) if pin.label in labels]


# -- the LCD module's header ----------------------------------------------------------------

GROUND = "GND"
POWER = "3V3"

# The common red breakout's header, in its printed order, with the names other breakouts print
# for the same pin: (label, the board file's constant or GROUND/POWER, other names).
LCD_TERMINALS = (
    ("RST", "LCD_RST", ""),
    ("CE", "LCD_CS", "SCE, CS"),
    ("DC", "LCD_DC", "D/C"),
    ("DIN", "LCD_MOSI", "DN, MOSI"),
    ("CLK", "LCD_SCK", "SCLK"),
    ("VCC", POWER, "3.3 V only"),
    ("LIGHT", "LCD_LIGHT", "BL, LED"),
    ("GND", GROUND, ""),
)
# The other common header (SparkFun LCD-10168 and the blue modules): (printed, red's label).
OTHER_LCD_ORDER = (
    ("VCC", "VCC"),
    ("GND", "GND"),
    ("SCE", "CE"),
    ("RST", "RST"),
    ("D/C", "DC"),
    ("DN (MOSI)", "DIN"),
    ("SCLK", "CLK"),
    ("LED", "LIGHT"),
)
