// The browser benchmarks' driver (bench_web.mjs, bench_web_coach.mjs): the run, a page opened
// to its first frame with its steps timed, presses through oxo.js's key handler, a game.
// SPDX-License-Identifier: MIT

import { parseArgs } from "node:util";

import { CHROMIUM, launch, serve } from "../host_tests/web/browser.mjs";
import { seedSettings } from "../host_tests/web/oxopage.mjs";

export const WAIT_MS = 20000; // for one page to show its first frame

// A benchmark's run: its `options` parsed (util.parseArgs', beside --site DIR), the site served
// as GitHub Pages serves it (`Cache-Control: max-age=600`, so a reload finds a warm cache),
// Chromium launched; `measure(browser, server, opts)` returns the object printed as one JSON
// line. Exits 0 when done, 1 on an error, 3 when not done after TOTAL_MS (a browser that hangs
// must not hang `make bench`).
const TOTAL_MS = 100000;

export function benchMain(name, options, measure) {
  const { values: opts } = parseArgs({ options: { site: { type: "string" }, ...options } });
  if (!opts.site) {
    console.error(`usage: ${name} --site DIR (and the options its header names)`);
    process.exit(2);
  }
  const bound = setTimeout(() => {
    console.error(`${name}: not done after ${TOTAL_MS / 1000} s; stopping`);
    process.exit(3);
  }, TOTAL_MS);
  bound.unref();
  const run = async () => {
    const server = await serve(opts.site, { cacheControl: "max-age=600" });
    const browser = await launch({ executablePath: CHROMIUM });
    try {
      process.stdout.write(JSON.stringify(await measure(browser, server, opts)) + "\n");
    } finally {
      await browser.close();
      await server.close();
    }
  };
  run().then(
    () => process.exit(0),
    (err) => {
      console.error(`${name}: ${err && err.stack ? err.stack : err}`);
      process.exit(1);
    },
  );
}

export const DESKTOP = { width: 1280, height: 720 }; // Playwright's default viewport, scale 1

// In the page, before oxo.js: its step timer (setTimeout(step, wait)) wrapped to note when each
// step starts, how long it runs, and which drew a frame (oxo.js's own figures read as they are).
const STEP_PROBE = () => {
  const bench = { frameStep: 0, frameStepIndex: 0, busy: [0, 0], count: [0, 0] };
  window.__bench = bench;
  const plain = window.setTimeout;
  window.setTimeout = function (fn, ms, ...rest) {
    if (typeof fn !== "function" || fn.name !== "step") return plain.call(this, fn, ms, ...rest);
    const timed = () => {
      const start = performance.now();
      const frames = window.oxo ? window.oxo.frames : 0;
      fn();
      const drew = window.oxo && window.oxo.frames !== frames ? 1 : 0;
      bench.busy[drew] += performance.now() - start;
      bench.count[drew] += 1;
      if (drew) {
        bench.frameStep = start;
        bench.frameStepIndex = window.oxo.steps;
        if (bench.onFrame) bench.onFrame();
      }
      if (bench.onStep) bench.onStep();
    };
    return plain.call(this, timed, ms, ...rest);
  };
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function firstFrame(page) {
  // navigationStart (the document's time origin) to performance.mark("oxo-first-frame").
  await page.waitForFunction(() => window.oxo && window.oxo.firstFrame !== null, null, {
    timeout: WAIT_MS,
    polling: 50,
  });
  const problem = await page.evaluate(() => window.oxo.error);
  if (problem) throw new Error(`the page stopped: ${problem}`);
  return page.evaluate(() => performance.getEntriesByName("oxo-first-frame", "mark")[0].startTime);
}

// A page opened to its first frame in a new context (`options`: browser.newContext's), with
// `settings` in its flash first if given (oxopage.seedSettings: {coach: true, ...}).
export async function open(browser, server, { settings = null, ...options } = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript(STEP_PROBE);
  if (settings) await seedSettings(context, settings);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  await page.goto(server.url + "index.html", { waitUntil: "commit" });
  let ms;
  try {
    ms = await firstFrame(page);
  } catch (err) {
    const said = errors.length ? "; the page said: " + errors.join("; ") : "";
    throw new Error(err.message + said);
  }
  await page.waitForFunction(() => window.oxo.loaded); // game.bin, fetched after the first frame
  return { context, page, ms };
}

// One press of `key` through oxo.js's keyboard handler: keydown, keyup at once (a click: the
// page holds each level LEVEL_MIN_MS), the next frame (or `wait` ms), the release and `gap` ms.
// With `phase`, the keydown comes that many ms after a step ends (waiting on messages: timers
// chained from the step's are clamped to 4 ms), spreading presses over the 10 ms between polls.
// Times from the keydown: its level on the pin (oxo.lastPress), the start of the step that drew
// the next frame, and that frame (oxo.lastFrame).
const PRESS = async ([key, gap, wait, phase]) => {
  const oxo = window.oxo, bench = window.__bench;
  const name = { ArrowRight: "NEXT", ArrowLeft: "PREV", Enter: "SELECT" }[key];
  const el = document.querySelector(`[data-button="${name}"]`);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  if (phase !== null) {
    await new Promise((resolve) => { bench.onStep = () => { bench.onStep = null; resolve(); }; });
    const at = performance.now() + phase;
    const channel = new MessageChannel();
    await new Promise((resolve) => {
      channel.port1.onmessage = () =>
        performance.now() >= at ? resolve() : channel.port2.postMessage(0);
      channel.port2.postMessage(0);
    });
    channel.port1.close();
  }
  const drawn = new Promise((resolve) => { bench.onFrame = resolve; });
  const steps = oxo.steps;
  const t0 = performance.now();
  document.body.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
  const level = oxo.lastPress - t0;
  document.body.dispatchEvent(new KeyboardEvent("keyup", { key, bubbles: true }));
  await Promise.race([drawn, sleep(wait)]);
  bench.onFrame = null;
  const out = {
    level, step: bench.frameStep - t0, frame: oxo.lastFrame - t0,
    steps: bench.frameStepIndex - steps, drawn: oxo.lastFrame > t0,
  };
  while (el.classList.contains("down")) await sleep(5);
  await sleep(gap);
  return out;
};

export async function press(page, key, gap = 80, phase = null, wait = 300) {
  return page.evaluate(PRESS, [key, gap, wait, phase]);
}

// Title -> main menu -> "1P vs CPU" (the first row), then `moves` moves of the player's, each
// answered by the CPU: SELECT places on the cursor, NEXT moves it to the next free cell. Each
// of these presses draws a frame; one that does not was lost, and the figures would be wrong.
export async function playGame(page, moves) {
  const steps = [["ArrowRight", "leave the title"], ["Enter", "choose 1P vs CPU"]];
  for (let k = 0; k < moves; k++) {
    if (k) steps.push(["ArrowRight", "move the cursor"]);
    steps.push(["Enter", "place a mark"]);
  }
  for (const [key, what] of steps) {
    if (!(await press(page, key, 100)).drawn) throw new Error(`a press to ${what} drew nothing`);
    await waitQuiet(page, 300); // the CPU's answer drawn, the player's turn again
  }
}

export async function waitQuiet(page, ms) {
  // Until no frame for `ms` (the CPU has answered and nothing blinks).
  let frames = -1;
  for (let tries = 0; tries < 20; tries++) {
    const now = await page.evaluate(() => window.oxo.frames);
    if (now === frames) return;
    frames = now;
    await sleep(ms);
  }
}
