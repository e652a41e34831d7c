// What the page fetches and when (issue 26): the first frame only what index.html names to load
// (tools/web_build.py first_frame_files sums its bytes) and, of firmware.bin, imports all but
// the other board and the error screen; the rest of the game comes right after it, the coach's
// grid at the device's first scores, the explorer when it is first opened.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_load); oxopage.mjs reads the glass.

import fs from "node:fs";
import path from "node:path";

import * as oxo from "./oxopage.mjs";
import { grid, openExplorer, place, twoPlayers } from "./coachcheck.mjs";

const COACH_FILES = ["coach.js", "explorer.js", "explorer.bin"];

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

// The server's answers to this check, by file name.
const served = (t) => t.requests.map((r) => r.path.split("/").pop());

export async function test_the_first_frame_fetches_what_index_html_names_and_no_more(t) {
  const page = await oxo.open(t);
  await page.waitForTimeout(1000); // the title idles: nothing more comes
  const seen = await fetched(page);
  t.log(JSON.stringify(seen));
  t.assert.deepEqual(seen.before, seen.named);
  for (const name of ["game.bin", ...COACH_FILES]) {
    t.assert.ok(!seen.named.includes(name), `index.html names ${name} to load`);
  }
  // After the first frame: the rest of the game, and nothing of the coach's.
  t.assert.deepEqual(seen.all, [...seen.named, "game.bin"].sort());
  t.assert.deepEqual(served(t).sort(), ["index.html", ...seen.all].sort());
}

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

export async function test_the_first_frame_imports_all_of_firmware_bin(t) {
  const page = t.page;
  await page.route("**/micropython.mjs", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()) + NOTE_IMPORTS });
  });
  await oxo.open(t); // the first frame, then game.bin: the title idles, importing nothing
  const seen = new Set((await page.evaluate(() => {
    window.oxo.mp.runPython("_oxo_names = ' '.join(sorted(_oxo_seen))");
    return window.oxo.mp.globals.get("_oxo_names");
  })).split(" "));
  const modules = (bundle) => oxo.bundleFiles(fs.readFileSync(path.join(t.site, bundle)))
    .map(([name]) => name.replace(/\.mpy$/, ""));
  const first = modules("firmware.bin");
  t.log(`firmware.bin: ${first.join(" ")}`);
  // The other board's file, and the error screen's modules (runner's rescue, with errorlog and
  // smallfont), which a failing first step needs: web_page's broken-module check shows them.
  const unused = ["esp32", "rescue", "errorlog", "smallfont"];
  t.assert.deepEqual(first.filter((name) => !seen.has(name)).sort(), unused.sort());
  for (const bundle of ["game.bin", "explorer.bin"]) {
    t.assert.deepEqual(modules(bundle).filter((name) => seen.has(name)), [],
      `the first frame imported from ${bundle}`);
  }
}

export async function test_the_coach_comes_at_the_first_scores(t) {
  // The device's Coach off (its default): a game shows no scores, and no coach.js comes.
  const off = await oxo.open(t);
  await twoPlayers(off);
  await place(off, 4);
  await off.waitForFunction(() => /coach is off/.test(document.getElementById("coach-why")
    .textContent));
  t.assert.deepEqual(served(t).filter((name) => COACH_FILES.includes(name)), []);
  // On: the first scores bring coach.js, and only it.
  const context = await oxo.seedSettings(await t.newContext(), oxo.COACH_ON);
  const page = await oxo.open(t, { page: await context.newPage() });
  t.assert.deepEqual((await fetched(page)).all.filter((n) => COACH_FILES.includes(n)), []);
  await twoPlayers(page);
  await page.waitForFunction(() =>
    !document.getElementById("coach-grid").classList.contains("none"));
  t.assert.equal((await grid(page)).caption, "Coach: X to move");
  t.assert.deepEqual((await fetched(page)).all.filter((n) => COACH_FILES.includes(n)),
    ["coach.js"]);
}
test_the_coach_comes_at_the_first_scores.timeout = 40;

export async function test_the_explorer_comes_when_first_opened(t) {
  const page = await oxo.open(t);
  const coachFiles = async () =>
    (await fetched(page)).all.filter((n) => COACH_FILES.includes(n)).sort();
  t.assert.deepEqual(await coachFiles(), []);
  t.assert.equal(await page.locator("#explorer #tree").count(), 0, "its parts came early");
  await openExplorer(page); // its 9 moves listed
  t.assert.deepEqual(await coachFiles(), COACH_FILES.slice().sort());
  // Closed and opened again: all there already, nothing fetched again.
  await page.locator("#explorer > summary").click();
  await page.locator("#explorer > summary").click();
  await page.waitForFunction(() => document.getElementById("explorer").open);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  t.assert.deepEqual(served(t).filter((n) => COACH_FILES.includes(n)).sort(),
    COACH_FILES.slice().sort());
}
