# One runner for the board's loop and the web page: the app, its errors, the watchdog.
# SPDX-License-Identifier: MIT
import gc
import time

from micropython import const

# The watchdog resets the board when a step takes longer than this: machine.WDT's own default,
# five times the longest step we know of and below the RP2040's maximum (docs/benchmarks.md,
# "A save's gap and the watchdog's timeout").
WATCHDOG_MS = const(5000)
CRASHES = const(3)  # errors in a row, each within _CALM_MS of a start: no more restarts
_CALM_MS = const(60000)  # a game that ran this long ends a run of crashes


class Runner:
    """The game on `hw` (hardware.Hardware), one step(now) at a time: it loads the settings,
    starts app.App, catches its errors (the error screen, error.log, the settings kept; a
    press starts the game again) and feeds the watchdog, which it starts itself where the
    board has one (hw.wdt). After CRASHES errors in a row, each within a minute of a (re)start,
    it stays on the error screen until reset, so a crash loop cannot wear the flash.

    Each start is counted (settings.Settings.count_boot) and error.log's lines carry its
    number. A boot after a watchdog reset (hw.wdt_reset) leaves one line in error.log, and a
    run of such boots (a hang that comes back at every start, before the count is saved) only
    the first one.

    `later` (None, or a callable such as the making of a first boot's filesystem) is called
    once: after the first step, whose frame is the first on the glass, or before error.log
    is written if that comes first."""

    def __init__(self, hw, later=None):
        self.hw = hw
        self.later = later
        self.settings = None
        self.app = None
        self.waiting = None  # rescue.Waiting while the error screen shows
        self.crashes = 0
        self.began = 0  # when the app was last (re)started
        self.dog = None
        if hw.wdt is not None:
            self.dog = hw.wdt(timeout=WATCHDOG_MS)

    def step(self, now):
        """One iteration; returns the ms to wait before the next (0: at once)."""
        if self.dog is not None:
            self.dog.feed()
        waiting = self.waiting
        if waiting is not None:
            # Halted after a crash loop: the error screen stays (it still dims).
            if not waiting.done(now) or self.crashes >= CRASHES:
                return waiting.poll_ms
            self.waiting = None
        try:
            if self.app is None:
                self.began = now
                if self.settings is None:
                    self.load()
                # A new app.App (it sends the stored contrast and backlight), the display
                # awake, not inverted (after an error screen too).
                import app

                lcd = self.hw.lcd
                lcd.power_on()
                lcd.invert(False)
                self.app = app.App(self.hw, self.settings)
                now = time.ticks_ms()  # loading the game took time: its clocks start after
            wait = self.app.step(now)
            if self.later is not None:
                self._later()
            return wait
        except Exception as exc:  # KeyboardInterrupt and SystemExit reach the REPL
            self.app = None
            try:
                self._later()  # the flash ready for the error screen's error.log line
            except Exception:
                pass  # the error screen first: that line then goes to the REPL only
            gc.collect()  # the app's objects are garbage now; room for the error screen
            if self.dog is not None:
                self.dog.feed()  # the step that failed may have been a long one
            self.crashes = self.crashes + 1 if time.ticks_diff(now, self.began) < _CALM_MS else 1
            import rescue

            rescue.show_error(self.hw, self.settings, exc, self.crashes >= CRASHES)
            self.waiting = rescue.Waiting(self.hw, time.ticks_ms())
            return 0

    def _later(self):
        later = self.later
        self.later = None
        if later is not None:
            later()

    def load(self):
        """Load the stored settings (defaults where the file is missing or bad) and count this
        start; then log, with its number, what loading found (a bad file kept, a failed write)
        and a watchdog reset before this boot. Later failed writes are logged as they come."""
        from settings import Settings

        found = []  # type: list[str]  # reported while loading, before the boot has its number
        settings = Settings.load(report=found.append)
        boot = settings.count_boot()
        settings.report = self.note
        self.settings = settings
        for text in found:
            self.note(text)
        if self.hw.wdt_reset:
            self._later()
            import errorlog  # only when something is logged: a game never holds it in RAM

            errorlog.watchdog_reset(WATCHDOG_MS, boot)  # its words are there: nothing to keep

    def note(self, text):
        """Append a line to error.log for this boot (errorlog.note), loading that module only
        now: a session that logs nothing never holds its code in RAM."""
        self._later()
        import errorlog

        errorlog.note(text, self.settings.get("boots"))

    def stop(self):
        """Leaving for the REPL (Ctrl-C): silence, and no watchdog left to reset it."""
        hw = self.hw
        if hw.buzzer is not None:
            hw.buzzer.stop()
        if self.dog is not None and hw.wdt_off is not None:
            hw.wdt_off()
            self.dog = None
