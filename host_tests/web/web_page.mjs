// What the web page adds to the firmware: flash in localStorage, the idle timers on the page's
// clock, the error screen; what it fetches and when (issue 26): for the first frame only what
// index.html names (tools/web_build.py first_frame_files sums its bytes), importing all of
// firmware.bin but the other board and the error screen; the rest of the game right after.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_page).

import fs from "node:fs";
import path from "node:path";

import * as oxo from "./oxopage.mjs";
import { COACH_FILES } from "./coachcheck.mjs";

// -- settings and the tally in localStorage ------------------------------------------------------

// Play the CPU to the result by `press(name)` (SELECT places; every other move NEXT first moves
// the cursor), reading the glass: the last state and the moves made.
async function playGame(page, press, turns = 6) {
  let s = await oxo.until(page, oxo.ANSWERED, { arg: -2 }); // the CPU may start
  for (let move = 0; move < turns; move++) {
    if (oxo.RESULTS.includes(s.result)) return { state: s, moves: move };
    if (move % 2 === 1 && s.board.includes(".")) {
      await press("NEXT");
      s = await oxo.until(page, oxo.MOVED, { arg: s.cursor });
    }
    await press("SELECT");
    s = await oxo.until(page, oxo.ANSWERED, { arg: s.marks });
  }
  throw new Error(`no result after ${turns} moves: ${JSON.stringify(s)}`);
}

// From the title: the menu's Level, and the tally a new game's status column shows.
async function levelAndTally(page) {
  await oxo.press(page, "SELECT");
  const m = await oxo.menu(page, (m) => (m.highlight === 0 && m.rows[2].label === "Level" ?
    m : null));
  await oxo.press(page, "SELECT");
  const s = await oxo.until(page, (s) => (s.turn === "YOU" || s.turn === "CPU" ? s : null));
  return { level: m.rows[2].value, label: s.label, tally: s.tally };
}

export async function test_settings_and_tally_survive_a_reload_and_start_fresh_forgets_them(t) {
  // From the title: the Level stepped once (HARD -> PERF), then a game to its end by the
  // keyboard: ArrowRight for NEXT, SELECT's two keys (Enter, Space) in turn.
  const page = await oxo.open(t);
  await oxo.fromTitle(page, "Level");
  await oxo.menu(page, (m) => m.rows[m.highlight].value === "PERF");
  await oxo.choose(page, "1P", "PREV");
  await oxo.press(page, "SELECT");
  let enter = false;
  const { state: end, moves } = await playGame(page, (name) => {
    enter = !enter;
    return page.keyboard.press(name === "NEXT" ? "ArrowRight" : enter ? "Enter" : " ");
  });
  t.log(`${moves} moves, ${end.result}; tally ${end.tally.join(" / ")}; board ${end.board}`);
  t.assert.ok(moves >= 3, `a game of ${moves} moves of mine`);
  // Counted once, in its row (screens._tally: W, D, L).
  const row = { "WIN!": 0, DRAW: 1, LOST: 2 }[end.result];
  end.tally.forEach((text, i) => t.assert.equal(text.slice(3), i === row ? "1" : "0", text));
  t.assert.equal(end.label, "PERF");
  // The result blinks, so its save waits for the frame of a blink once the jingle is over
  // (app.App.save_wait_ms, 2 s): a reload sooner is a power cut before the save.
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("oxo5110:settings.json"))
    ?.tally1?.some((n) => n > 0));
  await oxo.loads(page, () => page.reload());
  const kept = await levelAndTally(page);
  t.assert.deepEqual(kept, { level: "PERF", label: "PERF", tally: end.tally });
  t.assert.notDeepEqual(kept.tally, ["W  0", "D  0", "L  0"]);

  // Start fresh asks again, then reloads the page. Over a slow connection (the reload answered
  // 600 ms late) the old page runs meanwhile, and must not write its settings back then.
  await page.route("**/index.html", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  const fresh = page.locator("#fresh");
  await fresh.click();
  t.assert.equal(await fresh.textContent(), "Forget settings and score?");
  await oxo.loads(page, () => fresh.click());
  const forgotten = await levelAndTally(page);
  t.assert.deepEqual(forgotten, { level: "HARD", label: "HARD", tally: ["W  0", "D  0", "L  0"] });
}

export async function test_start_fresh_asks_even_at_a_double_click_or_enter_held(t) {
  // The question must be seen: a double-click's second click, and Enter's auto-repeat, are
  // no answer to it. Each on its own asking, 4 s apart (oxo.js FRESH_CONFIRM_MS). A reload
  // would stall on the paused clock: a wait for the button below then times out.
  const page = await oxo.open(t, { clock: true });
  const fresh = page.locator("#fresh");
  let loads = 0;
  page.on("load", () => loads++);
  const asked = async (how) => {
    t.assert.equal(await fresh.textContent(), "Forget settings and score?", how);
    await page.clock.runFor(4000);
    t.assert.equal(await fresh.textContent(), "Start fresh", how);
  };
  await fresh.dblclick();
  await asked("a double-click");
  await fresh.focus();
  await page.keyboard.down("Enter");
  await page.keyboard.down("Enter"); // its auto-repeat
  await page.keyboard.up("Enter");
  await asked("Enter held");
  t.assert.equal(loads, 0, "the page was reloaded: settings and score forgotten");
}

// -- the idle timers, on Playwright's clock (the port's ticks_ms reads Date.now()) ---------------

export async function test_the_demo_at_15_s_dimming_at_30_s_and_sleep_at_120_s(t) {
  const page = await oxo.open(t, { clock: true });
  // The glass in these colours (gap, cell, ink: as many as given), the canvas drawn exactly.
  const drawnIn = async (colours) => {
    const now = await page.evaluate(() => window.oxo.colours);
    t.assert.deepEqual(now.slice(0, colours.length), colours);
    t.assert.equal(await oxo.read(page, "canvasDiffers"), 0, "not the glass as drawn");
  };
  const lit = () => page.locator("#bezel.lit").count();
  const blank = () => page.evaluate(() => window.oxo.glass.every((b) => b === 0));
  await drawnIn(oxo.LIT);
  await oxo.at(page, "before", 15000);
  const title = await page.evaluate(() => window.oxoRead.text(window.oxo.glass, 10, 21, 8));
  t.assert.equal(title, "OXO 5110");
  t.assert.notEqual((await oxo.read(page, "status")).result, "DEMO");
  await oxo.at(page, "past", 15000); // app.App.demo_after_ms: 15 s
  const demo = await oxo.read(page, "state");
  t.assert.equal(demo.result, "DEMO");
  await page.clock.runFor(3000); // the demo's CPUs play
  const later = await oxo.read(page, "state");
  t.log(`demo: ${demo.board} -> ${later.board}`);
  t.assert.equal(later.result, "DEMO");
  t.assert.ok(later.marks >= demo.marks + 2, "the demo does not play");

  await oxo.at(page, "before", 30000); // settings.py dim_s: 30 s
  await drawnIn(oxo.LIT);
  t.assert.equal(await lit(), 1);
  await oxo.at(page, "past", 30000);
  await drawnIn(oxo.UNLIT); // the glass still shows, unlit
  t.assert.equal((await oxo.read(page, "status")).result, "DEMO");
  t.assert.equal(await lit(), 0);

  await oxo.at(page, "before", 120000); // sleep_s: 120 s - the display powered down
  t.assert.equal(await blank(), false, "asleep before sleep_s");
  await oxo.at(page, "past", 120000);
  t.assert.equal(await blank(), true, "the glass shows something after sleep_s");
  await drawnIn(oxo.UNLIT.slice(0, 2));
  const status = () => page.locator("#status").textContent();
  t.assert.equal(await status(), "The display is asleep: press a button to wake it.");

  await oxo.press(page, "NEXT"); // wakes it to the title (where the sleep left the demo), lit
  await page.clock.runFor(300);
  t.assert.deepEqual(await page.evaluate(() => window.oxo.colours), oxo.LIT);
  await oxo.canvasShows(t, page, "screens/title", { clock: true });
  t.assert.equal(await lit(), 1);
  t.assert.equal(await status(), "Running the pico firmware.");
}

// -- a broken module in the bundle ---------------------------------------------------------------

// rescue.screen(): the title in the 8x8 font, inverted, at (22, 1).
const ERROR_SCREEN = () => window.oxo && window.oxo.frames > 0 &&
  window.oxoRead.text(window.oxo.glass, 22, 1, 5, true) === "ERROR";

export async function test_a_broken_module_shows_the_error_screen(t) {
  const page = t.page;
  await page.route("**/firmware.bin", async (route) => {
    const response = await route.fetch();
    const data = Buffer.from(await response.body());
    let broken = 0;
    for (const [name, bytes] of oxo.bundleFiles(data)) {
      // title.mpy: app.py imports it at boot (play.mpy loads only at the first press).
      if (name === "title.mpy") {
        bytes[0] = 0x58; // not "M": the port refuses the file (ValueError), as a board would
        broken++;
      }
    }
    t.assert.equal(broken, 1, "no title.mpy in firmware.bin");
    await route.fulfill({ response, body: data });
  });
  // game.bin held back until the error screen shows: a failing first step has what it needs
  // in firmware.bin (runner's rescue, errorlog, smallfont).
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route("**/game.bin", async (route) => { await held; await route.continue(); });
  await oxo.withReader(t.context);
  await page.goto(t.url("index.html"));
  await page.waitForFunction(ERROR_SCREEN);
  t.assert.equal(await page.evaluate(() => window.oxo.loaded), false);
  release();
  await page.waitForFunction(() => window.oxo.loaded);
  const screen = () => page.evaluate(() => ({
    name: window.oxoRead.findSmall("ValueError"),
    message: window.oxoRead.findSmall("incompatible .mpy file"),
  }));
  await page.waitForFunction(ERROR_SCREEN);
  const shown = await screen();
  t.log(JSON.stringify(shown));
  t.assert.ok(shown.name && shown.message, "the exception is not on the glass");
  t.assert.equal(await page.locator("#status").textContent(), "Running the pico firmware.");
  t.assert.equal(await page.locator("#status.error").count(), 0);
  t.assert.equal(await page.evaluate(() => window.oxo.error), null);
  // The board's error.log, in localStorage (the page copies its files there every 250 ms).
  const log = await page.waitForFunction(() => localStorage.getItem("oxo5110:error.log"));
  t.assert.match(await log.jsonValue(), /ValueError: incompatible \.mpy file @app\.py/);
  // A press restarts the game, which fails the same way: the error screen again, no crash.
  const frames = await page.evaluate(() => window.oxo.frames);
  await oxo.press(page, "SELECT");
  await page.waitForFunction((n) => window.oxo.frames > n, frames);
  await page.waitForFunction(ERROR_SCREEN);
  t.assert.equal(await page.evaluate(() => window.oxo.error), null);
}

// -- what the page fetches and imports first -----------------------------------------------------

// The files the page asked for, by name, and those whose fetch began before its first frame
// (the resource timing entries against oxo.js's mark), with what index.html names to load.
const fetched = (page) => page.evaluate(() => {
  const name = (url) => new URL(url, location.href).pathname.split("/").pop();
  const frame = performance.getEntriesByName("oxo-first-frame", "mark")[0].startTime;
  const all = performance.getEntriesByType("resource");
  const named = [...document.querySelectorAll(
    'script[type="module"][src], link[rel="modulepreload"], link[rel="preload"]')]
    .map((el) => name(el.src || el.href));
  return {
    all: all.map((r) => name(r.name)).sort(),
    before: all.filter((r) => r.startTime < frame).map((r) => name(r.name)).sort(),
    named: [...new Set(named)].sort(),
  };
});

// The port's loader as served, with loadMicroPython (a live binding: the page's script, which
// imports it, calls it after this runs) wrapped so that every import its MicroPython makes,
// from before the page's first, is noted in _oxo_seen (builtins.__import__ replaced).
const NOTE_IMPORTS = `
const oxoLoad = loadMicroPython;
loadMicroPython = async (options) => {
  const mp = await oxoLoad(options);
  mp.runPython([
    "import builtins",
    "_oxo_seen = set()",
    "_oxo_import = builtins.__import__",
    "def _oxo_note(name, *rest):",
    "    _oxo_seen.add(name)",
    "    return _oxo_import(name, *rest)",
    "builtins.__import__ = _oxo_note",
  ].join("\\n"));
  return mp;
};
`;

export async function test_the_first_frame_fetches_what_index_html_names_and_imports_firmware_bin(
  t,
) {
  const page = t.page;
  await page.route("**/micropython.mjs", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()) + NOTE_IMPORTS });
  });
  await oxo.open(t); // the first frame, then game.bin: the title idles
  const seen = new Set((await page.evaluate(() => {
    window.oxo.mp.runPython("_oxo_names = ' '.join(sorted(_oxo_seen))");
    return window.oxo.mp.globals.get("_oxo_names");
  })).split(" "));
  const modules = (bundle) => oxo.bundleFiles(fs.readFileSync(path.join(t.site, bundle)))
    .map(([name]) => name.replace(/\.mpy$/, ""));
  const first = modules("firmware.bin");
  t.log(`firmware.bin: ${first.join(" ")}`);
  // The other board's file, and the error screen's modules (runner's rescue, with errorlog and
  // smallfont), which a failing first step needs: the broken-module check above shows them.
  const unused = ["esp32", "rescue", "errorlog", "smallfont"];
  t.assert.deepEqual(first.filter((name) => !seen.has(name)).sort(), unused.sort());
  // Of game.bin, only the page's link cable end (tabend), plugged as game.bin comes in.
  for (const [bundle, imported] of [["game.bin", ["tabend"]], ["explorer.bin", []]]) {
    t.assert.deepEqual(modules(bundle).filter((name) => seen.has(name)), imported,
      `the first frame imported from ${bundle}`);
  }
  // What it fetched: index.html and what it names to load, then the rest of the game.
  await page.waitForTimeout(1000); // the title idles: nothing more comes
  const got = await fetched(page);
  t.log(JSON.stringify(got));
  t.assert.deepEqual(got.before, got.named);
  for (const name of ["game.bin", ...COACH_FILES]) {
    t.assert.ok(!got.named.includes(name), `index.html names ${name} to load`);
  }
  // After the first frame: the rest of the game with link play's cable, nothing of the coach's.
  t.assert.deepEqual(got.all, [...got.named, "game.bin", "tabcable.js"].sort());
  t.assert.deepEqual(oxo.served(t).sort(), ["index.html", ...got.all].sort());
}
