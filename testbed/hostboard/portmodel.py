# The clocks and light sleep of each MicroPython port, for the fake machine (machine.py).
# SPDX-License-Identifier: MIT
"""What the real ports do that a board file can trip over, modelled from their sources:

- which clock an SPI bus divides, when the divider is chosen and what rate it gives;
- what `machine.freq()` reads and sets, and what `machine.lightsleep()` leaves behind;
- which armed pins can end a light sleep before its time is up;
- the hardware watchdog (machine.WDT): the timeouts it takes, whether it counts during a light
  sleep, and what machine.reset_cause() reads after machine.reset().

One model per board file's `PORT` ("rp2", "esp32"; None: `Generic`). The fake machine's parts
(machine.py, machine_pwm.py, machine_reset.py) all ask the one `in_use()`; tests see, among
the rest, the SCK rate of every SPI write (`SPI.wire_hz`, recorded on the bus).
"""

import time

MHZ = 1000000
_WAKE_LOW = 16  # Pin.WAKE_LOW
_SLEEP = 2  # machine.SLEEP


class Generic:
    """No port: SCK runs at the rate asked for, no clock ever changes, any armed pin's edge
    ends a light sleep."""

    name = None
    # CPU time to draw one frame into the frame buffer (screen.draw: framebuf text, lines,
    # glyphs), spent before show() sends it; the harness charges it to the fake clock. A
    # generic board is infinitely fast.
    draw_us = 0
    reset_is_watchdog = False  # machine.reset() reads as a watchdog's reset at the next boot
    wdt_in_lightsleep = "counts"  # "counts", "pauses", or "locks up" when it expires there

    def __init__(self):
        self.cpu_hz = 125 * MHZ

    def wdt_timeout(self, id, timeout):
        """ValueError unless WDT(id, timeout) is allowed; the timeout in ms it runs with."""
        if id != 0 or timeout <= 0:
            raise ValueError("WDT(0, timeout > 0) only")
        return timeout

    def freq(self, hz=None):
        if hz is None:
            return self.cpu_hz
        self.cpu_hz = hz
        return None

    def spi_divider(self, baudrate):
        """(divider, the baudrate the port reports): the divider the port picks now."""
        return None, baudrate

    def spi_hz(self, divider, baudrate):
        """The rate SCK runs at now with that divider."""
        return baudrate

    def lightsleep(self, ms, pins):
        clock = time.clock()
        clock.sleep_ms(24 * 3600 * 1000 if ms is None else ms, True)

    def wakes(self, pin):
        """True if this armed pin's firing ends a light sleep at once."""
        return True


class Rp2(Generic):
    """RP2040, MicroPython's rp2 port (1.22 .. 1.28), pico-sdk clocks.

    - Boot: ports/rp2/main.c calls set_sys_clock_khz(SYS_CLK_KHZ): clk_sys 125 MHz and, "as a
      side effect", clk_peri on the 48 MHz USB PLL (pico-sdk set_sys_clock_pll()).
    - SPI: machine_spi.c calls spi_set_baudrate() (pico-sdk hardware_spi/spi.c) at SPI() (and
      init(baudrate=...), which no board calls): a prescale and a post-divider of clk_peri are
      chosen for the clk_peri of that moment and kept in the PL022's registers; the port
      stores and prints the rate they gave then. Nothing recomputes them when clk_peri changes.
    - machine.freq(hz): modmachine.c mp_machine_set_freq() -> set_sys_clock_khz(hz / 1000),
      which puts clk_peri back on the 48 MHz USB PLL (set_sys_clock_pll(), unless the SDK
      was built with PICO_CLOCK_AJDUST_PERI_CLOCK_WITH_SYS_CLOCK); "cannot change frequency"
      when the PLL cannot make hz exactly. (freq(hz, peri) is not modelled: no board calls it.)
    - machine.lightsleep(ms): modmachine.c mp_machine_lightsleep() runs everything from the
      12 MHz crystal during the sleep, then wakes through clocks_extra.c
      runtime_init_clocks_optional_usb(), which sets clk_sys to SYS_CLK_KHZ and clk_peri to
      clk_sys: 125 MHz, not the 48 MHz of boot. An SPI divider chosen at boot for 48 MHz
      then clocks 125/48 times faster (4.000 -> 10.42 MHz). ms <= 1 is a plain delay.
    - Waking: during lightsleep(ms) only the timer keeps its clock (CLOCKS_SLEEP_EN0 =
      0 or the RTC only, SLEEP_EN1 = CLK_SYS_TIMER); IO_BANK0, where pin IRQs are detected,
      runs on clk_sys_io (SLEEP_EN0 bit 8), which is gated. So a button IRQ probably cannot
      end the sleep early and the model never lets it (a maintainer saw a pin IRQ with a
      handler wake a timed light sleep on some setups, micropython issue #7035; the firmware
      must not depend on either). The handler still runs, at the edge.
    - Watchdog: machine_wdt.c mp_machine_wdt_make_new_instance(): WDT(0) only ("WDT(%d)
      doesn't exist"), "timeout exceeds 8388" above WDT_TIMEOUT_MAX (the 24-bit counter
      decrements twice per microsecond on the RP2040, errata RP2040-E1), then pico-sdk
      watchdog_enable(timeout, false), which also sets scratch[4] to WATCHDOG_NON_REBOOT_MAGIC
      (hardware_watchdog/watchdog.c); 0 triggers it at once. A second WDT() re-enables the
      same watchdog. Nothing stops it from Python (no deinit), not even a soft reset: only its
      CTRL register's ENABLE bit (watchdog_disable()), reachable through machine.mem32.
    - machine.reset() is watchdog_reboot(0, SRAM_END, 0) (modmachine.c mp_machine_reset()), and
      mp_machine_reset_cause() reads watchdog_caused_reboot(), on the RP2040 any bit in the
      watchdog's REASON register: after machine.reset() (mpremote's reset) it reads WDT_RESET
      too. Only scratch[4] tells them apart: watchdog_reboot(0, ...) writes 0 there
      (watchdog_enable_caused_reboot(): REASON and scratch[4] == the magic).
    - In lightsleep(ms) the watchdog keeps counting (micropython issue #17228: a WDT of 3 s
      fires during lightsleep(5000)); in v1.28 a watchdog that fires then locks the RP2040 up
      until a power cycle, as lightsleep stopped the ROSC and the power-on state machine is not
      told to restart it (fixed after 1.28 by commit 434b9da, "rp2/modmachine: Fix lightsleep
      watchdog interactions"). The model: "locks up".
    """

    name = "rp2"
    reset_is_watchdog = True  # watchdog_reboot() sets REASON (see above)
    # Measured on the emulated Pico (v1.28, 125 MHz, deployed .mpy): a frame took about 4 ms
    # from draw() to the end of show(), of which the 504+ bytes at 4 MHz are about 1 ms.
    draw_us = 3000
    WDT_MAX_MS = 8388  # machine_wdt.c WDT_TIMEOUT_MAX (RP2040): 0xffffff / 2 / 1000
    wdt_in_lightsleep = "locks up"
    SYS_HZ = 125 * MHZ  # SYS_CLK_KHZ, the RP2040 default (measured: freq() = 125000000)
    USB_HZ = 48 * MHZ  # pll_usb, clk_peri's source after set_sys_clock_khz()
    XOSC_KHZ = 12000

    def __init__(self):
        self.clk_sys = self.SYS_HZ
        self.clk_peri = self.USB_HZ  # main.c: set_sys_clock_khz(SYS_CLK_KHZ, false)

    def freq(self, hz=None):
        if hz is None:
            return self.clk_sys
        khz = hz // 1000
        if not _pll_can_make(khz, self.XOSC_KHZ):
            raise ValueError("cannot change frequency")
        self.clk_sys = khz * 1000
        self.clk_peri = self.USB_HZ  # set_sys_clock_pll(): clk_peri back on pll_usb
        return None

    def spi_divider(self, baudrate):
        # pico-sdk spi_set_baudrate(): the smallest even prescale 2..254 that brings clk_peri
        # within 256 x baudrate, then the largest post-divider 1..256 that gives <= baudrate.
        freq_in = self.clk_peri
        prescale = 2
        while prescale <= 254:
            if freq_in < (prescale + 2) * 256 * baudrate:
                break
            prescale += 2
        postdiv = 256
        while postdiv > 1:
            if freq_in // (prescale * (postdiv - 1)) > baudrate:
                break
            postdiv -= 1
        divider = prescale * postdiv
        return divider, freq_in // divider

    def spi_hz(self, divider, baudrate):
        return self.clk_peri // divider

    def lightsleep(self, ms, pins):
        if ms is not None and ms <= 1:
            time.clock().sleep_ms(ms)  # "Sleep is too small, just use standard delay."
            return
        Generic.lightsleep(self, ms, pins)
        # runtime_init_clocks_optional_usb(): clk_sys = SYS_CLK_KHZ, clk_peri = clk_sys.
        self.clk_sys = self.SYS_HZ
        self.clk_peri = self.clk_sys

    def wakes(self, pin):
        return False

    def wdt_timeout(self, id, timeout):
        if id != 0:
            raise ValueError("WDT(%d) doesn't exist" % id)
        if timeout < 0 or timeout > self.WDT_MAX_MS:  # a uint32_t in the port
            raise ValueError("timeout exceeds %d" % self.WDT_MAX_MS)
        return timeout


class Esp32(Generic):
    """ESP32, MicroPython's esp32 port on ESP-IDF.

    - SPI: ports/esp32/machine_hw_spi.c hands clock_speed_hz to spi_bus_add_device(); ESP-IDF
      picks the nearest pre x n divider of the 80 MHz APB clock once, at that moment
      (hal spi_ll.h spi_ll_master_cal_clock()), and the port stores spi_get_actual_clock().
      4 MHz is 80 MHz / 20 exactly.
    - machine.freq() reads 160 MHz, the default; boards/esp32.py never sets it, so APB stays
      80 MHz. Setting it is refused: below 80 MHz APB would follow the CPU (ESP32 TRM,
      CPU_CLK sources), which is not modelled.
    - machine.lightsleep(ms): modmachine.c machine_sleep_helper() -> esp_light_sleep_start()
      (esp_hw_support/sleep_modes.c): the CPU and APB run from the crystal during the sleep,
      and rtc_clk_cpu_freq_set_config() restores the saved CPU clock, so APB is 80 MHz
      again, before it returns. The SPI divider stays right: SCK is 4.000 MHz before and
      after. No fault of the rp2 kind.
    - Waking: ext0 (Pin.irq(trigger=WAKE_LOW, wake=SLEEP)) is a level wake: the sleep ends
      when the pin is low, at once if it already is. Other pins wait for the timer.
    - Watchdog: machine_wdt.c mp_machine_wdt_make_new_instance(): WDT(0) only (ValueError),
      "WDT timeout too short" for timeout <= 0, else esp_task_wdt_reconfigure() with that
      timeout and trigger_panic, the task subscribed once: a second WDT() sets a new timeout
      (the only way to make it harmless from Python, as nothing deletes it). On expiry the
      task watchdog panics and restarts the chip with ESP_RST_TASK_WDT, which
      modmachine.c mp_machine_reset_cause() reads as WDT_RESET; machine.reset() is
      esp_restart(), ESP_RST_SW, read as HARD_RESET.
    - In lightsleep the task watchdog's timer (a timer group's MWDT, clocked from APB) is clock
      gated with the other peripherals, so it pauses and goes on from where it was (the timer
      groups stop in light sleep: esp-rs/esp-hal issue #5624, and ESP-IDF's esp_timer docs,
      "sleep mode considerations"). The model: "pauses".
    """

    name = "esp32"
    # Not measured: rp2's 3 ms scaled by the clocks (125 / 160 MHz), an estimate.
    draw_us = 2340
    wdt_in_lightsleep = "pauses"
    APB_HZ = 80 * MHZ

    def __init__(self):
        self.cpu_hz = 160 * MHZ

    def freq(self, hz=None):
        if hz is not None:
            raise ValueError("machine.freq(hz) is not modelled on esp32: no board sets it")
        return self.cpu_hz

    def spi_divider(self, baudrate):
        # spi_ll_master_cal_clock(): n 2..64 (ties to the higher n), pre = round(fapb / n / hz)
        # in 1..8192, the pair nearest the rate asked for (it may be above it).
        fapb = self.APB_HZ  # the port and the IDF compute with APB_CLK_FREQ
        if baudrate > fapb // 4 * 3:
            return 1, fapb
        best = None
        best_err = 0
        for n in range(2, 65):
            pre = (fapb // n + baudrate // 2) // baudrate
            pre = 1 if pre <= 0 else 8192 if pre > 8192 else pre
            err = abs(fapb // (pre * n) - baudrate)
            if best is None or err <= best_err:
                best, best_err = pre * n, err
        return best, fapb // best

    def spi_hz(self, divider, baudrate):
        return self.APB_HZ // divider

    def lightsleep(self, ms, pins):
        for pin in pins:
            if self.wakes(pin) and pin.value() == 0:
                return  # ext0 is a level wake: already low, the sleep ends at once
        Generic.lightsleep(self, ms, pins)

    def wakes(self, pin):
        return bool(pin.wake and pin.wake & _SLEEP and pin._trigger & _WAKE_LOW)

    def wdt_timeout(self, id, timeout):
        if id != 0:
            raise ValueError()
        if timeout <= 0:
            raise ValueError("WDT timeout too short")
        return timeout


def _pll_can_make(khz, ref_khz):
    # pico-sdk check_sys_clock_khz(): some VCO 750..1600 MHz (fbdiv 16..320 x 12 MHz) divided
    # by postdiv1 x postdiv2 (1..7 each) gives exactly khz.
    for fbdiv in range(320, 15, -1):
        vco = fbdiv * ref_khz
        if vco < 750000 or vco > 1600000:
            continue
        for pd1 in range(7, 0, -1):
            for pd2 in range(pd1, 0, -1):
                if vco % (pd1 * pd2) == 0 and vco // (pd1 * pd2) == khz:
                    return True
    return False


def model(port):
    """A new model for the port named `port` (a board file's PORT), clocks as at power-on."""
    for cls in (Generic, Rp2, Esp32):
        if cls.name == port:
            return cls()
    raise ValueError("no model of the %r port: choose rp2, esp32 or None" % (port,))


_in_use = [Generic()]  # the host board's port: machine.use_port() names it


def use(port):
    """Model the port named `port` from power-on on (machine.use_port(), reset_state())."""
    _in_use[0] = model(port)


def in_use():
    """The model of the port the host board is now (machine.port())."""
    return _in_use[0]
