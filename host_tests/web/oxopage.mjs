// What the web page's checks share: loading the page, reading its glass and canvas, the golden
// screens, pressing its buttons and driving its menus.
// SPDX-License-Identifier: MIT
//
// The glass is read as the player reads it: text in framebuf's 8x8 font (drawn for the reader by
// the page's own MicroPython), the board's cells free, marked or the cursor by their ink.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const GOLDEN = path.join(HERE, "..", "golden");
const GLASSTEXT = fs.readFileSync(path.join(HERE, "..", "..", "testbed", "glasstext.py"), "utf8");
export const W = 84;
export const H = 48;
export const RESULTS = ["WIN!", "LOST", "DRAW"];
// testbed/glasslook.py: (gap, cell, ink) with the backlight on and off, at the default contrast.
export const LIT = ["#b9cc7e", "#adc173", "#1f2b1b"];
export const UNLIT = ["#939e7c", "#8a9574", "#222820"];

// Runs in the page before its scripts (addInitScript, which sends its source, not its closure):
// window.oxoRead reads window.oxo. `glasstext`: testbed/glasstext.py's source.
function installReader(glasstext) {
  const W = 84, H = 48;
  let font = null; // framebuf's 8x8 font: {hex of a character's 8 MONO_VLSB columns: char}
  const pixel = (g, x, y) =>
    x < 0 || y < 0 || x >= W || y >= H ? 0 : (g[(y >> 3) * W + x] >> (y & 7)) & 1;

  function loadFont() {
    if (font) return font;
    window.oxo.mp.runPython([
      "import binascii, framebuf",
      "def _oxoread_font():",
      "    cell = bytearray(8)",
      "    fb = framebuf.FrameBuffer(cell, 8, 8, framebuf.MONO_VLSB)",
      "    out = []",
      "    for code in range(32, 127):",
      "        fb.fill(0)",
      "        fb.text(chr(code), 0, 0, 1)",
      "        out.append(binascii.hexlify(cell).decode())",
      "    return ' '.join(out)",
      "_oxoread_font = _oxoread_font()",
    ].join("\n"));
    const hexes = window.oxo.mp.globals.get("_oxoread_font").split(" ");
    // Reversed: of two characters drawn alike, the first is read.
    font = new Map(hexes.map((hex, i) => [hex, String.fromCharCode(32 + i)]).reverse());
    return font;
  }

  // The character of the 8x8 font whose cell has its top left at (x, y), or "?".
  function charAt(g, x, y, inverted) {
    let hex = "";
    for (let c = 0; c < 8; c++) {
      let b = 0;
      for (let r = 0; r < 8; r++) b |= (pixel(g, x + c, y + r) ^ (inverted ? 1 : 0)) << r;
      hex += b.toString(16).padStart(2, "0");
    }
    return loadFont().get(hex) ?? "?";
  }

  function text(g, x, y, n, inverted = false) {
    let s = "";
    for (let k = 0; k < n; k++) s += charAt(g, x + 8 * k, y, inverted);
    return s;
  }

  // screens.py: STATUS_X 52, ROW_Y (0, 10, 22, 31, 40); the turn's text follows a mark.
  function status(g = window.oxo.glass) {
    return {
      result: text(g, 52, 0, 4), turn: text(g, 60, 0, 3), label: text(g, 52, 10, 4),
      tally: [22, 31, 40].map((y) => text(g, 52, y, 4)),
    };
  }

  // The board's cells (screens.board: 15-pixel cells at a pitch of 16): "." free, "#" the
  // cursor (the cell inverted), "m" a mark (some ink, less than half the cell).
  function cells(g = window.oxo.glass) {
    let out = "";
    for (let i = 0; i < 9; i++) {
      const x0 = (i % 3) * 16, y0 = Math.floor(i / 3) * 16;
      let ink = 0;
      for (let y = y0; y < y0 + 15; y++) for (let x = x0; x < x0 + 15; x++) ink += pixel(g, x, y);
      out += ink === 0 ? "." : ink > 112 ? "#" : "m";
    }
    return out;
  }

  // What the player can tell: the status column and the board.
  function state(g = window.oxo.glass) {
    const s = status(g);
    const board = cells(g);
    return { ...s, board, marks: board.split("m").length - 1, cursor: board.indexOf("#") };
  }

  // A menu (screens.menu_row): six 8-pixel rows, the label at x=1, the highlighted row inverted.
  function menu(g = window.oxo.glass) {
    const rows = [];
    let highlight = -1;
    for (let r = 0; r < 6; r++) {
      const inverted = pixel(g, 0, 8 * r) === 1;
      if (inverted) highlight = r;
      // The label from x=1; a value (Level, Start) ends at the right edge, 4 characters at most.
      const label = text(g, 1, 8 * r, 10, inverted).replace(/\?.*$/, "").trimEnd();
      rows.push({ label, value: text(g, 52, 8 * r, 4, inverted).trim() });
    }
    return { rows, highlight };
  }

  // Where the glass shows `s` in the firmware's small font: [x, y], or null; `inverted`: light
  // letters on ink (widgets.sign's bar). testbed/glasstext.py's find(), the MicroPython tests'
  // reader, run by the page's MicroPython (its source, `glasstext`, put in the page's /lib).
  function findSmall(s, g = window.oxo.glass, inverted = false) {
    const mp = window.oxo.mp;
    if (!mp.globals.get("_oxoread_small")) {
      mp.FS.writeFile("/lib/glasstext.py", glasstext);
      mp.runPython([
        "import binascii, glasstext",
        "def _oxoread_small(glass, s, inverted):",
        "    at = glasstext.find(binascii.unhexlify(glass), s, inverted == 1)",
        "    return '%d %d' % at if at else ''",
      ].join("\n"));
    }
    const hex = Array.from(g, (b) => b.toString(16).padStart(2, "0")).join("");
    const at = mp.globals.get("_oxoread_small")(hex, s, inverted ? 1 : 0);
    return at ? at.split(" ").map(Number) : null;
  }

  // How many device pixels of the canvas differ from `bits` (W * H, 1 ink; default the glass)
  // drawn as testbed/lcd_render.py draws it in the page's colours now: a dot of cell - 1 (the
  // whole cell under 3), a 1-pixel grid of gap that takes the ink between lit dots, a margin.
  function canvasDiffers(bits) {
    const { cell, margin, colours, glass: g } = window.oxo;
    const lit = bits ? (x, y) => x < W && y < H && bits[y * W + x] === 1
      : (x, y) => pixel(g, x, y) === 1;
    const canvas = document.getElementById("glass");
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    const rgb = colours.map((hex) => [1, 3, 5].map((k) => parseInt(hex.substr(k, 2), 16)));
    const dot = cell >= 3 ? cell - 1 : cell;
    let differ = 0;
    for (let py = 0; py < canvas.height; py++) {
      for (let px = 0; px < canvas.width; px++) {
        const x = Math.floor(px / cell) - margin, y = Math.floor(py / cell) - margin;
        const right = px % cell >= dot, below = py % cell >= dot; // on the grid
        let ink = x >= 0 && y >= 0 && x < W && y < H && lit(x, y);
        if (ink && right) ink = lit(x + 1, y) && (!below || lit(x + 1, y + 1));
        if (ink && below) ink = lit(x, y + 1);
        const inside = x >= 0 && y >= 0 && x < W && y < H && !right && !below;
        const want = rgb[ink ? 2 : inside ? 1 : 0];
        const at = 4 * (py * canvas.width + px);
        if (want.some((v, k) => v !== data[at + k])) differ++;
      }
    }
    return differ;
  }

  window.oxoRead = { text, status, cells, state, menu, canvasDiffers, findSmall };
}

// The first frame drawn and game.bin in (the firmware's next step waits for it): checks start
// there, so a fake clock's time moves the firmware on, never a download.
const READY = () => window.oxo && window.oxo.frames > 0 && window.oxo.cell > 0 &&
  window.oxo.loaded;

/** The page's context with the reader installed (a fresh one per check, or t.newContext). */
export async function withReader(context) {
  await context.addInitScript(installReader, GLASSTEXT);
  return context;
}

/**
 * Settings in the board's flash (web/flash.js: localStorage "oxo5110:settings.json") at every
 * load of the context's pages. `values`: settings.py keys; the firmware defaults the rest.
 */
export async function seedSettings(context, values) {
  await context.addInitScript((text) => {
    if (location.protocol === "http:") localStorage.setItem("oxo5110:settings.json", text);
  }, JSON.stringify(values)); // not on a new page's about:blank, which has no storage
  return context;
}

// A phone: 360x740 CSS px at 3 device pixels a CSS pixel, as a Galaxy S8 reports. Not a
// fractional ratio: Playwright emulates one by laying out in CSS pixels, so the canvas's box
// falls between device pixels, which a phone's browser (layout in device pixels) does not do.
export const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 3,
  isMobile: true, hasTouch: true };

/** The device's Coach setting on (and what its marks mean already told on the glass). */
export const COACH_ON = { coach: true, coach_told: true };

/**
 * Open index.html + `query` and wait until READY, in `page`, or in a new context made with
 * `context` (browser.newContext's options), its flash holding `settings` if given. `clock`: on
 * Playwright's fake clock (the port's ticks_ms reads Date.now()), paused after the first frame:
 * the firmware then steps only in page.clock.runFor() and at(). Not before: the boot waits on
 * the clock (sleep_ms busy-waits), so a reload needs page.clock.resume() first.
 */
export async function open(t, { page = t.page, context, settings, query = "", clock = false } =
  {}) {
  if (context) page = await (await t.newContext(context)).newPage();
  if (settings) await seedSettings(page.context(), settings);
  if (clock) await page.clock.install();
  await withReader(page.context());
  await page.goto(t.url("index.html" + query));
  await page.waitForFunction(READY);
  if (clock) await pause(page);
  return page;
}

// Pause the running fake clock a little ahead of the page's time, which runs on meanwhile: on
// a busy machine it may have passed that moment before the pause arrives, then again.
export async function pause(page) {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 200 * attempt);
      return;
    } catch (err) {
      if (attempt === 5 || !/to the past/.test(err.message)) throw err;
    }
  }
}

/**
 * On the paused clock: jump to `run` ms short of `ms` after the firmware's first step, then run
 * the rest. That step came after the script started (oxo.started), before the first frame
 * (oxo.firstFrame): `surely` "before" stops `ms` after the start, so every step saw under `ms`
 * gone; "past" runs `ms` after the first frame and on to the next step (steps are 10 ms apart,
 * so the last before the time may be short of it), which saw at least `ms` gone.
 */
export async function at(page, surely, ms, run = 100) {
  const past = surely === "past";
  const since = await page.evaluate(
    (past) => performance.now() - (past ? window.oxo.firstFrame : window.oxo.started),
    past,
  );
  const target = past ? ms : ms - 1;
  if (!past && since > target) throw new Error(`${since} ms gone, not under ${ms}`);
  if (target - run > since) await page.clock.fastForward(Math.round(target - run - since));
  await page.clock.runFor(Math.max(1, Math.round(Math.min(run, target - since))));
  if (past) await nextStep(page);
}

// Run the paused clock ms by ms until the firmware has taken one more step.
async function nextStep(page) {
  const steps = () => page.evaluate(() => window.oxo.steps);
  const before = await steps();
  for (let ms = 0; (await steps()) === before; ms++) {
    if (ms === 1000) throw new Error("the firmware took no step in 1 s of the page's clock");
    await page.clock.runFor(1);
  }
}

/** The files the server answered during this check, by name, in order (of `only` if given). */
export const served = (t, only = null) => t.requests.map((r) => r.path.split("/").pop())
  .filter((name) => !only || only.includes(name));

/** Do what loads another page (a click, a reload), then wait for it to be READY. */
export async function loads(page, action) {
  await Promise.all([page.waitForEvent("load"), action()]);
  await page.waitForFunction(READY);
}

/**
 * Wait (bounded) until fn(oxoRead[read](), arg, window.oxo) in the page is truthy; its value.
 * `polling`: every 5 ms (the page's setTimeout), or "raf" (at each frame it draws).
 */
export async function until(page, fn, { read = "state", timeout = 5000, arg, polling = 5 } = {}) {
  const handle = await page.waitForFunction(
    ({ src, read, arg }) => {
      const f = new Function("return " + src)();
      return f(window.oxoRead[read](), arg, window.oxo) || null;
    },
    { src: fn.toString(), read, arg },
    { polling, timeout },
  );
  return handle.jsonValue();
}

// Half blocks: a character holds two pixels, the top one its high bit.
const BLOCKS = " ▄▀█";

/** A golden screen (host_tests/golden/<name>.txt, half blocks) as 4032 bits, 1 ink. */
export function golden(name) {
  const lines = fs.readFileSync(path.join(GOLDEN, name + ".txt"), "utf8").split("\n");
  const rows = lines.filter((l) => l.startsWith("|")).map((l) => [...l.slice(1, -1)]);
  const blocks = (r) => r.length === W && r.every((ch) => BLOCKS.includes(ch));
  if (rows.length !== H / 2 || !rows.every(blocks)) {
    throw new Error(`${name}.txt is not ${W}x${H} in half blocks`);
  }
  const bits = new Array(W * H);
  rows.forEach((row, r) => row.forEach((ch, x) => {
    const k = BLOCKS.indexOf(ch);
    bits[2 * r * W + x] = k >> 1;
    bits[(2 * r + 1) * W + x] = k & 1;
  }));
  return bits;
}

// The picture whose pixel (x, y) is ink(x, y) (1 ink) as half-block text.
const asText = (ink) => Array.from({ length: H / 2 }, (_, r) => "|" + Array.from({ length: W },
  (_, x) => BLOCKS[2 * ink(x, 2 * r) + ink(x, 2 * r + 1)]).join("") + "|").join("\n");

/**
 * Wait (bounded) until the canvas shows golden screen `name` (a blink may hide part of it for
 * 400 ms), every device pixel as lcd_render.py draws it (canvasDiffers); fail showing both if
 * not. `clock`: on the paused clock, running it meanwhile.
 */
export async function canvasShows(t, page, name, { clock = false } = {}) {
  const want = golden(name);
  let differ;
  for (let k = 0; k < 40; k++) {
    differ = await page.evaluate((bits) => window.oxoRead.canvasDiffers(bits), want);
    if (differ === 0) return;
    if (clock) await page.clock.runFor(50);
    else await page.waitForTimeout(50);
  }
  // What the firmware drew (the runner's screenshot shows the canvas).
  const got = await page.evaluate(() => Array.from(window.oxo.glass));
  t.log(`the glass, whose canvas has ${differ} device pixels unlike ${name}.txt as drawn:\n` +
    asText((x, y) => (got[(y >> 3) * W + x] >> (y & 7)) & 1));
  t.log(`golden ${name}.txt:\n${asText((x, y) => want[y * W + x])}`);
  t.assert.fail(`the canvas does not show ${name} (${differ} device pixels differ)`);
}

/**
 * The files of a bundle (tools/web_build.py: b"OXO1", then per file a name length, the name, a
 * 4-byte big-endian size and the bytes), a Buffer: [[name, bytes]], the bytes a view into it.
 */
export function bundleFiles(data) {
  const files = [];
  for (let k = 4; k < data.length;) {
    const n = data[k];
    const name = data.subarray(k + 1, k + 1 + n).toString("ascii");
    const size = data.readUInt32BE(k + 1 + n);
    k += 5 + n;
    files.push([name, data.subarray(k, k + size)]);
    k += size;
  }
  return files;
}

/** The page's on-screen button `name` (PREV, SELECT, NEXT), and a click on it. */
export const key = (page, name) => page.locator(`.key[data-button="${name}"]`);
export const press = (page, name) => key(page, name).click();

/** What oxoRead[what]() reads now (state, status, menu, canvasDiffers, ...). */
export const read = (page, what) => page.evaluate((what) => window.oxoRead[what](), what);

/** until() on the menu: fn(menu, arg). */
export const menu = (page, fn, arg) => until(page, fn, { read: "menu", arg });

// Until the glass shows a menu with the row `label` highlighted: a board read as a menu may
// seem to have a highlight (a grid line at a row's top), never that label.
export const highlighted = (page, label) => menu(page, (m, label) =>
  (m.highlight >= 0 && m.rows[m.highlight].label === label ? m : null), label);

// The menu on the glass (wait for it first: highlighted()): press `key` (NEXT or PREV) until
// its highlighted row's label starts with `label`.
export async function choose(page, label, key = "NEXT") {
  const at = (m) => (m.highlight >= 0 ? m.rows[m.highlight].label : "");
  let m = await menu(page, (m) => (m.highlight >= 0 ? m : null));
  for (let k = 0; !at(m).startsWith(label); k++) {
    if (k > 8) throw new Error(`no ${label} in the menu: ${JSON.stringify(m)}`);
    await press(page, key);
    m = await menu(page, (m, was) => (m.highlight >= 0 && m.rows[m.highlight].label !== was ?
      m : null), at(m));
  }
}

/** From the title (any press opens the menu): the row `label`, reached with `key`, chosen. */
export async function fromTitle(page, label, key = "NEXT") {
  await press(page, "SELECT");
  await highlighted(page, "1P vs CPU");
  await choose(page, label, key);
  await press(page, "SELECT");
}

// Conditions for until() on oxoRead.state() (sent to the page as source: self-contained).
// The player's turn, the cursor showing.
export const YOUR_TURN = (s) => (s.turn === "YOU" && s.cursor >= 0 ? s : null);
// The CPU answered the move made on a board of `marks` marks (two more now), or the game ended.
export const ANSWERED = (s, marks) => ((s.turn === "YOU" && s.cursor >= 0 &&
  s.marks >= marks + 2) || ["WIN!", "LOST", "DRAW"].includes(s.result) ? s : null);
// The cursor left cell `was`.
export const MOVED = (s, was) => (s.cursor >= 0 && s.cursor !== was ? s : null);
