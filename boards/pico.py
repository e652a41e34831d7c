# Raspberry Pi Pico (RP2040): the Nokia 5110 LCD on SPI0, three buttons to ground, a piezo.
# SPDX-License-Identifier: MIT
# Pin numbers are GPxx numbers (physical pin in the comment). GP16 is SPI0 RX, claimed by the
# SPI but unused (the LCD only listens): leave it free.
from hardware import Call, Doze, Hardware, Poke, wake
from machine import PWM, SPI, UART, WDT, WDT_RESET, Pin, freq, lightsleep, mem32, reset_cause
from pads import three_buttons
from pcd8544 import PCD8544

NAME = "pico"
PORT = "rp2"  # the MicroPython port: picks the type-check stubs
SPI_ID = 0
SPI_HZ = 4000000  # the PCD8544's maximum (datasheet: 4.0 Mbit/s); the RP2040 rounds down
LCD_SCK = 18  # pin 24, SPI0 SCK -> LCD CLK
LCD_MOSI = 19  # pin 25, SPI0 TX -> LCD DIN
LCD_CS = 17  # pin 22 -> LCD CE (SCE)
LCD_DC = 20  # pin 26 -> LCD DC
LCD_RST = 21  # pin 27 -> LCD RST
LCD_LIGHT = 22  # pin 29 -> LCD LIGHT (BL)
LIGHT_ON = 1  # pin level that lights the backlight; 0 for modules whose LIGHT pin sinks it
BTN_PREV = 13  # pin 17; each button to GND (pin 18), internal pull-up
BTN_SELECT = 14  # pin 19
BTN_NEXT = 15  # pin 20
# GP12 (physical pin 16), beside the buttons and their GND (pin 18) -> passive piezo, through
# ~100 ohm; None without one. Any RP2040 GPIO can be a PWM output (this is slice 6, channel A;
# nothing else uses slice 6 as PWM); none is a strapping pin, and all come up as inputs with
# pull-downs: quiet.
BUZZER = 12
# The link cable (link play): UART0 on its own pins, GP0 TX (pin 1) -> the other board's RX,
# GP1 RX (pin 2) <- its TX, and GND (pin 3) to its GND. No other use of them here (the REPL is
# on USB). Opened only for link play: UART(0) takes GP0/GP1 when given no pins
# (ports/rp2/machine_uart.c, MICROPY_HW_UART0_TX/RX), and reads without waiting (timeout 0).
LINK_UART = 0
LINK_BAUD = 115200
LINK_TX = 0  # pin 1: UART0's own TX, named for the wiring pictures, not passed to UART()
LINK_RX = 1  # pin 2
# The watchdog's registers (RP2040 datasheet 4.7; pico-sdk hardware/watchdog.c): machine.WDT
# has no way to stop it, and it goes on over Ctrl-C and a soft reset.
WATCHDOG_CTRL_CLR = 0x4005B000  # CTRL (0x40058000) through the atomic clear alias (+0x3000)
WATCHDOG_ENABLE = 1 << 30  # CTRL.ENABLE
WATCHDOG_SCRATCH4 = 0x4005801C  # WDT() (watchdog_enable) writes NON_REBOOT_MAGIC here,
WATCHDOG_NON_REBOOT_MAGIC = 0x6AB73121  # machine.reset() (watchdog_reboot) writes 0


def build():
    # On the RP2040 machine.reset() is a reboot by the watchdog too (ports/rp2/modmachine.c):
    # reset_cause() reads WDT_RESET after either; scratch[4] says which (pico-sdk
    # watchdog_enable_caused_reboot()).
    bitten = reset_cause() == WDT_RESET and mem32[WATCHDOG_SCRATCH4] == WATCHDOG_NON_REBOOT_MAGIC
    # The SPI divides clk_peri, which boot (main.c's set_sys_clock_khz) put on the 48 MHz USB
    # PLL: 4 MHz = 48 MHz / 12. The divider is chosen here, once.
    sys_hz = freq()
    spi = SPI(SPI_ID, baudrate=SPI_HZ, polarity=0, phase=0, sck=Pin(LCD_SCK), mosi=Pin(LCD_MOSI))
    lcd = PCD8544(
        spi,
        Pin(LCD_DC, Pin.OUT, value=0),
        cs=Pin(LCD_CS, Pin.OUT, value=1),
        rst=Pin(LCD_RST, Pin.OUT, value=1),
        backlight=Pin(LCD_LIGHT, Pin.OUT, value=1 - LIGHT_ON),
        backlight_on=LIGHT_ON,
    )
    keys = []
    for n in (BTN_PREV, BTN_NEXT, BTN_SELECT):
        pin = Pin(n, Pin.IN, Pin.PULL_UP)
        # Light sleep gates the GPIO block's clock, so a press probably does not end it early;
        # if it does, the press shows sooner. The app reads the buttons after every doze.
        pin.irq(wake, Pin.IRQ_FALLING)
        keys.append(pin)

    # The doze is lightsleep(ms), then freq(sys_hz). rp2 wakes with clk_peri on clk_sys,
    # 125 MHz (clocks_extra.c, runtime_init_clocks_optional_usb), and the SPI keeps the
    # divider chosen for 48 MHz: the LCD would be clocked at 10.4 MHz, past its 4 Mbit/s.
    # freq() redoes what boot did (set_sys_clock_khz puts clk_peri back on 48 MHz), so that
    # divider gives 4.000 MHz again, as for every other clk_peri user. (spi.init() alone
    # would give 3.906 MHz.)
    doze = Doze(lightsleep, freq, sys_hz)

    buzzer = None
    if BUZZER is not None:  # only then is the sound code loaded
        from sound import Sound

        # freq and duty both given: the slice starts at once, silent (duty 0); rp2's deinit()
        # would only halt it with the pin wherever it was, so Sound.stop() leaves it at duty 0.
        buzzer = Sound(PWM(Pin(BUZZER), freq=2000, duty_u16=0))
    pad = three_buttons(*keys)
    wdt_off = Poke(mem32, WATCHDOG_CTRL_CLR, WATCHDOG_ENABLE)  # pico-sdk watchdog_disable()
    # GP15 (NEXT) is the pin the RP2040-B0/B1 USB enumeration fix (erratum RP2040-E5, pico-sdk
    # src/rp2_common/pico_fix/rp2040_usb_device_enumeration.c: `dp = 15`, the pad and ctrl
    # saved, then written back) borrows for about a millisecond at a USB bus reset: a setup of
    # the pin inside that millisecond is undone, its pull-up with it (a pad's power-on pull is
    # down), and NEXT reads pressed until reset. The emulated Pico's boot lands there after a
    # power cut (make test-pico), and then took safe mode for a held NEXT. Before a press at
    # power-on counts, the pin is set up again (startup.boot): Pin.init(IN, PULL_UP) redoes
    # both (ports/rp2/machine_pin.c: mp_hal_pin_input sets the SIO function, gpio_set_pulls
    # the pull), as the host's stand-in Pin.init models it.
    recheck = Call(keys[1].init, Pin.IN, Pin.PULL_UP)
    return Hardware(
        lcd,
        pad,
        doze=doze,
        name=NAME,
        buzzer=buzzer,
        wdt=WDT,
        wdt_off=wdt_off,
        wdt_reset=bitten,
        recheck=recheck,
        link=Call(UART, LINK_UART, LINK_BAUD),
    )
