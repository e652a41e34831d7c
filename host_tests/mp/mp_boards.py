# Each board file under the fake machine: the pins of the README wiring table, SPI settings,
# pull-ups, wake-up from light sleep, and a display that comes up clean.
# SPDX-License-Identifier: MIT
# mpcheck: heapsize=512k paths={hostboard}
import sys
import time

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
    check(spi.polarity == 0 and spi.phase == 0 and spi.bits == 8 and spi.firstbit == 0)
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


def test_rp2_model_matches_the_measured_spi_clocks():
    # Issue 9, measured on a Pico with MicroPython 1.28: 4.000 MHz at boot; 10.42 MHz after a
    # lightsleep while print(spi) still says 4000000; spi.init(baudrate=4000000) after waking
    # gives 3.906 MHz; machine.freq(125000000) and then spi.init gives 4.000 MHz.
    machine.reset_state()
    machine.use_port("rp2")
    spi = machine.SPI(0, baudrate=4000000, sck=Pin(18), mosi=Pin(19))
    check(spi.wire_hz == 4000000 and machine.freq() == 125000000, repr(spi.wire_hz))
    machine.lightsleep(50)
    check(spi.wire_hz == 10416666 and spi.baudrate == 4000000, repr(spi.wire_hz))
    spi.init(baudrate=4000000)
    check(spi.wire_hz == 3906250 and spi.baudrate == 3906250, repr(spi.wire_hz))
    machine.freq(125000000)
    spi.init(baudrate=4000000)
    check(spi.wire_hz == 4000000, repr(spi.wire_hz))
    machine.lightsleep(1)  # "too small": a plain delay, the clocks stay
    check(spi.wire_hz == 4000000, repr(spi.wire_hz))
    machine.freq(125000000, 125000000)  # clk_peri on clk_sys, as a lightsleep leaves it
    check(machine.port().clk_peri == 125000000 and spi.wire_hz == 10416666)
    for bad in ((123456789,), (125000000, 100000000)):
        try:
            machine.freq(*bad)
        except ValueError:
            continue
        raise AssertionError("freq%r accepted" % (bad,))


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
    # The model follows ESP-IDF's nearest divider of 80 MHz, which may round up:
    # 7 MHz -> 80 / 11 = 7.27 MHz (a board asking for a rate that is not a divisor beware).
    spi.init(baudrate=7000000)
    check(spi.wire_hz == 7272727, repr(spi.wire_hz))


def doze_after(name, button, press_at=1000, doze_ms=5000):
    """How long hw.doze(doze_ms) lasts when `button` goes down press_at ms into it."""
    out = {}

    def boot():
        hw = sys.modules["board"].build()
        start = time.clock().now
        hw.doze(doze_ms)
        out["slept"] = time.clock().now - start

    def script(h):
        yield h.wait(5)  # past the LCD reset pulse, into the doze
        yield h.wait(press_at - 5)
        h.down(button)
        yield h.wait(doze_ms + 1000)

    h = hostapp.HostApp(name, flash=None)
    h.play(script, boot=boot)
    return out["slept"]


def test_a_press_ends_a_doze_only_on_the_esp32_and_only_select():
    # rp2's light sleep gates the GPIO block's clock: a press does not end the doze (the app
    # reads the buttons when it ends; the IRQ handler still runs, at the edge). An ESP32's
    # SELECT is its ext0 wake pin; the other buttons wait for the timer.
    for name in ("pico", "esp32"):
        for b in (PREV, NEXT, SELECT):
            slept = doze_after(name, b)
            wakes = name == "esp32" and b == SELECT
            check(
                995 <= slept <= 1000 if wakes else slept == 5000,
                "%s: the doze ended at %d ms on button %d pressed at 1000" % (name, slept, b),
            )
    # ext0 is a level wake: SELECT already held when the doze starts ends it at once.
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


def test_rp2_pwm_model():
    machine.reset_state()
    machine.use_port("rp2")
    clock = time.clock()
    t0 = time.ticks_ms()
    pwm = machine.PWM(Pin(12))
    check(not pwm.running and pwm.freq() == 0, "PWM(pin) alone: no frequency, stopped")
    pwm.freq(2000)
    check(not pwm.running, "a frequency without a duty: not started (machine_pwm_start)")
    pwm.duty_u16(32768)
    check(pwm.sounding() and pwm.freq() == 2000, "started once both are set")
    for hz in (1319, 2093, 2637, 3136, 4186):  # TOP = round(125 MHz / hz) - 1 reads back hz
        pwm.freq(hz)
        check(pwm.freq() == hz, "%d -> %d" % (hz, pwm.freq()))
    pwm.freq(8)  # the divider: 125 MHz / (255.x x 65535) is about 7.5 Hz
    check(pwm.freq() == 8, repr(pwm.freq()))
    for bad, text in ((7, "freq too small"), (0, "divide by zero")):
        try:
            pwm.freq(bad)
        except ValueError as err:
            check(text in str(err), str(err))
            continue
        raise AssertionError("freq(%d) accepted" % bad)
    pwm.freq(2000)
    clock.sleep_ms(10)
    pwm.deinit()
    check(not pwm.running and pwm.freq() == 2000, "deinit halts the slice, keeps the divider")
    clock.sleep_ms(10)
    pwm.duty_u16(32768)
    check(pwm.sounding(), "the next duty_u16 starts the slice again")
    pwm.duty_u16(70000)
    check(pwm.duty_u16() == 65535 and not pwm.sounding(), "capped: high all the time, no tone")
    pwm.duty_u16(0)
    check(pwm.running and not pwm.sounding(), "duty 0: running, the pin low")
    machine.freq(100000000)  # clk_sys 100 MHz: the slice divides the new clock
    check(pwm.freq() == 1600, "freq() follows clk_sys: %d" % pwm.freq())
    t = [(ms - t0, hz, duty) for ms, hz, duty in pwm.tones()]
    check(t[:2] == [(0, 2000, 0), (0, 2000, 32768)], "silent until the duty: %r" % t)
    check(t[-5:-2] == [(0, 2000, 32768), (10, 2000, 0), (20, 2000, 32768)], repr(t))


def test_esp32_pwm_model():
    machine.reset_state()
    machine.use_port("esp32")
    pwm = machine.PWM(Pin(33))
    check(pwm.sounding() and pwm.freq() == 5000 and pwm.duty_u16() == 32768, "5 kHz, 50 %")
    quiet = machine.PWM(Pin(13), freq=2000, duty_u16=0)
    check(quiet.running and not quiet.sounding(), "duty_u16=0: silent")
    check(quiet.tones()[0][1:] == (2000, 0), repr(quiet.tones()))
    for call, arg, text in (
        (quiet.freq, 0, "from 1Hz to 40MHz"),
        (quiet.freq, 40000001, "from 1Hz to 40MHz"),
        (quiet.duty_u16, 65536, "from 0 to 65536"),
    ):
        try:
            call(arg)
        except ValueError as err:
            check(text in str(err), str(err))
            continue
        raise AssertionError("%r accepted" % arg)
    quiet.freq(2637)
    quiet.duty_u16(32768)
    check(quiet.sounding() and quiet.freq() == 2637)
    quiet.deinit()
    check(not quiet.running and not quiet.active, "deinit: stopped at idle level 0")
    for call in (quiet.freq, quiet.duty_u16):
        try:
            call(1000)
        except RuntimeError as err:
            check(str(err) == "PWM is inactive", str(err))
            continue
        raise AssertionError("a deinit() PWM accepted a call")
    quiet.init()
    check(quiet.sounding() and quiet.freq() == 5000, "init() alone: the defaults again")
    quiet.deinit()
    quiet.init(freq=3136, duty_u16=32768)
    check(quiet.sounding() and quiet.freq() == 3136)
    check([(f, d) for _, f, d in quiet.tones()][2:5] == [(2637, 32768), (0, 0), (5000, 32768)])


def test_pwm_recording_allocates_nothing():
    import micropython

    machine.reset_state()
    machine.use_port("rp2")
    pwm = machine.PWM(Pin(12), freq=1999, duty_u16=0, capacity=256)
    micropython.heap_lock()
    try:
        for k in range(150):  # 300 changes, more than it keeps: the oldest are dropped
            pwm.freq(2000 + k)
            pwm.duty_u16(32768 if k & 1 else 0)
    finally:
        micropython.heap_unlock()
    check(pwm.changes == 300 and pwm.started == 75, "%d %d" % (pwm.changes, pwm.started))
    kept = pwm.tones()
    check(len(kept) == 256 and pwm.last() == kept[-1] and kept[-1][1:] == (2149, 32768))
    check(kept[0][1:] == (2022, 32768), repr(kept[0]))


mptest.run(globals())
