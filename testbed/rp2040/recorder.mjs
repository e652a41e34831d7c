// What the board does on its pins: the LCD's bus as a fakebus recording, the buzzer's edges.
// SPDX-License-Identifier: MIT
// The recording is testbed/fakebus.py's format, so testbed/pcd8544_model.py decodes it as it
// decodes the host's stand-ins: pin records (id, level), 0xF0 pin names, 0xF1 SPI writes (here
// the bytes clocked out between two pin changes), 0xF2 the SCK rate before the bytes it clocks.
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
    this.restart();
  }

  /** Forget what was recorded; the next take() declares the pins again (a new reader). */
  restart() {
    this.take();
    this.hz = null;
    ROLES.forEach(([name], id) => {
      this.bytes.push(0xf0, id, name.length, ...Buffer.from(name, 'latin1'));
      this.bytes.push(id, this.levels[id]);
    });
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
      this.spiByte(value, Math.round(hz));
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

  close() {
    this.open = -1; // index of the open 0xF1 record's header, -1 when none
  }

  pin(id, level, now) {
    if (level === this.levels[id]) return;
    this.close();
    this.levels[id] = level;
    this.bytes.push(id, level);
    if (ROLES[id][0] === 'cs' && level === 1) this.marks.push([this.bytes.length, now()]);
  }

  spiByte(value, hz) {
    if (hz && hz !== this.hz) {
      this.close();
      this.hz = hz;
      this.bytes.push(0xf2, (hz >>> 24) & 255, (hz >>> 16) & 255, (hz >>> 8) & 255, hz & 255);
    }
    if (this.open < 0 || this.bytes[this.open + 1] === 0xff) {
      this.open = this.bytes.length;
      this.bytes.push(0xf1, 0, 0);
    }
    const n = ((this.bytes[this.open + 1] << 8) | this.bytes[this.open + 2]) + 1;
    this.bytes[this.open + 1] = n >> 8;
    this.bytes[this.open + 2] = n & 255;
    this.bytes.push(value & 0xff);
  }

  /** What was recorded since the last take(), for the Python side: the bus, where CS went high
   * [offset in bus, ms] (a transfer's end), the buzzer's [ms, level], [ms, clk_sys, clk_peri]. */
  take() {
    const out = {
      bus: Buffer.from(this.bytes || []).toString('hex'),
      marks: this.marks,
      edges: this.edges,
      clocks: this.clocks,
    };
    this.close();
    this.bytes = [];
    this.marks = [];
    this.edges = [];
    this.clocks = [];
    return out;
  }
}
