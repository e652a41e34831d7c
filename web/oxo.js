// oxo5110 in a browser: the board's firmware on MicroPython WebAssembly, stepped by this page.
// SPDX-License-Identifier: MIT
//
// What the page adds to the firmware, and nothing more (oxoweb.py is its MicroPython half): the
// loop (here: main.py's would freeze the tab, as the port's sleep_ms busy-waits, so a timer
// calls Page.step() and waits the ms it returns), the glass (glass.js), the buttons
// (buttons.js), the buzzer (buzzer.js), flash in localStorage (flash.js), the coach and the tree
// explorer rendered (coach.js, explorer.js) and link play between tabs (tabcable.js).
// firmware.bin holds the boot to the title (and the error screen); game.bin, the rest of the
// game, comes after the first frame, the coach's and the explorer's code when first used
// (tools/web_build.py BUNDLES).
import { loadMicroPython } from "./micropython.mjs";
import { Buttons } from "./buttons.js";
import { Buzzer } from "./buzzer.js";
import { Flash, store } from "./flash.js";
import { GLASS_BYTES, Glass, MARGIN } from "./glass.js";

const BOARDS = ["pico", "esp32"];
const LIB = "/lib"; // on the port's sys.path
const HEAP = 512 * 1024; // the firmware plays in ~50 KB (a Pico has 240 KB); room for the page
const SAVE_EVERY_MS = 250; // the flash files are copied to localStorage this often
const FRESH_CONFIRM_MS = 4000; // Start fresh asks again; a second click within this does it

const $ = (id) => document.getElementById(id);
const statusLine = $("status");

// What tests and benchmarks read (window.oxo), never needed to play. `loaded`: game.bin is in.
// `coach`: the last measures of coach.js and explorer.js (bench_web_coach.mjs).
const oxo = {
  board: null, steps: 0, frames: 0, cell: 0, margin: MARGIN, glass: null, colours: null,
  lit: false, showing: false, tones: 0, error: null, started: performance.now(),
  firstFrame: null, lastFrame: null, lastPress: null, loaded: false,
  coach: { scores: null, expand: null, measures: 0 },
};
window.oxo = oxo;

const glass = new Glass($("glass"), oxo);
const buzzer = new Buzzer(oxo);
const flash = new Flash();
const game = { page: null, timer: 0, buttons: null, saver: 0, rest: null };
// The coach's grid (coach.js's Grid) once the device first has scores, the explorer once it is
// first opened (each a promise in `loading` meanwhile); the coach's last answer and its root.
const coach = { grid: null, answer: null, asked: 0, py: 0, root: [0, 1], explorer: null,
  loading: {} };

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

function startFresh(e) {
  const button = $("fresh");
  if (e.detail > 1) return; // a double-click asks once, as Enter held does (main)
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

function unbundle(buffer, name) {
  // A bundle (tools/web_build.py): b"OXO1", then per file: name length, name, size, bytes.
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== "OXO1") throw new Error(`${name} is not a bundle`);
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

async function fetchBundle(name) {
  const response = await fetch(name);
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// The bundle's modules into the port's filesystem, where its imports find them.
async function install(mp, bundle, name) {
  for (const [file, data] of unbundle(await bundle, name)) mp.FS.writeFile(`${LIB}/${file}`, data);
}

function step() {
  game.timer = 0;
  if (oxo.steps > 0 && !oxo.loaded) return; // after the first frame: once game.bin is in
  let wait;
  const now = performance.now();
  try {
    wait = game.page.step();
    oxo.steps++;
    game.buttons.stepped(now);
    const frame = game.page.frame();
    if (frame) showFrame(frame);
    buzzer.play(game.page.tones(), game.page.now());
    coachStepped();
  } catch (err) {
    fail("the firmware stopped", err);
    return;
  }
  game.timer = setTimeout(step, wait);
}

// Bytes came from the other tab of link play. A hidden tab's timers run late (once a second,
// once a minute after 5 minutes hidden in Chromium), its messages do not: the firmware steps
// at once, reading them, as a board's loop would have.
function came() {
  if (!document.hidden || !game.timer || oxo.error) return;
  clearTimeout(game.timer);
  step();
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
  $("fresh").addEventListener("keydown", (e) => e.repeat && e.preventDefault());
  glass.fit();
  new ResizeObserver(() => glass.fit()).observe($("glass").parentElement);

  const bundle = fetchBundle("firmware.bin");
  const mp = await loadMicroPython({
    heapsize: HEAP,
    stdout: (line) => console.log(line),
    stderr: (line) => console.log(line),
  });
  oxo.mp = mp;
  mp.FS.mkdir(LIB);
  await install(mp, bundle, "firmware.bin");
  flash.restore(mp.FS);
  game.page = mp.pyimport("oxoweb").Page(board);
  game.buttons = new Buttons(game.page, oxo, buzzer);
  game.buttons.wire();
  $("explorer").addEventListener("toggle", explorerToggled);
  game.saver = setInterval(() => flash.save(), SAVE_EVERY_MS);
  window.addEventListener("pagehide", () => flash.save());
  step(); // the first frame
  if (problem) say(problem, true);
  // The rest of the game (the screens after the title, the engine, the coach), fetched now:
  // the firmware's next step waits for it (a press meanwhile stays on its pin until a step
  // has seen it: buttons.js).
  // With it, link play's cable to another tab (tabcable.js), plugged before that next step.
  game.rest = Promise.all([install(mp, fetchBundle("game.bin"), "game.bin"),
    import("./tabcable.js")]).then(([, { TabCable }]) => game.page.plug(new TabCable(oxo, came)));
  await game.rest;
  oxo.loaded = true;
  if (!oxo.error && !game.timer) step();
}

// -- the coach beside the glass and the tree explorer ------------------------------------------

// After each step of the firmware: the coach's answer, when it changed (oxoweb.Page.coach).
// Until the device first has scores the grid stays as index.html has it (no scores) and only
// its words change; then coach.js comes and draws every answer.
function coachStepped() {
  const asked = performance.now();
  const text = game.page.coach();
  if (text === null || text === undefined) return;
  coach.py = performance.now() - asked;
  coach.asked = asked;
  const answer = coach.answer = JSON.parse(text);
  if (coach.grid) {
    coach.grid.show(answer, coach.py, asked);
  } else if (answer.marks) {
    loadPart("grid", loadGrid, (why) => { $("coach-why").textContent = `The coach's grid ${why}`; });
  } else if (!coach.loading.grid) {
    $("coach-why").textContent = answer.why || answer.note || "";
  }
  const [board, player] = answer.root;
  if (board !== coach.root[0] || player !== coach.root[1]) {
    coach.root = answer.root;
    if (coach.explorer) coach.explorer.show(coach.root);
  }
}

// Load a part of the page (`load`) unless it is loading; if it fails, `tell` says so and the
// next need tries again.
function loadPart(part, load, tell) {
  coach.loading[part] ||= load().catch((err) => {
    coach.loading[part] = null;
    tell(`could not load: ${err.message || err}`);
    console.error(err);
  });
}

async function loadGrid() {
  const { Grid } = await import("./coach.js");
  coach.grid = new Grid(oxo);
  coach.grid.show(coach.answer, coach.py, coach.asked); // the latest answer by now
}

// The explorer opened or closed; opened the first time, its code comes (explorer.js, and
// coachtree.py in explorer.bin, which imports the engine and the coach from game.bin).
function explorerToggled(e) {
  const details = $("explorer");
  if (e.target !== details || !details.open) return;
  if (coach.explorer) coach.explorer.show(coach.root);
  else loadPart("explorer", () => loadExplorer(details), (why) => say(`The explorer ${why}`, true));
}

async function loadExplorer(details) {
  const [{ Explorer }] = await Promise.all([import("./explorer.js"),
    install(oxo.mp, fetchBundle("explorer.bin"), "explorer.bin"), game.rest]);
  coach.explorer = new Explorer(game.page, oxo, details);
  coach.explorer.show(coach.root);
}

main().catch((err) => fail("could not start", err));
