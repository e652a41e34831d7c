// The web page's figures in Chromium (bench_web.py runs this and prints them): requests and
// bytes of a first visit (before its first frame and after), navigation to the first frame
// (cold, reload; the main thread's CPU time to it), press to redraw, the main thread's busy
// share while idle, MicroPython's heap; optionally a screenshot mid-game.
// SPDX-License-Identifier: MIT
//
//   node bench/bench_web.mjs --site DIR [--screenshot FILE.png]
//
// Prints one JSON object on stdout (times in ms); fails (exit 1) only if the page does not
// start. This file is what is measured, in which order: pagedriver.mjs drives the page,
// pagemeasures.mjs takes the measures.

import { COACH_ON } from "../host_tests/web/oxopage.mjs";
import { benchMain, DESKTOP, firstFrame, open, playGame, press, sleep, waitQuiet }
  from "./pagedriver.mjs";
import { firstFrameCpu, heap, idle, stats } from "./pagemeasures.mjs";

const RUNS = 7; // navigations, cold and reload
const PRESSES = 30;
const IDLE_MS = 5000; // each idle sample (the title's must end before its demo starts at 15 s)
const SETTLE_MS = 500; // after the first frame: requests that come later still count
const TITLE_DEMO_MS = 15000; // app.App.demo_after_ms: the title's idle ends there
const SHOT = { width: 450, height: 900 }; // the README's screenshot: CSS px, device scale 2

async function measure(browser, server, opts) {
  const out = { chromium: browser.version(), viewport: DESKTOP };
  // Navigation to the first frame, cold then reload, RUNS times; the first visit's requests.
  const cold = [], reload = [];
  for (let run = 0; run < RUNS; run++) {
    const before = server.requests.length;
    const { context, page, ms } = await open(browser, server);
    cold.push(ms);
    if (run === 0) {
      await sleep(SETTLE_MS);
      out.first_visit = server.requests.slice(before);
    }
    const again = server.requests.length;
    await page.reload({ waitUntil: "commit" });
    reload.push(await firstFrame(page));
    if (run === 0) {
      await sleep(SETTLE_MS);
      out.reload_requests = server.requests.slice(again);
    }
    await context.close();
  }
  out.cold = stats(cold);
  out.reload = stats(reload);
  // The main thread's CPU time up to the first frame, cold: RUNS traced first visits of
  // their own (a trace slows what it records, so the times above are taken without).
  const cpu = [];
  for (let run = 0; run < RUNS; run++) cpu.push(await firstFrameCpu(browser, server));
  out.cold_cpu = stats(cpu);

  // Idle on the title (before its demo starts), then press to redraw on the main menu.
  {
    const { context, page } = await open(browser, server);
    await sleep(500);
    out.idle_title = await idle(page, Math.min(IDLE_MS, TITLE_DEMO_MS - 3000));
    await press(page, "ArrowRight", 120); // title -> menu
    await waitQuiet(page, 200);
    const presses = [];
    for (let k = 0; k < PRESSES; k++) {
      // 0.5, 1.5 ... 9.5 ms after a step, in turn: evenly over the 10 ms between polls.
      presses.push(await press(page, "ArrowRight", 60, (k % 10) + 0.5));
    }
    const seen = presses.filter((p) => p.drawn);
    out.press = {
      n: presses.length,
      missed: presses.length - seen.length,
      frame: stats(seen.map((p) => p.frame)),
      after_step: stats(seen.map((p) => p.frame - p.step)),
      wait: stats(seen.map((p) => p.step - p.level)),
      level: stats(seen.map((p) => p.level)),
      first_step: seen.filter((p) => p.steps === 1).length, // drawn by the first step after
    };
    out.steps = await page.evaluate(() => {
      const b = window.__bench;
      const [quiet, drew] = b.count;
      return { idle_ms: b.busy[0] / quiet, frame_ms: b.busy[1] / drew,
        idle_n: quiet, frame_n: drew };
    });
    await context.close();
  }

  // In a game, the player to move: idle, and the heap.
  {
    const { context, page } = await open(browser, server);
    await playGame(page, 2);
    out.idle_game = await idle(page, IDLE_MS);
    out.heap = await heap(page);
    await context.close();
  }

  if (opts.screenshot) {
    // The device's Coach setting on: the scores beside the glass (and on it).
    const shot = { viewport: SHOT, deviceScaleFactor: 2, settings: COACH_ON };
    const { context, page } = await open(browser, server, shot);
    await playGame(page, 2);
    await press(page, "ArrowRight", 80); // the cursor on a free cell, not where the CPU played
    await waitQuiet(page, 300);
    await page.locator("main").screenshot({ path: opts.screenshot, animations: "disabled" });
    out.screenshot = opts.screenshot;
    await context.close();
  }
  return out;
}

benchMain("bench_web.mjs", { screenshot: { type: "string" } }, measure);
