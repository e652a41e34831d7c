// oxo5110 in a browser: the board's firmware on MicroPython WebAssembly, stepped by this page.
// SPDX-License-Identifier: MIT
//
// What the page adds to the firmware, and nothing more (oxoweb.py is its MicroPython half):
// - the loop: main.py's blocking loop would freeze the tab (the port's sleep_ms busy-waits), so
//   a timer calls Page.step(), one App.step(), and waits the ms it returns;
// - the glass: the PCD8544 controller model's picture, drawn cell by cell in the module's
//   colours (backlight, contrast) at a whole number of device pixels per LCD pixel;
// - the buttons: on-screen keys (mouse, touch, keyboard) set the board's button pins; each level
//   lasts long enough for the firmware's poll and debounce to see it;
// - the buzzer: what the PWM played, as a square wave in WebAudio;
// - flash: settings.json and error.log live in localStorage.
import { loadMicroPython } from "./micropython.mjs";

const BOARDS = ["pico", "esp32"];
const FILES = ["settings.json", "error.log"]; // what the board keeps on its flash
const STORE = "oxo5110:"; // localStorage key prefix
const LIB = "/lib"; // on the port's sys.path
const HEAP = 512 * 1024; // the firmware plays in ~50 KB (a Pico has 240 KB); room for the page
// A level (pressed or released) lasts at least this long and this many steps: the firmware
// polls every 10 ms and ignores the pin for 30 ms after an edge (buttons.py), so anything
// shorter may not be seen. Key auto-repeat is ignored; the firmware makes its own.
const LEVEL_MIN_MS = 50;
const LEVEL_MIN_STEPS = 2;
// The simulator's letters: a hold that outlasts what the firmware acts on (tools/simulator.py).
const HOLD_MS = { SELECT: 650, PREV: 450, NEXT: 450 };
const KEYS = {
  ArrowLeft: "PREV", ArrowUp: "PREV", ArrowRight: "NEXT", ArrowDown: "NEXT",
  " ": "SELECT", Enter: "SELECT",
};
const LETTERS = { h: "SELECT", u: "PREV", p: "NEXT" };
const WIDTH = 84, HEIGHT = 48, MARGIN = 2; // glass pixels; MARGIN of empty glass around them
const LIT_GAP = "#b9cc7e"; // testbed/glasslook.py LIT[0]: the backlight is on
const VOLUME = 0.06; // a piezo is not loud
const AUDIO_AHEAD_S = 0.03; // notes are scheduled this far ahead, keeping their spacing

const $ = (id) => document.getElementById(id);
const statusLine = $("status");
const canvas = $("glass");
const ctx2d = canvas.getContext("2d", { alpha: false });

// What tests and benchmarks read (window.oxo): the page's state, never needed to play.
const oxo = {
  board: null, steps: 0, frames: 0, cell: 0, margin: MARGIN, glass: null, colours: null,
  tones: 0, error: null, started: performance.now(), firstFrame: null, lastFrame: null,
};
window.oxo = oxo;

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

function fail(what, err) {
  oxo.error = `${what}: ${err && err.message ? err.message : err}`;
  say(oxo.error, true);
  console.error(oxo.error);
}

// -- the glass ---------------------------------------------------------------------------------

function fitCanvas() {
  const dpr = window.devicePixelRatio || 1;
  const box = getComputedStyle(canvas.parentElement);
  const room = canvas.parentElement.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
  const cell = Math.max(2, Math.floor(((room || 336) * dpr) / (WIDTH + 2 * MARGIN)));
  if (cell === oxo.cell) return;
  oxo.cell = cell;
  canvas.width = cell * (WIDTH + 2 * MARGIN);
  canvas.height = cell * (HEIGHT + 2 * MARGIN);
  canvas.style.width = `${canvas.width / dpr}px`;
  drawGlass();
}

function drawGlass() {
  const glass = oxo.glass;
  if (!glass || !oxo.cell) return;
  const [gap, paper, ink] = oxo.colours;
  const cell = oxo.cell;
  const dot = cell >= 3 ? cell - 1 : cell; // a 1-pixel grid between cells, as on the glass
  ctx2d.fillStyle = gap;
  ctx2d.fillRect(0, 0, canvas.width, canvas.height);
  for (const [colour, dark] of [[paper, 0], [ink, 1]]) {
    ctx2d.fillStyle = colour;
    for (let y = 0; y < HEIGHT; y++) {
      const bank = (y >> 3) * WIDTH, bit = y & 7;
      for (let x = 0; x < WIDTH; x++) {
        if (((glass[bank + x] >> bit) & 1) === dark) {
          ctx2d.fillRect((x + MARGIN) * cell, (y + MARGIN) * cell, dot, dot);
        }
      }
    }
  }
}

function showFrame(frame) {
  // "gap cell ink hex" (oxoweb.Page.frame): the module's colours now and the 504 glass bytes.
  const [gap, paper, ink, hex] = frame.split(" ");
  const glass = new Uint8Array(504);
  for (let i = 0; i < 504; i++) glass[i] = parseInt(hex.substr(2 * i, 2), 16);
  oxo.glass = glass;
  oxo.colours = [gap, paper, ink];
  drawGlass();
  $("bezel").classList.toggle("lit", gap === LIT_GAP);
  oxo.frames++;
  oxo.lastFrame = performance.now();
  if (oxo.firstFrame === null) {
    oxo.firstFrame = oxo.lastFrame;
    performance.mark("oxo-first-frame");
  }
}

// -- the buzzer --------------------------------------------------------------------------------

const sound = {
  muted: localStorage.getItem(STORE + "muted") === "1",
  ctx: null, osc: null, gain: null,
};

function startAudio() {
  // Browsers start audio only from a user gesture: the first press makes the context.
  if (sound.ctx || !window.AudioContext) return;
  const ctx = new AudioContext();
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "square"; // a piezo driven by PWM at 50 % duty
  gain.gain.value = 0;
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  Object.assign(sound, { ctx, osc, gain });
}

function playTones(lines, nowMs) {
  // "ms hz duty_u16" per change of the buzzer's PWM (oxoweb.Page.tones): duty 0 is silence.
  if (!lines) return;
  for (const line of lines.split("\n")) {
    const [ms, hz, duty] = line.split(" ").map(Number);
    oxo.tones++;
    if (sound.muted || !sound.ctx) continue;
    const t = Math.max(sound.ctx.currentTime,
      sound.ctx.currentTime + AUDIO_AHEAD_S + (ms - nowMs) / 1000);
    const on = hz > 0 && duty > 0 && duty < 65535;
    if (on) sound.osc.frequency.setValueAtTime(hz, t);
    sound.gain.gain.setValueAtTime(on ? VOLUME : 0, t);
  }
}

function setMuted(muted) {
  sound.muted = muted;
  localStorage.setItem(STORE + "muted", muted ? "1" : "0");
  const button = $("mute");
  button.setAttribute("aria-pressed", String(muted));
  button.textContent = muted ? "Sound: off" : "Sound: on";
  if (muted && sound.ctx) {
    const now = sound.ctx.currentTime;
    sound.gain.gain.cancelScheduledValues(now);
    sound.gain.gain.setValueAtTime(0, now);
  }
}

// -- the buttons -------------------------------------------------------------------------------

class Button {
  constructor(name) {
    this.name = name;
    this.down = false; // the level the firmware's pin has
    this.since = -Infinity; // when it took that level (performance.now())
    this.sinceStep = 0;
    this.wanted = []; // levels asked for, applied in order
    this.timer = 0;
    this.seen = null; // when the first step after the level's change ran (performance.now())
    this.stepped = null; // when the last step ran
    this.el = document.querySelector(`[data-button="${name}"]`);
  }

  set(down) {
    this.wanted.push(down);
    this.pump();
  }

  pump() {
    clearTimeout(this.timer);
    this.timer = 0;
    while (this.wanted.length) {
      const next = this.wanted[0];
      if (next === this.down) { this.wanted.shift(); continue; }
      const wait = this.since + LEVEL_MIN_MS - performance.now();
      if (wait > 0 || oxo.steps - this.sinceStep < LEVEL_MIN_STEPS) {
        this.timer = setTimeout(() => this.pump(), Math.max(wait, 10));
        return;
      }
      this.wanted.shift();
      this.down = next;
      this.since = performance.now();
      this.sinceStep = oxo.steps;
      this.seen = null;
      this.el.classList.toggle("down", next);
      game.page.press(this.name, next);
      oxo.lastPress = this.since;
    }
  }

  step(now) {
    // A step starts at `now` and polls the pins: it sees this button's level.
    if (this.seen === null) this.seen = now;
    this.stepped = now;
  }

  hold(ms) {
    // Let go once the firmware has polled the press held `ms` (it times a long press from the
    // poll that saw the press): a timer alone would let go early after a late step (a busy
    // tab), and the hold would be a click, the hint a mark.
    this.set(true);
    const release = () => {
      if (this.down && this.seen !== null && this.stepped - this.seen >= ms) this.set(false);
      else setTimeout(release, LEVEL_MIN_MS / 5);
    };
    setTimeout(release, ms);
  }
}

const game = { page: null, timer: 0, buttons: {} };

function wireInput() {
  for (const name of ["PREV", "NEXT", "SELECT"]) game.buttons[name] = new Button(name);
  for (const button of Object.values(game.buttons)) {
    const el = button.el;
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      startAudio();
      button.set(true);
    });
    const release = () => { if (button.wanted.at(-1) ?? button.down) button.set(false); };
    el.addEventListener("pointerup", release);
    el.addEventListener("pointercancel", release);
    el.addEventListener("lostpointercapture", release);
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a hold
    // Enter or space on a focused key: the keyboard handler below presses it, once.
    el.addEventListener("click", (e) => e.preventDefault());
  }
  const held = new Map(); // key -> button held by it
  window.addEventListener("keydown", (e) => {
    // The page's own controls keep their keys (the board menu's arrows, Enter on a button).
    if (e.target.closest("select, input, textarea, a, summary, button:not(.key)")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const name = KEYS[e.key];
    const letter = LETTERS[e.key.toLowerCase()];
    if (!name && !letter) return;
    e.preventDefault();
    if (e.repeat) return; // auto-repeat: the firmware makes its own repeat and long press
    startAudio();
    if (letter) {
      game.buttons[letter].hold(HOLD_MS[letter]);
    } else {
      held.set(e.key, name);
      game.buttons[name].set(true);
    }
  });
  window.addEventListener("keyup", (e) => {
    const name = held.get(e.key);
    if (!name) return;
    held.delete(e.key);
    game.buttons[name].set(false);
  });
  window.addEventListener("blur", () => {
    // A key let go in another window sends no keyup here: nothing stays held.
    for (const [key, name] of held) game.buttons[name].set(false), held.delete(key);
  });
}

// -- flash: localStorage -----------------------------------------------------------------------

function restoreFiles(FS) {
  for (const name of FILES) {
    const text = localStorage.getItem(STORE + name);
    if (text !== null) FS.writeFile("/" + name, text);
  }
}

function saveFiles(FS) {
  for (const name of FILES) {
    let text = null;
    try { text = FS.readFile("/" + name, { encoding: "utf8" }); } catch { /* not written yet */ }
    if (text === null) localStorage.removeItem(STORE + name);
    else if (localStorage.getItem(STORE + name) !== text) localStorage.setItem(STORE + name, text);
  }
}

function startFresh() {
  for (const name of FILES) localStorage.removeItem(STORE + name);
  game.fresh = true; // pagehide must not write them back
  location.reload();
}

// -- start -------------------------------------------------------------------------------------

function unbundle(buffer) {
  // firmware.bin (tools/web_build.py): b"OXO1", then per file: name length, name, size, bytes.
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== "OXO1") throw new Error("firmware.bin is not a bundle");
  const files = [];
  for (let k = 4; k < bytes.length;) {
    const n = bytes[k];
    const name = String.fromCharCode(...bytes.subarray(k + 1, k + 1 + n));
    const size = view.getUint32(k + 1 + n);
    k += 5 + n;
    files.push([name, bytes.subarray(k, k + size)]);
    k += size;
  }
  return files;
}

function step() {
  game.timer = 0;
  let wait;
  const now = performance.now();
  try {
    wait = game.page.step();
  } catch (err) {
    fail("the firmware stopped", err);
    return;
  }
  oxo.steps++;
  for (const button of Object.values(game.buttons)) button.step(now);
  const frame = game.page.frame();
  if (frame) showFrame(frame);
  playTones(game.page.tones(), game.page.now());
  game.timer = setTimeout(step, wait);
}

async function main() {
  const params = new URLSearchParams(location.search);
  const board = params.get("board") || localStorage.getItem(STORE + "board") || "pico";
  if (!BOARDS.includes(board)) {
    fail("no such board", `${board} (choose ${BOARDS.join(" or ")})`);
    return;
  }
  oxo.board = board;
  $("board").value = board;
  $("board").addEventListener("change", (e) => {
    localStorage.setItem(STORE + "board", e.target.value);
    const url = new URL(location.href);
    url.searchParams.set("board", e.target.value);
    location.href = url.href; // a new board powers on from nothing
  });
  setMuted(sound.muted);
  $("mute").addEventListener("click", () => setMuted(!sound.muted));
  $("fresh").addEventListener("click", startFresh);
  fitCanvas();
  new ResizeObserver(fitCanvas).observe(canvas.parentElement);

  const bundle = fetch("firmware.bin").then((r) => {
    if (!r.ok) throw new Error(`firmware.bin: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const mp = await loadMicroPython({
    heapsize: HEAP,
    stdout: (line) => console.log(line),
    stderr: (line) => console.log(line),
  });
  oxo.mp = mp;
  mp.FS.mkdir(LIB);
  for (const [name, data] of unbundle(await bundle)) mp.FS.writeFile(`${LIB}/${name}`, data);
  restoreFiles(mp.FS);
  game.page = mp.pyimport("oxoweb").Page(board);
  wireInput();
  setInterval(() => game.fresh || saveFiles(mp.FS), 250); // not after Start fresh
  window.addEventListener("pagehide", () => { if (!game.fresh) saveFiles(mp.FS); });
  say(`Running the ${board} firmware.`);
  step();
}

main().catch((err) => fail("could not start", err));
