// What the web page adds to the firmware: the buzzer in WebAudio, the board option and the
// release links, a phone (its layout, the coach there, touch). Flash, timers: web_page.mjs.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_device).

import fs from "node:fs";
import path from "node:path";

import * as oxo from "./oxopage.mjs";
import { bestLine, expand, openExplorer } from "./coachcheck.mjs";

// -- sound ---------------------------------------------------------------------------------------

// Before the page's scripts: every AudioParam.setValueAtTime (the oscillator's frequency, its
// default 440 Hz, or the gain) and every AudioContext made.
function recordAudio() {
  const audio = (window.oxoAudio = { contexts: 0, calls: [] });
  const set = AudioParam.prototype.setValueAtTime;
  AudioParam.prototype.setValueAtTime = function (value, time) {
    audio.calls.push([this.defaultValue === 440 ? "hz" : "gain", value, time]);
    return set.call(this, value, time);
  };
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) {
      super(...args);
      audio.contexts++;
    }
  };
}

// host_tests/golden/sounds/<name>.txt: the frequencies the buzzer plays, in order, the rests
// (0 Hz) left out: what the oscillator gets.
function notes(name) {
  const text = fs.readFileSync(path.join(oxo.GOLDEN, "sounds", name + ".txt"), "utf8");
  const lines = text.split("\n").filter((line) => line && !line.startsWith("#"));
  return lines.map((line) => Number(line.split(" ")[1])).filter((hz) => hz > 0);
}

// On the paused clock: press `name`, let the firmware play for 400 ms (every sound but the
// jingles), and return the WebAudio calls made meanwhile and how many changes the buzzer made.
// A paused clock, as late steps skip notes (sound.py), and a busy machine makes steps late.
async function sound(page, name) {
  const tones = await page.evaluate(() => {
    window.oxoAudio.calls = [];
    return window.oxo.tones;
  });
  await oxo.press(page, name);
  await page.clock.runFor(400);
  return page.evaluate((tones) => [window.oxoAudio.calls, window.oxo.tones - tones], tones);
}

const hzOf = (calls) => calls.filter((c) => c[0] === "hz").map((c) => c[1]);

export async function test_sound_reaches_webaudio_and_stops_on_mute(t) {
  await t.context.addInitScript(recordAudio);
  const page = await oxo.open(t, { clock: true });
  await page.clock.runFor(500);
  // The power-on chime played in the firmware, but no gesture yet: no AudioContext.
  t.assert.ok(await page.evaluate(() => window.oxo.tones) > 0, "no chime");
  t.assert.deepEqual(await page.evaluate(() => window.oxoAudio), { contexts: 0, calls: [] });

  await oxo.press(page, "SELECT"); // the first press: the menu, and now audio
  await page.clock.runFor(400);
  t.assert.equal((await oxo.read(page, "menu")).highlight, 0);
  t.assert.equal(await page.evaluate(() => window.oxoAudio.contexts), 1);
  const [move] = await sound(page, "NEXT");
  t.assert.deepEqual(hzOf(move), notes("MOVE"));
  await sound(page, "NEXT"); // to Level
  const [place] = await sound(page, "SELECT"); // the Level steps
  t.log("PLACE:", JSON.stringify(place));
  t.assert.deepEqual(hzOf(place), notes("PLACE"));
  t.assert.ok(place.some((c) => c[0] === "gain" && c[1] > 0), "never audible");
  t.assert.deepEqual(place.at(-1).slice(0, 2), ["gain", 0]);

  // Muted in the middle of a sound (the Level steps again): the gain goes to 0 at once, and
  // the rest of the sound is not scheduled.
  const calls = () => page.evaluate(() => window.oxoAudio.calls);
  await page.evaluate(() => (window.oxoAudio.calls = []));
  await oxo.press(page, "SELECT");
  for (let k = 0; k < 40 && !(await calls()).some((c) => c[0] === "gain" && c[1] > 0); k++) {
    await page.clock.runFor(5);
  }
  const before = (await calls()).length;
  await page.locator("#mute").click();
  await page.clock.runFor(400);
  const after = (await calls()).slice(before).map((c) => c.slice(0, 2));
  t.assert.deepEqual(after, [["gain", 0]]);
  t.assert.ok(before < 6, `the mute came after the sound: ${before} calls`); // PLACE makes 6
  t.assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "true");
  // The firmware plays (the buzzer changes), WebAudio hears nothing of it.
  const silent = async (name, table) => {
    const [calls, played] = await sound(page, name);
    t.assert.deepEqual(calls, [], `${name} reached WebAudio, muted`);
    t.assert.ok(played >= notes(table).length, `${name}: the buzzer played ${played} changes`);
  };
  await silent("NEXT", "MOVE");
  await silent("SELECT", "PLACE");

  // The mute is kept. (The boot waits on the clock, as the board's sleep_ms busy-waits on the
  // port: the clock runs for the reload.)
  await page.clock.resume();
  await oxo.loads(page, () => page.reload());
  await oxo.pause(page);
  t.assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "true");
  await oxo.press(page, "SELECT");
  await page.clock.runFor(400);
  await silent("NEXT", "MOVE");
  t.assert.equal(await page.evaluate(() => window.oxoAudio.contexts), 1);
}

// -- the board option ----------------------------------------------------------------------------

const boardName = (page) => page.evaluate(() => {
  window.oxo.mp.runPython("import sys\n_oxo_board = sys.modules['board'].NAME");
  return window.oxo.mp.globals.get("_oxo_board");
});

// The board link the page marks as the one running.
const current = (page) =>
  page.locator('[data-board][aria-current="true"]').getAttribute("data-board");

export async function test_the_board_option_and_the_release_links(t) {
  const page = await oxo.open(t, { query: "?board=esp32" });
  t.assert.equal(await boardName(page), "esp32");
  t.assert.equal(await current(page), "esp32");
  t.assert.equal(await page.locator("#status").textContent(), "Running the esp32 firmware.");
  await oxo.press(page, "SELECT"); // it plays: the menu on a desktop, every device pixel
  await oxo.highlighted(page, "1P vs CPU");
  await oxo.canvasShows(t, page, "screens/menu");

  // The other board's link: the page powers it on, from nothing.
  await oxo.loads(page, () => page.locator('.boards a[data-board="pico"]').click());
  t.assert.match(page.url(), /[?&]board=pico\b/);
  t.assert.equal(await boardName(page), "pico");
  t.assert.equal(await current(page), "pico");

  // An unknown board: the status line says so, and the Pico runs.
  await oxo.loads(page, () => page.goto(t.url("index.html?board=nokia3310")));
  await page.waitForFunction(() => document.querySelector("#status.error"));
  const status = await page.locator("#status").textContent();
  t.assert.match(status, /There is no board "nokia3310" \(choose pico or esp32\)/);
  t.assert.equal(await boardName(page), "pico");

  // Off GitHub Pages the page cannot know where the releases are: the files' names are text,
  // and the README's Install section is named; on OWNER.github.io/REPO/ they link that
  // repository's.
  const flash = page.locator("#flash");
  t.assert.equal(await flash.locator("a").count(), 0);
  t.assert.match(await flash.textContent(), /oxo5110-pico\.uf2[\s\S]*oxo5110-esp32\.bin/);
  t.assert.match(await flash.textContent(), /README's Install section/);

  const site = t.url("");
  await page.route("https://someone.github.io/oxo5110/**", async (route) => {
    const tail = route.request().url().slice("https://someone.github.io/oxo5110/".length);
    await route.fulfill({ response: await page.request.get(site + tail) });
  });
  // The game runs there too, all of it in (game.bin comes after the first frame): no fetch of
  // the route's is left in flight when the check ends.
  await oxo.loads(page, () => page.goto("https://someone.github.io/oxo5110/index.html"));
  const links = await page.locator("#flash a").evaluateAll((all) => all.map((a) => a.href));
  const download = "https://github.com/someone/oxo5110/releases/latest/download/";
  t.assert.deepEqual(links, [download + "oxo5110-pico.uf2", download + "oxo5110-esp32.bin"]);
}

// -- a phone -------------------------------------------------------------------------------------

// How many device pixels of the canvas, in a screenshot of the page (decoded by the page), differ
// from what the canvas holds, the shot's box put at (left, top) or a device pixel off it, the
// best of those: 0 when the page shows the canvas unscaled, on whole device pixels. Not the
// `inset` device pixels at its edges, the glass's margin, whose corners the page rounds.
async function shownAsHeld(page, png, left, top, inset) {
  return page.evaluate(async ({ b64, left, top, inset }) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const image = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const shot = new OffscreenCanvas(image.width, image.height).getContext("2d");
    shot.drawImage(image, 0, 0);
    const canvas = document.getElementById("glass");
    const [w, h] = [canvas.width - 2 * inset, canvas.height - 2 * inset];
    const held = canvas.getContext("2d").getImageData(inset, inset, w, h).data;
    let best = Infinity;
    for (const [dx, dy] of [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => [dx, dy]))) {
      const shown = shot.getImageData(left + inset + dx, top + inset + dy, w, h).data;
      let differ = 0;
      for (let k = 0; k < held.length; k += 4) {
        if ([0, 1, 2].some((i) => shown[k + i] !== held[k + i])) differ++;
      }
      best = Math.min(best, differ);
    }
    return best;
  }, { b64: png.toString("base64"), left, top, inset });
}

export async function test_the_phone_layout_the_coach_and_touch(t) {
  // On the paused clock: the title's blink stays as the glass was read while the shot is taken.
  const page = await oxo.open(t, { context: oxo.PHONE, clock: true });
  const box = await page.evaluate(() => {
    const canvas = document.getElementById("glass");
    return { canvas: canvas.getBoundingClientRect().toJSON(), cell: window.oxo.cell,
      pixels: [canvas.width, canvas.height], margin: window.oxo.margin };
  });
  const { deviceScaleFactor: scale, viewport } = oxo.PHONE;
  const [c, cell, margin] = [box.canvas, box.cell, box.margin];
  t.log(`canvas ${JSON.stringify(c)}: ${cell} device px an LCD pixel`);
  const inside = c.left >= 0 && c.top >= 0 && c.right <= viewport.width &&
    c.bottom <= viewport.height;
  t.assert.ok(inside, "the canvas is not inside the viewport");
  t.assert.ok(Number.isInteger(cell) && cell >= 2, `${cell}`);
  t.assert.deepEqual(box.pixels, [cell * (84 + 2 * margin), cell * (48 + 2 * margin)]);
  t.assert.deepEqual([c.width * scale, c.height * scale], box.pixels);
  // As drawn (the title, every device pixel as lcd_render.py draws it), and so shown.
  t.assert.equal(await page.evaluate(() => window.oxoRead.canvasDiffers()), 0, "as drawn");
  const png = await page.screenshot({ scale: "device" });
  const [left, top] = [Math.round(c.left * scale), Math.round(c.top * scale)];
  const shown = await shownAsHeld(page, png, left, top, margin * cell);
  t.assert.equal(shown, 0, "the glass as shown is not the canvas as held");
  await page.clock.resume(); // the rest on the real clock

  // The explorer opened by touch, the best line from the empty board (the deepest the tree
  // goes) expanded: nothing scrolls sideways, every target (the keys too) is big enough and on
  // the screen, and the coach's grid is below the glass.
  await openExplorer(page, "tap");
  const line = bestLine(Array(9).fill(0), 1);
  for (let k = 1; k < line.length; k++) await expand(page, line.slice(0, k), "tap");
  const seen = await page.evaluate(() => {
    const rect = (el) => el.getBoundingClientRect().toJSON();
    return {
      scroll: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
      keys: document.querySelectorAll(".key").length,
      targets: [...document.querySelectorAll(".key, #tree button, #explorer > summary")]
        .map(rect),
      grid: rect(document.getElementById("coach-grid")),
      device: rect(document.querySelector(".device")),
    };
  });
  t.log(`scroll ${seen.scroll}, ${seen.targets.length} targets, grid ${JSON.stringify(seen.grid)}`);
  t.assert.ok(seen.scroll[0] <= seen.scroll[1], `it scrolls sideways: ${seen.scroll}`);
  t.assert.equal(seen.keys, 3);
  for (const r of seen.targets) {
    t.assert.ok(r.height >= 44 && r.width >= 44, `a ${r.width}x${r.height} target`);
    t.assert.ok(r.right <= viewport.width, `a target past the edge: ${JSON.stringify(r)}`);
  }
  const onScreen = seen.grid.right <= viewport.width && seen.grid.left >= 0;
  t.assert.ok(onScreen, "the coach is off the screen");
  t.assert.ok(seen.grid.top >= seen.device.bottom, "the coach is not below the glass");

  // The menu and a move by touch: the cursor moved on, the mark placed there, the CPU's answer.
  const tap = (name) => oxo.key(page, name).tap();
  await tap("SELECT");
  await oxo.highlighted(page, "1P vs CPU");
  await tap("NEXT");
  await oxo.highlighted(page, "2 Players");
  await tap("PREV");
  await oxo.highlighted(page, "1P vs CPU");
  await tap("SELECT");
  const before = await oxo.until(page, oxo.YOUR_TURN);
  await tap("NEXT");
  const moved = await oxo.until(page, oxo.MOVED, { arg: before.cursor });
  await tap("SELECT");
  const after = await oxo.until(page, oxo.ANSWERED, { arg: moved.marks });
  t.log(`by touch: ${before.board} -> ${moved.board} -> ${after.board}`);
  t.assert.equal(after.board[moved.cursor], "m", "no mark where the cursor was");
}
