# Each board file under the fake machine: the pins of the README wiring table, SPI settings,
# pull-ups, wake-up from light sleep, and a display that comes up clean.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import sys

import hostapp
import machine
import mptest
from buttons import NEXT, PREV, SELECT
from machine import Pin
from mptest import check

# The pins are the board files' own constants (test_wiring.py holds them equal to the README's
# wiring tables and the pictures); these checks hold what build() makes of them.
SPI_ID = {"pico": 0, "esp32": 2}
# Pins a board file must not use. Pico: GP23-25 and 29 are on-board (SMPS, VBUS, LED, VSYS/3);
# GP16 is SPI0 RX, claimed by the SPI. ESP32: strapping 0, 2, 5, 12, 15; flash 6-11; PSRAM
# 16, 17; 19 is VSPI MISO; 34-39 are inputs without pull-ups.
FORBIDDEN = {
    "pico": (16, 23, 24, 25, 29),
    "esp32": (0, 2, 5, 12, 15, 6, 7, 8, 9, 10, 11, 16, 17, 19, 34, 35, 36, 37, 38, 39),
}
# Hardware SPI pins (RP2040 datasheet GPIO function table: SPI0 SCK and TX).
PICO_SPI0 = {"sck": (2, 6, 18, 22), "tx": (3, 7, 19)}
ESP32_VSPI_IOMUX = {"sck": 18, "mosi": 23}  # the fast path, without the GPIO matrix


def build(name):
    h = hostapp.HostApp(name, flash=None)
    return h, h.board(), h.hardware(buzzer=True)


def key_pins(board):
    return {PREV: board.BTN_PREV, SELECT: board.BTN_SELECT, NEXT: board.BTN_NEXT}


def lcd_pins(board):
    return {
        "CLK": board.LCD_SCK,
        "DIN": board.LCD_MOSI,
        "CE": board.LCD_CS,
        "DC": board.LCD_DC,
        "RST": board.LCD_RST,
        "LIGHT": board.LCD_LIGHT,
    }


def check_board(name):
    h, board, hw = build(name)
    lcd, keys = lcd_pins(board), key_pins(board)
    check(hw.name == name and hw.doze is not None, name)
    # SPI: one bus, mode 0, at most the PCD8544's 4 Mbit/s, on the table's pins.
    check(len(machine.SPIS) == 1, "%d SPI buses" % len(machine.SPIS))
    spi = machine.SPIS[0]
    check(spi.id == SPI_ID[name] and spi.baudrate <= 4000000 and spi.baudrate >= 1000000)
    check(spi.polarity == 0 and spi.phase == 0)
    check(spi.sck.id == lcd["CLK"] and spi.mosi.id == lcd["DIN"])
    for role in ("CE", "DC", "RST", "LIGHT"):
        pin = machine.PINS[lcd[role]]
        check(pin.mode() == Pin.OUT, "%s %s is not an output" % (name, role))
    # Buttons: inputs with pull-ups, to ground (pressed = 0), in the pad under their names.
    names = {}
    for b in hw.pad.buttons:
        names[b.name] = b.pin.id
        check(
            b.pin.mode() == Pin.IN and b.pin.pull() == Pin.PULL_UP, "%s button %d" % (name, b.name)
        )
        check(b.pressed_level == 0)
    check(names == keys, "%s buttons %r" % (name, names))
    for b in keys:
        check(h.pin_of(b) == keys[b])
    used = list(lcd.values()) + list(keys.values())
    check(len(set(used)) == len(used), "%s uses a pin twice" % name)
    for pin in used:
        check(pin not in FORBIDDEN[name], "%s uses forbidden pin %d" % (name, pin))
    # The display came up: reset pulse, initialised, cleared, backlight off until settings.
    model = h.model
    check(model.resets == 1 and model.initialised and model.anomalies == [], model.state())
    check(model.unwritten == 0 and model.dark_pixels() == set(), "display not cleared")
    check(model.mode_name == "normal" and not model.powered_down and h.lit() is False)
    # The link cable: LINK_TX and LINK_RX (the README's and the wiring pictures' pins) are the
    # pins UART(LINK_UART) takes when given none, as the port sets them (the stand-in's model,
    # testbed/hostboard/machine_uart.py); free of the LCD's and the buttons' (on an ESP32 they
    # are 17 and 16, forbidden above for a WROVER's PSRAM: no link play there).
    uart = hw.link()
    opened = (uart.id, uart.tx, uart.rx, uart.baudrate)
    named = (board.LINK_UART, board.LINK_TX, board.LINK_RX, board.LINK_BAUD)
    check(opened == named, "%s link UART %r, the board file names %r" % (name, opened, named))
    check(board.LINK_TX not in used and board.LINK_RX not in used, "%s link pins" % name)
    return h, board, hw


def test_pico_wiring():
    h, board, hw = check_board("pico")
    spi = machine.SPIS[0]
    check(spi.sck.id in PICO_SPI0["sck"] and spi.mosi.id in PICO_SPI0["tx"])
    for pin in key_pins(board).values():  # rp2 wakes from lightsleep on an IRQ with a handler
        p = machine.PINS[pin]
        check(p._handler is not None and p._trigger & Pin.IRQ_FALLING, "GP%d not armed" % pin)


def test_esp32_wiring():
    h, board, hw = check_board("esp32")
    spi = machine.SPIS[0]
    check(spi.sck.id == ESP32_VSPI_IOMUX["sck"] and spi.mosi.id == ESP32_VSPI_IOMUX["mosi"])
    select = machine.PINS[board.BTN_SELECT]
    check(select.wake == machine.SLEEP and select._trigger == Pin.WAKE_LOW)


def test_the_board_files_hold_nothing_of_their_own_after_build():
    # startup.main() lets the board file's module go once build() has returned: that frees its
    # code only if nothing it built calls back into it (a function of the file keeps all of
    # its globals, build() included, alive through __globals__).
    for name in ("pico", "esp32"):
        h, board, hw = build(name)
        own = board.__dict__
        held = [("doze", hw.doze), ("wdt_off", hw.wdt_off)]
        held += [("irq of pin %s" % p.id, p._handler) for p in machine.PINS.values()]
        for what, obj in held:
            check(
                getattr(obj, "__globals__", None) is not own,
                "%s: %s is the board file's" % (name, what),
            )
        check(hw.wdt_off is not None and hw.doze is not None, "%s: doze and wdt_off" % name)


def test_esp32_doze_keeps_the_lcd_clock_at_4_mhz_and_hands_the_wake_pin_back_to_gpio():
    # ESP-IDF leaves the ext0 wake pin routed to the RTC after a light sleep; the board's doze
    # re-inits SELECT as a pulled-up input so it reads normally again.
    h, board, hw = build("esp32")
    spi = machine.SPIS[0]
    select = machine.PINS[board.BTN_SELECT]
    check(spi.wire_hz == 4000000 and spi.baudrate == 4000000, "boot: %d Hz" % spi.wire_hz)
    before = select.inits
    hw.doze(50)
    check(spi.wire_hz == 4000000, "after a doze: %d Hz" % spi.wire_hz)
    check(select.inits == before + 1, "SELECT not re-initialised after the doze")
    check(select.mode() == Pin.IN and select._pull == Pin.PULL_UP)


def test_esp32_select_held_ends_a_doze_at_once():
    # ext0 is a level wake: SELECT already held when the doze starts ends it at once. (Which
    # presses end a doze, on which board, and when: mp_power.py's
    # test_a_press_wakes_at_the_end_of_the_slice_esp32_select_at_once_and_only_wakes.)
    h, board, hw = build("esp32")
    machine.set_level(board.BTN_SELECT, 0)
    start = h.clock.now
    hw.doze(50)
    check(h.clock.now == start, "esp32 doze with SELECT held lasted %d ms" % (h.clock.now - start))


# -- the buzzer ------------------------------------------------------------------------------


def test_each_board_builds_its_buzzer_silent_on_a_free_pin():
    for name in ("pico", "esp32"):
        h, board, hw = build(name)
        used = list(lcd_pins(board).values()) + list(key_pins(board).values())
        check(board.BUZZER not in used and board.BUZZER not in FORBIDDEN[name], name)
        check(len(machine.PWMS) == 1, "%d PWMs" % len(machine.PWMS))
        pwm = machine.PWMS[0]
        check(pwm.pin.id == board.BUZZER and not pwm.sounding(), "%s: a tone at boot" % name)
        check(pwm.tones() == [] or pwm.tones()[-1][2] == 0, repr(pwm.tones()))
        # rp2's deinit() would halt the slice with the pin high or low; esp32's sets it low.
        check(hw.buzzer._deinit is (name == "esp32"), name)


def test_a_board_without_a_buzzer_builds_none_and_never_loads_sound_py():
    for name in ("pico", "esp32"):
        h = hostapp.HostApp(name, flash=None)
        sys.modules.pop("sound", None)
        hw = h.hardware()  # no buzzer: the board file's BUZZER = None
        check(hw.buzzer is None and machine.PWMS == [], name)
        check("sound" not in sys.modules, "%s loaded sound.py" % name)


mptest.run(globals())
