# What a board provides to the game: display, buttons, light sleep, buzzer, watchdog, a name.
# SPDX-License-Identifier: MIT


class Hardware:
    """Built by a board file's build(); main.py and the app use only this.

    `lcd` is a pcd8544.PCD8544 (a framebuf.FrameBuffer with show/contrast/backlight/power_off/
    power_on), `pad` a buttons.Pad, `doze(ms)` sleeps lightly for at most ms, returning early
    only where a button can wake the board (machine.lightsleep; None where the port cannot,
    then the app just sleeps; the app reads the buttons after each doze either way), `name`
    the board's name for messages, `buzzer` a sound.Sound on the board's piezo (None where
    there is none: then the game is silent and sound.py is never loaded).

    The hardware watchdog: `wdt(timeout=ms)` starts it and returns an object whose feed()
    must then come within ms (machine.WDT; None: the board runs without one), `wdt_off()`
    stops it again so the REPL is not reset (None: it cannot be stopped), `wdt_reset` is True
    when this boot follows a reset by the watchdog (not one by machine.reset()).

    `recheck()` sets the buttons' pins up again before a press at power-on is taken for safe
    mode (None: the board needs it not): see boards/pico.py.
    `link()` opens the link cable's UART and returns it (a machine.UART: write(buf),
    readinto(buf) -> count or None without waiting, deinit()), for link play only, which
    deinit()s it when it ends, so a board holds its buffers only in link play (None: the
    board has no cable).

    A board file's code is let go once build() has returned (startup.main): what it hands over
    that is called later is built-in, or one of the objects below, never a function of its
    own (that would keep the whole file in RAM).
    """

    def __init__(
        self,
        lcd,
        pad,
        doze=None,
        name="",
        buzzer=None,
        wdt=None,
        wdt_off=None,
        wdt_reset=False,
        recheck=None,
        link=None,
    ):
        self.lcd = lcd
        self.pad = pad
        self.doze = doze
        self.name = name
        self.buzzer = buzzer
        self.wdt = wdt
        self.wdt_off = wdt_off
        self.wdt_reset = wdt_reset
        self.recheck = recheck
        self.link = link


def wake(pin):
    """A pin IRQ handler that does nothing, for a button whose press should end a light sleep
    where the port needs a handler for that (rp2 enables a pin's IRQ only with one:
    ports/rp2/machine_pin.c, mp_hal_pin_interrupt)."""


class Doze:
    """A `doze(ms)`: `sleep(ms)` (machine.lightsleep), then `restore(*args)`, which puts back
    what the port's light sleep changed (the board file says what)."""

    def __init__(self, sleep, restore, *args):
        self._sleep = sleep
        self._restore = restore
        self._args = args

    def __call__(self, ms):
        self._sleep(ms)
        self._restore(*self._args)


class Poke:
    """A `wdt_off()` that is one register write, `mem[address] = value` (machine.mem32)."""

    def __init__(self, mem, address, value):
        self._mem = mem
        self._address = address
        self._value = value

    def __call__(self):
        self._mem[self._address] = self._value


class Call:
    """A call made later, `fn(*args)` (its result returned: link()'s UART), for a board file
    that must hand over a bound call (its own function would keep the file in RAM)."""

    def __init__(self, fn, *args):
        self._fn = fn
        self._args = args

    def __call__(self):
        return self._fn(*self._args)
