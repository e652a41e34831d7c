// The Pico lab: MicroPython's rp2 port in rp2040js, seen only through its pins and USB serial.
// SPDX-License-Identifier: MIT
// Driven by testbed/picolab.py over stdin/stdout, one JSON object a line each way: boot, run,
// pin, serial, link, cut_after, power_on, flash (see handle() below). Every answer
// carries what happened since the last one (see take()), its times in the emulator's simulated
// ms since the first power-on, counted across resets (ns inside the lab).
import fs from 'node:fs';
import readline from 'node:readline';
import { ConsoleLogger, LogLevel, RP2040, USBCDC } from 'rp2040js';
import { patchFlashRom, flashOp } from './flashrom.mjs';
import { Recorder } from './recorder.mjs';

const SRAM_BOOT2 = 0x20041f00; // the boot ROM copies boot2 here (RP2040 datasheet 2.8.1.3)
const WATCHDOG_BASE = 0x40058000;
const BUTTONS = [13, 14, 15]; // boards/pico.py: PREV, SELECT, NEXT, each to ground
const USB_ATTACH_DEBOUNCE_NS = 100e6; // a host's wait before its bus reset (USB 2.0 7.1.7.3)
const LINK_UART = 0; // boards/pico.py LINK_UART: the link cable's end, GP0 TX and GP1 RX
const LINK_BAUD = 115200; // the line's rate while the chip's UART has none set (machine_uart.c)
const CHAR_BITS = 10; // 8N1: a start bit, 8 data bits, a stop bit

const state = {
  mcu: null,
  cdc: null,
  offset: 0, // ns of the runs before the last reset
  bootrom: null,
  cutAfter: null, // power goes after this many more flash operations
  off: false, // no power (a cut): nothing runs until power_on
  pending: null, // a reset asked for by the watchdog, done between instructions
  log: newLog(), // what happened since the last answer (take())
  connected: false,
  serialIn: [],
  linkIn: [], // [ns, byte]: bytes on their way to UART0's RX, each due when its stop bit is in
  lineEnd: 0, // ns: when the last byte queued on the RX line ends
  buttons: new Map(BUTTONS.map((n) => [n, 1])),
  rec: new Recorder(),
  timing: true, // charge the flash's typical erase/program times
};

function now() {
  return state.offset + (state.mcu ? state.mcu.clock.nanos : 0);
}

function ms() {
  return now() / 1e6;
}

// The lists an answer carries (with the recorder's), named as testbed/picolab.py's Board names
// them: the USB serial's bytes, then [ms, ...] each: resets [ms, why], UART0's bytes sent
// [ms, byte], flash operations [ms, kind, offset, size].
function newLog() {
  return { serial: [], resets: [], link_sent: [], flash_ops: [] };
}

function parseBootrom(path) {
  const text = fs.readFileSync(path);
  if (text.length === 16384) {
    return new Uint32Array(text.buffer.slice(text.byteOffset, text.byteOffset + 16384));
  }
  // rp2040js's demo/bootrom.ts: a Uint32Array literal of hex words
  const body = text.toString('utf8');
  const words = body.slice(body.indexOf('[')).match(/0x[0-9a-fA-F]+/g) || [];
  if (words.length !== 4096) {
    throw new Error(`${path}: ${words.length} words, not the boot ROM's 4096`);
  }
  return Uint32Array.from(words.map((w) => parseInt(w, 16)));
}

// A new chip on the given flash (a Uint8Array of 16 MB, kept across resets), as after a reset:
// `watchdog` carries REASON and the scratch registers across a reset by the watchdog.
function powerUp(flash, watchdog) {
  if (state.mcu) state.offset += state.mcu.clock.nanos;
  const mcu = new RP2040(); // its own SimulationClock, from 0
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(state.bootrom); // also reset(), which fills the flash with 0xFF
  if (flash) {
    mcu.flash = flash;
    mcu.flash16 = new Uint16Array(flash.buffer);
    mcu.flashView = new DataView(flash.buffer);
  }
  patchFlashRom(mcu);
  mcu.onBreak = (code) => onFlashBreak(mcu, code);
  const dog = mcu.findPeripheral(WATCHDOG_BASE);
  if (watchdog) {
    dog.reason = watchdog.reason;
    dog.scratchData.set(watchdog.scratch);
  }
  dog.onWatchdogTrigger = () => {
    // rp2040js's alarm would fire again forever: stop it; reset between instructions.
    dog.alarm.enable = false;
    dog.timer.enable = false;
    state.pending = { reason: dog.reason, scratch: Uint32Array.from(dog.scratchData) };
  };
  // The buttons' pull-ups, which rp2040js does not model: high unless pressed.
  for (const [n, level] of state.buttons) mcu.gpio[n].setInputValue(!!level);
  state.rec.attach(mcu, ms);
  state.mcu = mcu;
  state.connected = false;
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => {
    state.connected = true;
  };
  cdc.onSerialData = (data) => {
    for (const b of data) state.log.serial.push(b);
  };
  // rp2040js's USBCDC answers every OUT buffer the device arms at once, with no bytes when it
  // has none: the device re-arms, and the core spends its idle time on a storm of empty
  // transfers. A host only sends when it has data: the read waits for some.
  const read = mcu.usbCtrl.onEndpointRead;
  let waiting = null;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) waiting = [endpoint, size];
    else read(endpoint, size);
  };
  state.flushRead = () => {
    if (waiting && !cdc.txFIFO.empty) {
      const [endpoint, size] = waiting;
      waiting = null;
      read(endpoint, size);
    }
  };
  // rp2040js's host resets the bus the moment the device's pull-up appears; a real host waits
  // at least 100 ms first (USB 2.0 7.1.7.3, TATTDB). It matters: after that reset the B1
  // chip's RP2040-E5 workaround borrows GPIO15 for 1 ms and restores it as it found it
  // (pico-sdk rp2040_usb_device_enumeration.c), undoing the frozen game's NEXT button set up
  // about 15 ms after power-on.
  const enabled = mcu.usbCtrl.onUSBEnabled;
  const attach = mcu.clock.createAlarm(() => enabled());
  mcu.usbCtrl.onUSBEnabled = () => attach.schedule(USB_ATTACH_DEBOUNCE_NS);
  state.cdc = cdc;
  linkUp(mcu);
  // What the boot ROM does once boot2's checksum holds: copy it to SRAM and call it with
  // lr = 0, so that it enters the firmware's vector table (pico-sdk boot2's exit_from_boot2).
  for (let i = 0; i < 256; i++) mcu.sram[SRAM_BOOT2 - 0x20000000 + i] = mcu.flash[i];
  mcu.core.SP = 0x20041f00; // the boot ROM's initial stack pointer, just below boot2
  mcu.core.LR = 0;
  mcu.core.PC = SRAM_BOOT2;
  return mcu;
}

// The link cable's end on UART0. rp2040js sends each byte the chip writes at once (onByte) and
// would put each fed byte in the RX FIFO at once; here they reach it one by one at the line's
// rate, each when its stop bit is in, as the PL011 receives them, and a UART that is off
// (UARTCR's UARTEN or RXE clear) loses them, as on the chip.
//
// rp2040js raises the TX interrupt at every look, and again right after the firmware clears
// it: MicroPython enables it (machine_uart.c) and clears it in its handler, so the core would
// run only that handler once link play opens the UART. The PL011 raises it only as its TX FIFO
// drains through the trigger level (ARM PL011 TRM, UARTTXINTR), which a FIFO that sends each
// byte at once never rises past: no TX interrupt (MicroPython needs none).
function linkUp(mcu) {
  const uart = mcu.uart[LINK_UART];
  uart.checkInterrupts = () => {
    uart.rp2040.setInterrupt(uart.irq, !!(uart.interruptStatus & uart.interruptMask));
  };
  uart.onByte = (value) => state.log.link_sent.push([ms(), value]);
  state.linkIn = [];
  state.lineEnd = 0;
  const arrive = mcu.clock.createAlarm(() => {
    while (state.linkIn.length && state.linkIn[0][0] <= now()) {
      const [, value] = state.linkIn.shift();
      if (uart.enabled && uart.rxEnabled) uart.feedByte(value); // a full FIFO drops it (overrun)
    }
    if (state.linkIn.length) arrive.schedule(state.linkIn[0][0] - now());
  });
  state.linkArrive = arrive;
  state.charNs = () => {
    const baud = uart.enabled && uart.baudRate ? uart.baudRate : LINK_BAUD;
    return (CHAR_BITS * 1e9) / baud;
  };
}

// Bytes the other end transmitted, [[ms, byte]], when on this lab's clock: each is in a
// character's time after it was sent, or after the end of the byte before it, and not before
// now (the relay may hand them over late).
function linkFeed(bytes) {
  const idle = !state.linkIn.length;
  const charNs = state.charNs();
  for (const [sent, value] of bytes) {
    state.lineEnd = Math.max(sent * 1e6 + charNs, state.lineEnd + charNs, now());
    state.linkIn.push([state.lineEnd, value]);
  }
  if (idle && state.linkIn.length) state.linkArrive.schedule(state.linkIn[0][0] - now());
}

function onFlashBreak(mcu, code) {
  const op = flashOp(mcu, code, state.timing);
  if (!op) return;
  state.log.flash_ops.push([ms(), op.kind, op.offset, op.size]);
  if (state.cutAfter !== null && --state.cutAfter <= 0) {
    state.cutAfter = null;
    state.off = true;
    state.log.resets.push([ms(), 'power cut']);
  }
}

function pumpSerial() {
  if (!state.connected || !state.serialIn.length) return;
  const cdc = state.cdc;
  // USBCDC queues up to its FIFO's size; the rest waits for the next pump.
  while (state.serialIn.length && !cdc.txFIFO.full) cdc.sendSerialByte(state.serialIn.shift());
  state.flushRead();
}

// Run for `ns` simulated nanoseconds, or until `untilText` appears in the serial output.
function run(ns, untilText) {
  const end = now() + ns;
  const needle = untilText ? Buffer.from(untilText, 'latin1') : null;
  const out = state.log.serial;
  let seen = out.length;
  let count = 0;
  while (!state.off && now() < end) {
    const mcu = state.mcu;
    const { core, clock } = mcu;
    if (core.waiting) {
      const next = clock.nanosToNextAlarm;
      const left = end - now();
      clock.tick(next > 0 ? Math.min(next, left) : left);
    } else {
      const cycles = core.executeInstruction();
      clock.tick((cycles * 1e9) / mcu.clkSys);
    }
    if (state.pending) {
      const carry = state.pending;
      state.pending = null;
      state.log.resets.push([ms(), carry.reason & 1 ? 'watchdog' : 'watchdog (forced)']);
      powerUp(mcu.flash, carry);
    }
    if ((++count & 0x3ff) === 0) {
      pumpSerial();
      if (needle && out.length > seen) {
        if (Buffer.from(out).indexOf(needle, Math.max(0, seen - needle.length)) >= 0) return true;
        seen = out.length;
      }
    }
  }
  return !!needle && Buffer.from(out).indexOf(needle) >= 0;
}

function take() {
  const log = state.log;
  state.log = newLog();
  return {
    t: ms(),
    off: state.off,
    ...log,
    serial: Buffer.from(log.serial).toString('hex'),
    ...state.rec.take(),
  };
}

function handle(msg) {
  switch (msg.cmd) {
    case 'boot': {
      state.bootrom = parseBootrom(msg.bootrom);
      state.timing = msg.flash_timing !== false;
      // A new chip's flash is erased (0xFF), then holds the image picolab.py made.
      const flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
      flash.set(Buffer.from(msg.flash, 'hex'));
      powerUp(flash, null);
      return {};
    }
    case 'run':
      return { found: run(msg.ms * 1e6, msg.until) };
    case 'pin':
      state.buttons.set(msg.gpio, msg.level);
      if (state.mcu) state.mcu.gpio[msg.gpio].setInputValue(!!msg.level);
      return {};
    case 'serial':
      for (const b of Buffer.from(msg.hex, 'hex')) state.serialIn.push(b);
      pumpSerial();
      return {};
    case 'link':
      // Bytes from the other board's UART0 TX, [[ms, byte]], for this one's RX.
      linkFeed(msg.bytes);
      return {};
    case 'cut_after':
      state.cutAfter = msg.n;
      return {};
    case 'power_on': {
      // Power back after a cut (or a plain power cycle): the same flash, a fresh chip.
      const flash = state.mcu.flash;
      state.off = false;
      state.log.resets.push([ms(), 'power on']);
      state.serialIn = [];
      powerUp(flash, null);
      return {};
    }
    case 'flash': {
      const data = state.mcu.flash.subarray(msg.offset, msg.offset + msg.size);
      return { data: Buffer.from(data).toString('hex') };
    }
    default:
      throw new Error(`unknown command ${msg.cmd}`);
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let answer;
  try {
    answer = { ok: true, ...handle(JSON.parse(line)), ...take() };
  } catch (err) {
    answer = { ok: false, error: String((err && err.stack) || err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
});
