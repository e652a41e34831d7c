# ESP32 DevKitC: the Nokia 5110 LCD on VSPI (IO_MUX pins), three buttons to ground, a piezo.
# SPDX-License-Identifier: MIT
# GPIO numbers. Avoided: strapping pins 0, 2, 5, 12, 15; flash pins 6-11; 16/17 (PSRAM on
# WROVER); input-only 34-39 (no pull-ups). GPIO19 is VSPI MISO, claimed by the SPI but unused.
from hardware import Call, Doze, Hardware
from machine import PWM, SLEEP, SPI, UART, WDT, WDT_RESET, Pin, lightsleep, reset_cause
from pads import three_buttons
from pcd8544 import PCD8544

NAME = "esp32"
PORT = "esp32"  # the MicroPython port: picks the type-check stubs
SPI_ID = 2  # VSPI
SPI_HZ = 4000000  # the PCD8544's maximum (datasheet: 4.0 Mbit/s); 80 MHz / 20 exactly
LCD_SCK = 18  # VSPI CLK -> LCD CLK
LCD_MOSI = 23  # VSPI MOSI -> LCD DIN
LCD_CS = 22  # -> LCD CE (SCE)
LCD_DC = 21  # -> LCD DC
LCD_RST = 4  # -> LCD RST
LCD_LIGHT = 32  # -> LCD LIGHT (BL)
LIGHT_ON = 1  # pin level that lights the backlight; 0 for modules whose LIGHT pin sinks it
BTN_PREV = 25  # each button to GND, internal pull-up; all three are RTC GPIOs
BTN_SELECT = 26
BTN_NEXT = 27
# -> passive piezo, through ~100 ohm (None without one): on the header between LIGHT (32) and
# PREV (25). Not a strapping pin, an output (LEDC reaches any through the GPIO matrix), an
# input that nothing drives at boot (unlike 14, reported to pulse then): quiet.
BUZZER = 33
# Nothing deletes the task watchdog machine.WDT subscribes to (ports/esp32/machine_wdt.c); a
# new WDT() only sets its timeout. A day is as good as off for someone at the REPL.
WDT_OFF_MS = 24 * 3600 * 1000
# The link cable (link play): UART2 on its own pins, GPIO17 TX -> the other board's RX, GPIO16
# RX <- its TX, and GND to its GND (UART(2) takes 17/16 when given no pins, and reads without
# waiting, timeout 0: ports/esp32/machine_uart.c). These are the pins the rest of this file
# leaves alone for a WROVER module's PSRAM: on a WROVER board, no link play.
# UART0 is the REPL's. Opened only for link play.
LINK_UART = 2
LINK_BAUD = 115200
LINK_TX = 17  # UART2's own TX, named for the wiring pictures, not passed to UART()
LINK_RX = 16


def build():
    spi = SPI(SPI_ID, baudrate=SPI_HZ, polarity=0, phase=0, sck=Pin(LCD_SCK), mosi=Pin(LCD_MOSI))
    lcd = PCD8544(
        spi,
        Pin(LCD_DC, Pin.OUT, value=0),
        cs=Pin(LCD_CS, Pin.OUT, value=1),
        rst=Pin(LCD_RST, Pin.OUT, value=1),
        backlight=Pin(LCD_LIGHT, Pin.OUT, value=1 - LIGHT_ON),
        backlight_on=LIGHT_ON,
    )
    keys = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (BTN_PREV, BTN_NEXT, BTN_SELECT)]
    # The ESP32 wakes from light sleep on one pin level (ext0): SELECT. PREV and NEXT are seen
    # when the timer ends the doze (the app dozes in short slices).
    keys[2].irq(trigger=Pin.WAKE_LOW, wake=SLEEP)

    # The doze is lightsleep(ms), then SELECT's pin set up again. No SPI clock to restore,
    # unlike rp2: the divider ESP-IDF chose at SPI() divides the 80 MHz APB clock, and
    # esp_light_sleep_start() (sleep_modes.c) gives the CPU and APB their clocks back before it
    # returns, so SCK is 80 MHz / 20 = 4.000 MHz after it too. But ESP-IDF leaves an ext0 wake
    # pin routed to the RTC after waking; init() with a mode hands it back to the GPIO matrix
    # so SELECT reads normally again. (Objects from hardware.py, not functions of this file,
    # so that startup.main can let this file's code go once it is built.)
    doze = Doze(lightsleep, keys[2].init, Pin.IN, Pin.PULL_UP)

    buzzer = None
    if BUZZER is not None:  # only then is the sound code loaded
        from sound import Sound

        # duty_u16=0 matters: esp32's PWM() starts at once, at 50 % unless told (machine_pwm.c
        # PWM_DUTY). deinit (ledc_stop at idle level 0) takes the pin low at once, where duty 0
        # waits for the end of the period: Sound.stop() uses it, and init() starts it again.
        buzzer = Sound(PWM(Pin(BUZZER), freq=2000, duty_u16=0), deinit=True)
    pad = three_buttons(*keys)
    # A task watchdog panic restarts with ESP_RST_TASK_WDT, read as WDT_RESET; machine.reset()
    # reads HARD_RESET (ports/esp32/modmachine.c mp_machine_reset_cause()).
    bitten = reset_cause() == WDT_RESET
    wdt_off = Call(WDT, 0, WDT_OFF_MS)  # WDT(id, timeout): extmod/machine_wdt.c
    return Hardware(
        lcd,
        pad,
        doze=doze,
        name=NAME,
        buzzer=buzzer,
        wdt=WDT,
        wdt_off=wdt_off,
        wdt_reset=bitten,
        link=Call(UART, LINK_UART, LINK_BAUD),
    )
