# A board file with a five-way pad (no board of the project has one yet), for the checks of that
# layout: the Pico's LCD wiring, five buttons to ground, no buzzer.
# SPDX-License-Identifier: MIT
from hardware import Hardware
from machine import SPI, Pin
from pads import five_way
from pcd8544 import PCD8544

NAME = "fiveway"
LCD_CS = 17
LCD_DC = 20
LCD_RST = 21
LCD_LIGHT = 22
BTN_UP = 2
BTN_DOWN = 3
BTN_LEFT = 4
BTN_RIGHT = 5
BTN_SELECT = 6
CHORDS = ()  # the pad's chords (buttons.chord_id): a check sets them before the build


def build():
    spi = SPI(0, baudrate=4000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
    lcd = PCD8544(
        spi,
        Pin(LCD_DC, Pin.OUT, value=0),
        cs=Pin(LCD_CS, Pin.OUT, value=1),
        rst=Pin(LCD_RST, Pin.OUT, value=1),
        backlight=Pin(LCD_LIGHT, Pin.OUT, value=0),
    )
    keys = [
        Pin(n, Pin.IN, Pin.PULL_UP) for n in (BTN_UP, BTN_DOWN, BTN_LEFT, BTN_RIGHT, BTN_SELECT)
    ]
    return Hardware(lcd, five_way(*keys, chords=CHORDS), name=NAME)
