// The buzzer: what the firmware's PWM played, as a square wave in WebAudio.
// SPDX-License-Identifier: MIT

const VOLUME = 0.06; // a piezo is not loud
const AUDIO_AHEAD_S = 0.03; // notes are scheduled this far ahead, keeping their spacing

export class Buzzer {
  // Counts every change it is told of in oxo.tones (the page's tests read it).
  constructor(oxo) {
    this.oxo = oxo;
    this.muted = false;
    this.ctx = this.osc = this.gain = null;
  }

  start() {
    // Browsers start audio only from a user gesture: the first press makes the context, and
    // each later one resumes it if the browser suspended it.
    if (!window.AudioContext) return;
    if (this.ctx) {
      if (this.ctx.state === "suspended" && !document.hidden) this.ctx.resume();
      return;
    }
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "square"; // a piezo driven by PWM at 50 % duty
    gain.gain.value = 0;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    Object.assign(this, { ctx, osc, gain });
  }

  silence() {
    if (!this.ctx) return;
    const now = this.ctx.currentTime;
    this.gain.gain.cancelScheduledValues(now);
    this.gain.gain.setValueAtTime(0, now);
  }

  setMuted(muted) {
    this.muted = muted;
    if (muted) this.silence();
  }

  play(lines, nowMs) {
    // "ms hz duty_u16" per change of the buzzer's PWM (oxoweb.Page.tones): duty 0 is silence.
    if (!lines) return;
    for (const line of lines.split("\n")) {
      const [ms, hz, duty] = line.split(" ").map(Number);
      this.oxo.tones++;
      if (this.muted || !this.ctx || document.hidden) continue;
      const t = Math.max(this.ctx.currentTime,
        this.ctx.currentTime + AUDIO_AHEAD_S + (ms - nowMs) / 1000);
      const on = hz > 0 && duty > 0 && duty < 65535;
      if (on) this.osc.frequency.setValueAtTime(hz, t);
      this.gain.gain.setValueAtTime(on ? VOLUME : 0, t);
    }
  }
}
