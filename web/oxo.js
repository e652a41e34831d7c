// oxo5110 in a browser: the board's firmware on MicroPython WebAssembly, stepped by this page.
// SPDX-License-Identifier: MIT
//
// What the page adds to the firmware, and nothing more (oxoweb.py is its MicroPython half):
// - the loop: main.py's blocking loop would freeze the tab (the port's sleep_ms busy-waits), so
//   a timer calls Page.step(), one App.step(), and waits the ms it returns;
// - the glass: the PCD8544 controller model's picture, drawn cell by cell in the module's
//   colours (backlight, contrast) at a whole number of device pixels per LCD pixel;
// - the buttons: on-screen keys (mouse, touch, keyboard) set the board's button pins, in order,
//   each level held until the firmware has seen it;
// - the buzzer: what the PWM played, as a square wave in WebAudio;
// - flash: settings.json and error.log live in localStorage.
import { loadMicroPython } from "./micropython.mjs";

const BOARDS = ["pico", "esp32"];
const FILES = ["settings.json", "error.log"]; // what the board keeps on its flash
const STORE = "oxo5110:"; // localStorage key prefix
const LIB = "/lib"; // on the port's sys.path
const HEAP = 512 * 1024; // the firmware plays in ~50 KB (a Pico has 240 KB); room for the page
// A press or release must last past the firmware's debounce, counted from the poll that saw it
// (buttons.py ignores the pin for debounce_ms after an edge it saw), and at least this long:
const LEVEL_MIN_MS = 50;
// A letter's hold outlasts what the firmware acts on (SELECT's long press, PREV/NEXT's first
// repeat) by this much, as the simulator's do (tools/simulator.py HOLD_SPARE_MS).
const HOLD_SPARE_MS = 50;
const QUEUE_MAX = 32; // levels waiting (16 presses, ~1.6 s); more are dropped
const KEYS = {
  ArrowLeft: "PREV", ArrowUp: "PREV", ArrowRight: "NEXT", ArrowDown: "NEXT",
  " ": "SELECT", Enter: "SELECT",
};
const LETTERS = { h: "SELECT", u: "PREV", p: "NEXT" };
const WIDTH = 84, HEIGHT = 48, MARGIN = 2; // glass pixels; MARGIN of empty glass around them
const VOLUME = 0.06; // a piezo is not loud
const AUDIO_AHEAD_S = 0.03; // notes are scheduled this far ahead, keeping their spacing
const FRESH_CONFIRM_MS = 4000; // Start fresh asks again; a second click within this does it

const $ = (id) => document.getElementById(id);
const statusLine = $("status");
const canvas = $("glass");
const ctx2d = canvas.getContext("2d", { alpha: false });

// What tests and benchmarks read (window.oxo): the page's state, never needed to play.
const oxo = {
  board: null, steps: 0, frames: 0, cell: 0, margin: MARGIN, glass: null, colours: null,
  lit: false, showing: false, tones: 0, error: null, started: performance.now(),
  firstFrame: null, lastFrame: null, lastPress: null, dropped: 0,
};
window.oxo = oxo;

const game = { page: null, timer: 0, buttons: {}, stopped: false, fresh: false, saver: 0 };

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

function fail(what, err) {
  oxo.error = `${what}: ${err && err.message ? err.message : err}`;
  game.stopped = true;
  clearTimeout(game.timer);
  silence();
  say(oxo.error, true);
  console.error(oxo.error);
}

// -- localStorage, which may be refused (privacy settings) or full -----------------------------

const store = {
  ok: true, // false once the browser refused: the page plays, and says nothing will be kept
  memory: new Map(),
  get(key) {
    try { return localStorage.getItem(STORE + key); } catch { return this.refused(key); }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(STORE + key);
      else localStorage.setItem(STORE + key, value);
      return;
    } catch { this.refused(); }
    if (value === null) this.memory.delete(key); else this.memory.set(key, value);
  },
  refused(key) {
    if (this.ok) {
      this.ok = false;
      oxo.storage = "refused";
    }
    return key === undefined ? null : this.memory.get(key) ?? null;
  },
};

// -- the glass ---------------------------------------------------------------------------------

function fitCanvas() {
  const dpr = window.devicePixelRatio || 1;
  const box = getComputedStyle(canvas.parentElement);
  const room = canvas.parentElement.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
  const cell = Math.max(2, Math.floor(((room || 336) * dpr) / (WIDTH + 2 * MARGIN)));
  if (cell === oxo.cell && dpr === oxo.dpr) return;
  oxo.cell = cell;
  oxo.dpr = dpr;
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
  // "lit showing gap cell ink hex" (oxoweb.Page.frame): the backlight, whether the display is
  // powered, the module's colours now and the 504 glass bytes.
  const [lit, showing, gap, paper, ink, hex] = frame.split(" ");
  const glass = new Uint8Array(504);
  for (let i = 0; i < 504; i++) glass[i] = parseInt(hex.substr(2 * i, 2), 16);
  oxo.glass = glass;
  oxo.colours = [gap, paper, ink];
  oxo.lit = lit === "1";
  drawGlass();
  $("bezel").classList.toggle("lit", oxo.lit);
  if ((showing === "1") !== oxo.showing || oxo.frames === 0) {
    oxo.showing = showing === "1";
    if (!oxo.error) say(oxo.showing ? running() : "The display is asleep: press a button to wake it.");
  }
  oxo.frames++;
  oxo.lastFrame = performance.now();
  if (oxo.firstFrame === null) {
    oxo.firstFrame = oxo.lastFrame;
    performance.mark("oxo-first-frame");
  }
}

function running() {
  const kept = store.ok ? "" : " This browser refuses storage: settings and score will not be kept.";
  return `Running the ${oxo.board} firmware.${kept}`;
}

// -- the buzzer --------------------------------------------------------------------------------

const sound = { muted: false, ctx: null, osc: null, gain: null };

function startAudio() {
  // Browsers start audio only from a user gesture: the first press makes the context, and
  // each later one resumes it if the browser suspended it.
  if (!window.AudioContext) return;
  if (sound.ctx) {
    if (sound.ctx.state === "suspended" && !document.hidden) sound.ctx.resume();
    return;
  }
  const ctx = new AudioContext();
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "square"; // a piezo driven by PWM at 50 % duty
  gain.gain.value = 0;
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  Object.assign(sound, { ctx, osc, gain });
}

function silence() {
  if (!sound.ctx) return;
  const now = sound.ctx.currentTime;
  sound.gain.gain.cancelScheduledValues(now);
  sound.gain.gain.setValueAtTime(0, now);
}

function playTones(lines, nowMs) {
  // "ms hz duty_u16" per change of the buzzer's PWM (oxoweb.Page.tones): duty 0 is silence.
  if (!lines) return;
  for (const line of lines.split("\n")) {
    const [ms, hz, duty] = line.split(" ").map(Number);
    oxo.tones++;
    if (sound.muted || !sound.ctx || document.hidden) continue;
    const t = Math.max(sound.ctx.currentTime,
      sound.ctx.currentTime + AUDIO_AHEAD_S + (ms - nowMs) / 1000);
    const on = hz > 0 && duty > 0 && duty < 65535;
    if (on) sound.osc.frequency.setValueAtTime(hz, t);
    sound.gain.gain.setValueAtTime(on ? VOLUME : 0, t);
  }
}

function setMuted(muted) {
  sound.muted = muted;
  store.set("muted", muted ? "1" : "0");
  $("mute").setAttribute("aria-pressed", String(muted));
  if (muted) silence();
}

// -- the buttons -------------------------------------------------------------------------------

class Button {
  // The board's pin of one button. Levels asked for (a press, a release, a letter's hold) are
  // applied in order, each kept until the firmware has surely seen it: a step ran at least
  // debounce_ms (or the hold's length) after the first step that polled it. Timers alone would
  // cut a level short whenever a step runs late (a busy tab), merging two presses or making a
  // hold a click.
  constructor(name) {
    this.name = name;
    this.down = false; // the level the firmware's pin has
    this.keep = 0; // ms the level must be polled for (from its first poll)
    this.since = -Infinity; // when it took that level (performance.now())
    this.seen = null; // when the first step after the change ran
    this.polled = null; // when the latest step ran
    this.el = document.querySelector(`[data-button="${name}"]`);
  }

  settled(now) {
    if (this.since === -Infinity) return true; // released since power-on
    return now - this.since >= LEVEL_MIN_MS && this.seen !== null &&
      this.polled - this.seen >= Math.max(this.keep, game.debounceMs);
  }

  apply(down, keep) {
    this.down = down;
    this.keep = keep;
    this.since = performance.now();
    this.seen = this.polled = null;
    this.el.classList.toggle("down", down);
    game.page.press(this.name, down);
    oxo.lastPress = this.since;
  }

  stepped(now) {
    if (this.seen === null) this.seen = now;
    this.polled = now;
  }
}

const input = {
  queue: [], // [button name, down, ms to keep it polled], in order of the events
  timer: 0,

  push(name, down, keep = 0) {
    if (this.queue.length >= QUEUE_MAX) { oxo.dropped++; return; }
    this.queue.push([name, down, keep]);
    this.pump();
  },

  // The level the button will have once the queue is applied.
  last(name) {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i][0] === name) return this.queue[i][1];
    return game.buttons[name].down;
  },

  pump() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (game.stopped) return;
    const now = performance.now();
    // One queue for all buttons: a letter's hold ends before the next key's press begins, as
    // in the simulator. A level the button already has only adds its hold time.
    while (this.queue.length) {
      const [name, down, keep] = this.queue[0];
      const button = game.buttons[name];
      if (down === button.down && !keep) { this.queue.shift(); continue; }
      if (!button.settled(now)) {
        this.timer = setTimeout(() => this.pump(), 5);
        return;
      }
      this.queue.shift();
      button.apply(down, keep);
    }
  },
};

function press(name, ms) {
  // A letter: `name` held for ms from the poll that sees it, then let go.
  input.push(name, true, ms);
  input.push(name, false);
}

function wireInput() {
  const [debounceMs, longMs, repeatDelayMs] = game.page.timing().split(" ").map(Number);
  game.debounceMs = debounceMs;
  const holdMs = { SELECT: longMs + HOLD_SPARE_MS, PREV: repeatDelayMs + HOLD_SPARE_MS,
    NEXT: repeatDelayMs + HOLD_SPARE_MS };
  for (const name of ["PREV", "NEXT", "SELECT"]) game.buttons[name] = new Button(name);
  for (const button of Object.values(game.buttons)) {
    const el = button.el, name = button.name;
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault(); // no focus, no text selection, no emulated mouse events
      el.setPointerCapture(e.pointerId);
      startAudio();
      input.push(name, true);
    });
    const release = () => { if (input.last(name)) input.push(name, false); };
    el.addEventListener("pointerup", release);
    el.addEventListener("pointercancel", release);
    el.addEventListener("lostpointercapture", release);
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a hold
    el.addEventListener("click", (e) => e.preventDefault()); // the keyboard handler presses
  }
  // Mouse clicks on the page's own controls leave no focus behind, so that the game's keys
  // (arrows, space, enter) go on reaching the game; Tab still reaches them.
  for (const el of document.querySelectorAll(".options button, .options a")) {
    el.addEventListener("mousedown", (e) => e.preventDefault());
  }
  const held = new Map(); // key -> button held by it
  window.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // The page's own controls keep their keys (Enter on a link or a button, Tab).
    if (e.target.closest("input, textarea, select, a, summary, button:not(.key)")) return;
    // Enter or space on a focused key (reached with Tab) presses that key.
    const focused = e.target.closest(".key");
    const own = focused && (e.key === " " || e.key === "Enter") ? focused.dataset.button : null;
    const name = own || KEYS[e.key];
    const letter = LETTERS[e.key.toLowerCase()];
    if (!name && !letter) return;
    e.preventDefault();
    if (e.repeat) return; // auto-repeat: the firmware makes its own repeat and long press
    startAudio();
    if (!name) {
      press(letter, holdMs[letter]);
    } else if (!held.has(e.key)) {
      held.set(e.key, name);
      input.push(name, true);
    }
  });
  window.addEventListener("keyup", (e) => {
    const name = held.get(e.key);
    if (!name) return;
    held.delete(e.key);
    input.push(name, false);
  });
  const letGo = () => {
    // A key let go in another window sends no keyup here: nothing stays held.
    for (const [key, name] of held) held.delete(key), input.push(name, false);
  };
  window.addEventListener("blur", letGo);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) return;
    letGo();
    silence(); // a hidden tab's timers run late: a note would sound on until the next step
  });
}

// -- flash: localStorage -----------------------------------------------------------------------

const synced = new Map(); // file -> its text as this tab last read or wrote it

function restoreFiles(FS) {
  for (const name of FILES) {
    const text = store.get(name);
    synced.set(name, text);
    if (text !== null) FS.writeFile("/" + name, text);
  }
}

function saveFiles(FS) {
  // Only what this tab's firmware changed: two tabs open do not undo each other's saves.
  if (game.fresh) return;
  for (const name of FILES) {
    let text = null;
    try { text = FS.readFile("/" + name, { encoding: "utf8" }); } catch { /* not written yet */ }
    if (text === synced.get(name)) continue;
    synced.set(name, text);
    store.set(name, text);
  }
}

function startFresh() {
  const button = $("fresh");
  if (!button.dataset.armed) {
    // Asked twice, as the firmware asks before it clears the score.
    button.dataset.armed = "1";
    button.textContent = "Forget settings and score?";
    setTimeout(() => { delete button.dataset.armed; button.textContent = "Start fresh"; },
      FRESH_CONFIRM_MS);
    return;
  }
  game.fresh = true; // nothing is saved any more, before the files go
  clearInterval(game.saver);
  for (const name of FILES) store.set(name, null);
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
    oxo.steps++;
    for (const button of Object.values(game.buttons)) button.stepped(now);
    const frame = game.page.frame();
    if (frame) showFrame(frame);
    playTones(game.page.tones(), game.page.now());
  } catch (err) {
    fail("the firmware stopped", err);
    return;
  }
  game.timer = setTimeout(step, wait);
}

function chooseBoard() {
  // ?board= names it (the links of the page set it); a bad one is said, and pico runs.
  const asked = new URLSearchParams(location.search).get("board");
  for (const link of document.querySelectorAll("[data-board]")) {
    link.setAttribute("aria-current", String(link.dataset.board === (asked || "pico")));
  }
  if (asked === null || BOARDS.includes(asked)) return [asked || "pico", null];
  return ["pico", `There is no board "${asked}" (choose ${BOARDS.join(" or ")}): running pico.`];
}

async function main() {
  const [board, problem] = chooseBoard();
  oxo.board = board;
  setMuted(store.get("muted") === "1");
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
  game.saver = setInterval(() => saveFiles(mp.FS), 250);
  window.addEventListener("pagehide", () => saveFiles(mp.FS));
  step();
  if (problem) say(problem, true);
}

main().catch((err) => fail("could not start", err));
