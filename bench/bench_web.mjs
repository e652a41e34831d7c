// The web page's figures in Chromium (bench_web.py runs this and prints them): requests and
// bytes of a first visit, navigation to the first frame (cold, reload), press to redraw, the
// main thread's busy share while idle, MicroPython's heap; optionally a screenshot mid-game.
// SPDX-License-Identifier: MIT
//
//   node bench/bench_web.mjs --site DIR [--runs 7] [--presses 30] [--idle 5]
//        [--screenshot FILE.png] [--chromium PATH]
//
// Prints one JSON object on stdout (times in ms). Figures only: nothing here passes or fails
// but a page that does not start (exit 1, saying why). The server is host_tests/web/browser.mjs
// with `Cache-Control: max-age=600`, what GitHub Pages sends, so a reload finds a warm cache.

import { parseArgs } from "node:util";

import { CHROMIUM, launch, serve } from "../host_tests/web/browser.mjs";

const { values: opts } = parseArgs({
  options: {
    site: { type: "string" },
    runs: { type: "string", default: "7" },
    presses: { type: "string", default: "30" },
    idle: { type: "string", default: "5" },
    screenshot: { type: "string" },
    chromium: { type: "string", default: CHROMIUM },
  },
});
if (!opts.site) {
  console.error("usage: bench_web.mjs --site DIR [--runs N] [--presses N] [--idle S] " +
    "[--screenshot PNG] [--chromium PATH]");
  process.exit(2);
}
const RUNS = Number(opts.runs);
const PRESSES = Number(opts.presses);
const IDLE_MS = Number(opts.idle) * 1000;
const TOTAL_MS = 100000; // the whole run's bound: past it, say so and stop
const WAIT_MS = 20000; // for one page to show its first frame
const SETTLE_MS = 500; // after the first frame: requests that come later still count
const TITLE_DEMO_MS = 15000; // app.App.demo_after_ms: the title's idle ends there
const DESKTOP = { width: 1280, height: 720 }; // Playwright's default viewport, device scale 1
const SHOT = { width: 450, height: 900 }; // the README's screenshot: CSS px, device scale 2

// In the page, before oxo.js: the page's step timer (setTimeout(step, wait)) is wrapped to note
// when each step starts and how long it runs, and which step drew a frame. The page itself is
// unchanged; oxo.js's own figures (oxo.frames, lastFrame, lastPress) are read as they are.
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function firstFrame(page) {
  // navigationStart (the document's time origin) to performance.mark("oxo-first-frame").
  await page.waitForFunction(() => window.oxo && window.oxo.firstFrame !== null, null, {
    timeout: WAIT_MS,
    polling: 50,
  });
  const problem = await page.evaluate(() => window.oxo.error);
  if (problem) throw new Error(`the page stopped: ${problem}`);
  return page.evaluate(() => performance.getEntriesByName("oxo-first-frame", "mark")[0].startTime);
}

async function open(browser, server, options = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript(STEP_PROBE);
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
  return { context, page, ms };
}

// One press of `key` through oxo.js's keyboard handler (on document.body): keydown, keyup at
// once (the page holds each level LEVEL_MIN_MS, so this is a short press, a CLICK), then the
// next frame (or `wait` ms without one), the release's level and `gap` ms more. With `phase`,
// the keydown comes that many ms after the end of a step: a hand presses anywhere in the 10 ms
// between polls, and this spreads the presses over it evenly (a wait for a message, not a
// timer: timers chained from the step's own are clamped to 4 ms). Times from the keydown: its
// level on the pin (oxo.lastPress), the start of the step that drew the next frame (the one
// whose poll saw the pin) and that frame (oxo.lastFrame).
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

async function press(page, key, gap = 80, phase = null, wait = 300) {
  return page.evaluate(PRESS, [key, gap, wait, phase]);
}

// The renderer's main thread over `ms`: CDP Performance.getMetrics' TaskDuration (s of tasks
// run) against its Timestamp (s), with the page's steps and frames in that time.
async function idle(page, ms) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const sample = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    const m = Object.fromEntries(metrics.map(({ name, value }) => [name, value]));
    const oxo = await page.evaluate(() => [window.oxo.steps, window.oxo.frames]);
    return { task: m.TaskDuration, at: m.Timestamp, steps: oxo[0], frames: oxo[1] };
  };
  const a = await sample();
  await sleep(ms);
  const b = await sample();
  await cdp.detach();
  const wall = b.at - a.at;
  return {
    seconds: wall,
    busy: (b.task - a.task) / wall,
    steps_per_s: (b.steps - a.steps) / wall,
    frames_per_s: (b.frames - a.frames) / wall,
  };
}

// Title -> main menu -> "1P vs CPU" (the first row), then `moves` moves of the player's, each
// answered by the CPU: SELECT places on the cursor, NEXT moves it to the next free cell. Each
// of these presses draws a frame; one that does not was lost, and the figures would be wrong.
async function playGame(page, moves) {
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

async function waitQuiet(page, ms) {
  // Until no frame for `ms` (the CPU has answered and nothing blinks).
  let frames = -1;
  for (let tries = 0; tries < 20; tries++) {
    const now = await page.evaluate(() => window.oxo.frames);
    if (now === frames) return;
    frames = now;
    await sleep(ms);
  }
}

// gc.mem_alloc() after gc.collect(), SAMPLES times 0.2 s apart: from one sample to the next it
// moves by 10 KB or so (the collector scans the port's stack conservatively, and objects the
// page's JS still holds stay), so the range is given. Then micropython.mem_info()'s "GC:
// total" (on the page's console): the heap's size now. The pyscript variant grows its heap in
// splits (MICROPY_GC_SPLIT_HEAP_AUTO): the page's heapsize is the first one, and gc.mem_free()
// adds what could still be added, so it is not read.
const SAMPLES = 5;
const LIVE = "import gc\ngc.collect()\n_live = gc.mem_alloc()\n";

async function heap(page) {
  const live = [];
  for (let k = 0; k < SAMPLES; k++) {
    if (k) await sleep(200);
    live.push(await page.evaluate((code) => {
      window.oxo.mp.runPython(code);
      return window.oxo.mp.globals.get("_live");
    }, LIVE));
  }
  const lines = [];
  const listen = (msg) => lines.push(msg.text());
  page.on("console", listen);
  await page.evaluate(() => window.oxo.mp.runPython("import micropython\nmicropython.mem_info()"));
  await sleep(200); // the console lines come over the same connection, maybe after the answer
  page.off("console", listen);
  const total = /GC: total: (\d+)/.exec(lines.join("\n"));
  return { live: stats(live), total: total ? Number(total[1]) : null };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

function stats(xs) {
  const [min, max] = [Math.min(...xs), Math.max(...xs)];
  return { n: xs.length, median: median(xs), p90: quantile(xs, 0.9), min, max };
}

async function main() {
  const server = await serve(opts.site, { cacheControl: "max-age=600" });
  const browser = await launch({ executablePath: opts.chromium });
  const out = { chromium: browser.version(), viewport: DESKTOP };
  try {
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
      const shot = { viewport: SHOT, deviceScaleFactor: 2 };
      const { context, page } = await open(browser, server, shot);
      await playGame(page, 2);
      await press(page, "ArrowRight", 80); // the cursor on a free cell, not where the CPU played
      await waitQuiet(page, 300);
      await page.locator("main").screenshot({ path: opts.screenshot, animations: "disabled" });
      out.screenshot = opts.screenshot;
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

const bound = setTimeout(() => {
  console.error(`bench_web.mjs: not done after ${TOTAL_MS / 1000} s; stopping`);
  process.exit(3);
}, TOTAL_MS);
bound.unref();
main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench_web.mjs: ${err && err.stack ? err.stack : err}`);
    process.exit(1);
  },
);
