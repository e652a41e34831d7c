# The fake machine's PWM: a buzzer's pin as each MicroPython port drives it, recorded.
# SPDX-License-Identifier: MIT
"""`machine.PWM` of the host board (testbed/hostboard/machine.py imports it from here): the
output modelled on the port in use (portmodel.in_use()), every change of what its pin plays
recorded so tests can hear the buzzer. `PWMS` is every PWM made since the board's last reset.
"""

import time

import portmodel

PWMS = []  # every PWM made, in order (machine.reset_state() empties it)


class PWM:
    """A PWM output as the port chosen with use_port() has it, recording what its pin plays.

    `tones()`: (ms, hz, duty_u16) each time the output changed: hz the rate the pin toggles
    at (what freq() reads), duty the duty_u16 last set while the output runs, 0 while it is
    stopped or has no duty yet; ms is time.ticks_ms(). A tone sounds while 0 < duty < 65535
    (65535 is high all the time). The latest `capacity` changes are kept, in a list made once
    (older ones are dropped: recording never allocates, so firmware can be checked under
    heap_lock()); `take()` returns them and forgets them (the simulator's and the page's
    speakers), `last()` is the latest, `changes` and `started` count every change and every
    tone begun since the PWM was made.
    Only the arguments the firmware uses are taken (freq, duty_u16): no **kwargs, whose dict
    a call would allocate.

    rp2 (ports/rp2/machine_pwm.c):
    - The slice starts only once both a frequency and a duty are set (machine_pwm_start());
      PWM(pin) alone or with only freq= is silent.
    - freq(hz): TOP (at most 65534) and an 8.4 divider of clk_sys (mp_machine_pwm_freq_set);
      ValueError "freq too small" below about 7.5 Hz at 125 MHz (divider >= 256), "freq too
      large" above clk_sys. freq() reads back 16 x clk_sys / (div16 x (TOP + 1)), rounded,
      with clk_sys as it is now; 0 before a frequency is set. (freq(0) divides by zero in
      the port; here it is a ValueError.)
    - duty_u16(d): level = (d x (TOP + 1) + 32767) // 65535, d capped at 65535; 0 keeps the
      pin low. The compare register is double-buffered (pico-sdk hardware/pwm.h,
      pwm_set_chan_level): a new level takes effect at the next wrap, within one period.
    - deinit() only disables the slice (pwm_set_enabled(slice, false)): the counter halts and
      the pin keeps the level it had, high or low; frequency and duty are kept, and the next
      freq(), duty_u16() or init() starts the slice again (machine_pwm_start()).
    esp32 (ports/esp32/machine_pwm.c, the LEDC driver, MicroPython 1.25 on):
    - PWM(pin) starts at once: at 5 kHz (PWM_FREQ) and 50 % (PWM_DUTY) unless freq= and
      duty_u16= say otherwise, so a board passes duty_u16=0 for silence.
    - freq 1 Hz .. 40 MHz, else ValueError "frequency must be from 1Hz to 40MHz"; freq() reads
      ledc_get_freq(), computed back from the divider: the rate asked for at audio rates
      (modelled as exactly that). duty_u16 0..65535, else ValueError.
    - deinit(): ledc_stop() with idle level 0 (the pin low at once), the timer freed, the
      object reset (self_reset): freq(), duty_u16() then raise RuntimeError "PWM is
      inactive" until init(), which starts it again at 5 kHz / 50 % unless told otherwise.
    Generic (no port): starts once frequency and duty are set, any frequency > 0, deinit()
    stops it and any later call starts it again.
    Not modelled: two PWMs sharing an rp2 slice's frequency, the output frozen in light sleep.
    """

    def __init__(self, dest, freq=-1, duty_u16=-1, capacity=64):
        self.pin = dest
        self.port = portmodel.in_use().name
        self._log = [0] * (3 * capacity)
        self._n = 0  # ints of _log in use
        self._head = 0  # where the next change goes
        self.changes = 0
        self.started = 0
        self._hz = 0  # what freq() reads (rp2/generic: 0 until set)
        self._duty = -1  # the duty_u16 set, -1 none
        self._div16 = 0  # rp2: clk_sys divider x 16 and TOP, chosen by freq()
        self._top = 0
        self.running = False  # the pin toggles (or sits at the duty's level)
        # esp32: False after deinit() until init(), which then starts from the defaults: as a
        # new PWM does, so it starts that way.
        self.active = self.port != "esp32"
        self._shown_hz = self._shown_duty = 0  # what was last recorded
        PWMS.append(self)
        self.init(freq=freq, duty_u16=duty_u16)

    # -- the API ------------------------------------------------------------------------------

    def init(self, freq=-1, duty_u16=-1):
        if self.port == "esp32" and not self.active:
            self.active = True  # new, or self_reset() forgot both: the defaults
            freq = 5000 if freq == -1 else freq  # PWM_FREQ
            duty_u16 = 32768 if duty_u16 == -1 else duty_u16  # PWM_DUTY: it beeps at once
        if freq != -1:
            self._set_freq(freq)
        if duty_u16 != -1:
            self._set_duty(duty_u16)
        self._start()

    def freq(self, value=None):
        self._check_active()
        if value is None:
            if self.port == "rp2" and self._div16:
                f = portmodel.in_use().clk_sys
                d = self._div16 * (self._top + 1)
                return (16 * f + d // 2) // d
            return self._hz
        self._set_freq(value)
        self._start()
        return None

    def duty_u16(self, value=None):
        self._check_active()
        if value is None:
            return max(self._duty, 0)
        self._set_duty(value)
        self._start()
        return None

    def deinit(self):
        if self.port == "esp32":
            self.active = False  # self_reset()
            self._duty = -1
            self._hz = 0
        self.running = False
        self._record()

    # -- the recording ------------------------------------------------------------------------

    def tones(self):
        """[(ms, hz, duty_u16)] the changes of the output kept (see the class), oldest first."""
        log = self._log
        first = (self._head - self._n) % len(log)
        out = []
        for k in range(0, self._n, 3):
            i = (first + k) % len(log)
            out.append((log[i], log[i + 1], log[i + 2]))
        return out

    def take(self):
        """tones(), then forgotten."""
        out = self.tones()
        self._n = 0
        return out

    def last(self):
        """The latest change (ms, hz, duty_u16), None before the first."""
        if not self.changes:
            return None
        log = self._log
        i = (self._head - 3) % len(log)
        return log[i], log[i + 1], log[i + 2]

    def sounding(self):
        """A tone is on the pin now."""
        return self.running and 0 < self._duty < 65535

    # -- the port -----------------------------------------------------------------------------

    def _check_active(self):
        if not self.active:
            raise RuntimeError("PWM is inactive")

    def _set_freq(self, hz):
        if self.port == "esp32":
            if not 1 <= hz <= 40 * portmodel.MHZ:
                raise ValueError("frequency must be from 1Hz to 40MHz")
        elif self.port == "rp2":
            self._rp2_freq(hz)
        elif hz <= 0:
            raise ValueError("freq must be > 0")
        self._hz = hz
        if self.port == "rp2":
            self._hz = self.freq()

    def _rp2_freq(self, hz):
        # mp_machine_pwm_freq_set(), TOP_MAX 65534; the source is clk_sys.
        if hz <= 0:
            raise ValueError("freq must be > 0 (the port would divide by zero)")
        f = portmodel.in_use().clk_sys
        if (f + hz // 2) // hz < 65534:
            div16 = 16
            top = (f + hz // 2) // hz - 1
        else:
            d = 65534 * hz  # get_slice_hz_ceil(TOP_MAX * freq)
            div16 = (16 * f + d - 1) // d
            d = div16 * hz  # get_slice_hz_round(div16 * freq)
            top = (16 * f + d // 2) // d - 1
        if div16 < 16 or top < 0:
            raise ValueError("freq too large")
        if div16 >= 256 * 16:
            raise ValueError("freq too small")
        self._div16, self._top = div16, top

    def _set_duty(self, d):
        if self.port == "esp32":
            if not 0 <= d <= 65535:
                raise ValueError("duty_u16 must be from 0 to 65536")  # sic, the port's text
        elif d < 0:
            raise ValueError("duty_u16 must be >= 0 (the port would set a garbage level)")
        self._duty = min(d, 65535)

    def _start(self):
        # rp2 machine_pwm_start(): once a frequency and a duty are set; esp32: at once.
        if self._duty >= 0 and self._hz > 0:
            self.running = True
        self._record()

    def _record(self):
        hz = self._hz
        duty = self._duty if self.running and self._duty > 0 else 0
        if hz == self._shown_hz and duty == self._shown_duty:
            return
        if duty and not self._shown_duty:
            self.started += 1
        self._shown_hz = hz
        self._shown_duty = duty
        log = self._log
        i = self._head
        log[i] = time.ticks_ms()
        log[i + 1] = hz
        log[i + 2] = duty
        self._head = (i + 3) % len(log)
        self._n = min(self._n + 3, len(log))
        self.changes += 1
