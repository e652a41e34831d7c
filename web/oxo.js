// oxo5110 in a browser: the board's firmware on MicroPython WebAssembly, stepped by this page.
// SPDX-License-Identifier: MIT
//
// What the page adds to the firmware, and nothing more (oxoweb.py is its MicroPython half):
// - the loop (here): main.py's blocking loop would freeze the tab (the port's sleep_ms
//   busy-waits), so a timer calls Page.step(), one App.step(), and waits the ms it returns;
// - the glass (glass.js): the PCD8544 controller model's picture in the module's colours;
// - the buttons (buttons.js): on-screen keys, touch and keyboard set the board's button pins;
// - the buzzer (buzzer.js): what the PWM played, as a square wave in WebAudio;
// - flash (flash.js): settings.json and error.log live in localStorage;
// - the coach and the tree explorer (coach.js): what oxoweb.py's Page computes, rendered.
import { loadMicroPython } from "./micropython.mjs";
import { Buttons } from "./buttons.js";
import { Buzzer } from "./buzzer.js";
import { Coach } from "./coach.js";
import { Flash, store } from "./flash.js";
import { GLASS_BYTES, Glass, MARGIN } from "./glass.js";

const BOARDS = ["pico", "esp32"];
const LIB = "/lib"; // on the port's sys.path
const HEAP = 512 * 1024; // the firmware plays in ~50 KB (a Pico has 240 KB); room for the page
const SAVE_EVERY_MS = 250; // the flash files are copied to localStorage this often
const FRESH_CONFIRM_MS = 4000; // Start fresh asks again; a second click within this does it

const $ = (id) => document.getElementById(id);
const statusLine = $("status");

// What tests and benchmarks read (window.oxo): the page's state, never needed to play.
const oxo = {
  board: null, steps: 0, frames: 0, cell: 0, margin: MARGIN, glass: null, colours: null,
  lit: false, showing: false, tones: 0, error: null, started: performance.now(),
  firstFrame: null, lastFrame: null, lastPress: null, dropped: 0,
};
window.oxo = oxo;

const glass = new Glass($("glass"), oxo);
const buzzer = new Buzzer(oxo);
const flash = new Flash();
const game = { page: null, timer: 0, buttons: null, saver: 0, coach: null };

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

function fail(what, err) {
  oxo.error = `${what}: ${err && err.message ? err.message : err}`;
  clearTimeout(game.timer);
  if (game.buttons) game.buttons.stop();
  buzzer.silence();
  say(oxo.error, true);
  console.error(oxo.error);
}

function showFrame(frame) {
  // "lit showing gap cell ink hex" (oxoweb.Page.frame): the backlight, whether the display is
  // powered, the module's colours now and the 504 glass bytes.
  const [lit, showing, gap, paper, ink, hex] = frame.split(" ");
  const bytes = new Uint8Array(GLASS_BYTES);
  for (let i = 0; i < GLASS_BYTES; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  oxo.lit = lit === "1";
  glass.show(bytes, [gap, paper, ink]);
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

function setMuted(muted) {
  buzzer.setMuted(muted);
  store.set("muted", muted ? "1" : "0");
  $("mute").setAttribute("aria-pressed", String(muted));
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
  clearInterval(game.saver);
  flash.forget();
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
    game.buttons.stepped(now);
    const frame = game.page.frame();
    if (frame) showFrame(frame);
    buzzer.play(game.page.tones(), game.page.now());
    game.coach.stepped();
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
  $("mute").addEventListener("click", () => setMuted(!buzzer.muted));
  $("fresh").addEventListener("click", startFresh);
  glass.fit();
  new ResizeObserver(() => glass.fit()).observe($("glass").parentElement);

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
  flash.restore(mp.FS);
  game.page = mp.pyimport("oxoweb").Page(board);
  game.buttons = new Buttons(game.page, oxo, buzzer);
  game.buttons.wire();
  game.coach = new Coach(game.page, oxo);
  game.saver = setInterval(() => flash.save(), SAVE_EVERY_MS);
  window.addEventListener("pagehide", () => flash.save());
  step();
  if (problem) say(problem, true);
}

main().catch((err) => fail("could not start", err));
