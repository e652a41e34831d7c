// What the board does on its pins: the LCD's bus as events, the buzzer's edges, the clocks.
// SPDX-License-Identifier: MIT
// testbed/picolab.py records the bus events on a testbed/fakebus.py Bus, as the host's
// stand-ins do, for testbed/pcd8544_model.py to read: [ms, 'pin', role, level] when a control
// pin changes, [ms, 'spi', Hz, bytes] for the bytes clocked out between two of them.
import { GPIOPinState } from 'rp2040js';

// boards/pico.py: the LCD on SPI0 (SCK GP18, MOSI GP19), its control pins, the buzzer.
const ROLES = [
  ['dc', 20],
  ['cs', 17],
  ['rst', 21],
  ['backlight', 22],
];
const BUZZER = 12;

const { High, InputPullUp, Low, InputPullDown } = GPIOPinState;

function levelOf(pin, last) {
  if (pin.value === High || pin.value === InputPullUp) return 1;
  if (pin.value === Low || pin.value === InputPullDown) return 0;
  return last; // floating (or held by the bus keeper): the wire keeps its charge
}

export class Recorder {
  constructor() {
    this.levels = ROLES.map(() => 0);
    this.take();
  }

  /** Listen to a (new) chip: its pins, SPI0 and the buzzer, with `now()` the lab's time (ms). */
  attach(mcu, now) {
    ROLES.forEach(([, gpio], id) => {
      const pin = mcu.gpio[gpio];
      const update = () => this.pin(id, levelOf(pin, this.levels[id]), now);
      pin.addListener(update);
      update();
    });
    const spi = mcu.spi[0];
    // A byte takes its bits' time on the wire at the rate SPI0 runs at (rp2040js's default
    // completes it at once), so DMA and the FIFO see the bus as busy as the chip's would be.
    const done = mcu.clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      const hz = spi.clockFrequency; // clk_peri / (CPSDVSR * (1 + SCR)), rp2040js's clkPeri
      this.spiByte(value, Math.round(hz), now);
      if (hz > 0) done.schedule((spi.dataBits * 1e9) / hz);
      else spi.completeTransmit(0);
    };
    // The clocks as rp2040js derives them from the PLL and CLOCKS registers: a light sleep
    // shows as clk_sys and clk_peri on the 12 MHz crystal (ports/rp2/modmachine.c).
    const update = mcu.updateClocks.bind(mcu);
    const clocks = [mcu.clkSys, mcu.clkPeri];
    mcu.updateClocks = () => {
      update();
      if (mcu.clkSys !== clocks[0] || mcu.clkPeri !== clocks[1]) {
        clocks[0] = mcu.clkSys;
        clocks[1] = mcu.clkPeri;
        this.clocks.push([now(), mcu.clkSys, mcu.clkPeri]);
      }
    };
    const buzzer = mcu.gpio[BUZZER];
    let last = buzzer.value === High ? 1 : 0;
    buzzer.addListener((value) => {
      const level = value === High ? 1 : 0;
      if (level !== last) this.edges.push([now(), level]);
      last = level;
    });
  }

  pin(id, level, now) {
    if (level === this.levels[id]) return;
    this.levels[id] = level;
    this.bus.push([now(), 'pin', ROLES[id][0], level]);
  }

  spiByte(value, hz, now) {
    const last = this.bus[this.bus.length - 1];
    if (last && last[1] === 'spi' && last[2] === hz) last[3].push(value & 0xff);
    else this.bus.push([now(), 'spi', hz, [value & 0xff]]);
  }

  /** What was recorded since the last take(), for the Python side: the bus's events, the
   * buzzer's [ms, level], [ms, clk_sys Hz, clk_peri Hz]. */
  take() {
    const out = { bus: this.bus, edges: this.edges, clocks: this.clocks };
    this.bus = [];
    this.edges = [];
    this.clocks = [];
    return out;
  }
}
