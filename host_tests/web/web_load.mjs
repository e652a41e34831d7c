// What the page fetches and when (issue 26): the first frame only what index.html names to load
// (tools/web_build.py first_frame_files sums its bytes) and, of firmware.bin, imports all but
// the other board and the error screen; the rest of the game comes right after it. The coach's
// grid at the device's first scores, the explorer when it is first opened: web_coach's checks.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_load); oxopage.mjs reads the glass.

import fs from "node:fs";
import path from "node:path";

import * as oxo from "./oxopage.mjs";
import { COACH_FILES } from "./coachcheck.mjs";

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

export async function test_the_first_frame_fetches_what_index_html_names_and_no_more(t) {
  const page = await oxo.open(t);
  await page.waitForTimeout(1000); // the title idles: nothing more comes
  const seen = await fetched(page);
  t.log(JSON.stringify(seen));
  t.assert.deepEqual(seen.before, seen.named);
  for (const name of ["game.bin", ...COACH_FILES]) {
    t.assert.ok(!seen.named.includes(name), `index.html names ${name} to load`);
  }
  // After the first frame: the rest of the game with link play's cable, nothing of the coach's.
  t.assert.deepEqual(seen.all, [...seen.named, "game.bin", "tabcable.js"].sort());
  t.assert.deepEqual(oxo.served(t).sort(), ["index.html", ...seen.all].sort());
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
  // smallfont), which a failing first step needs: web_page's broken-module check shows them.
  const unused = ["esp32", "rescue", "errorlog", "smallfont"];
  t.assert.deepEqual(first.filter((name) => !seen.has(name)).sort(), unused.sort());
  // Of game.bin, only the page's link cable end (tabend), plugged as game.bin comes in.
  for (const [bundle, imported] of [["game.bin", ["tabend"]], ["explorer.bin", []]]) {
    t.assert.deepEqual(modules(bundle).filter((name) => seen.has(name)), imported,
      `the first frame imported from ${bundle}`);
  }
}
