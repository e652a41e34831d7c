// bench_web.mjs's measures of a page: the renderer's main thread while idle and up to the first
// frame, MicroPython's heap, and the statistics of a series of times.
// SPDX-License-Identifier: MIT

import { DESKTOP, firstFrame, sleep } from "./pagedriver.mjs";

// A first visit's cost to the renderer's main thread, in a fresh context: its tasks' CPU time
// (the trace's tdur) from navigationStart to oxo.js's first-frame mark. Less moved by the load
// than the wall time, which counts the waits for a core too.
const TRACED = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"];

export async function firstFrameCpu(browser, server) {
  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await context.newPage();
    await browser.startTracing(page, { categories: TRACED });
    await page.goto(server.url + "index.html", { waitUntil: "commit" });
    await firstFrame(page);
    const events = JSON.parse(String(await browser.stopTracing())).traceEvents;
    const mark = events.find((e) => e.name === "oxo-first-frame");
    const start = Math.min(...events.filter((e) => e.name === "navigationStart" &&
      e.pid === mark.pid).map((e) => e.ts));
    let us = 0;
    for (const e of events) {
      if (e.ph === "X" && e.name === "RunTask" && e.pid === mark.pid && e.tid === mark.tid &&
        e.ts >= start && e.ts < mark.ts) us += e.tdur || 0;
    }
    return us / 1000;
  } finally {
    await context.close();
  }
}

// The renderer's main thread over `ms`: CDP Performance.getMetrics' TaskDuration (s of tasks
// run) against its Timestamp (s), with the page's steps and frames in that time.
export async function idle(page, ms) {
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

// gc.mem_alloc() after gc.collect(), SAMPLES times 0.2 s apart: it moves by 10 KB or so (the
// collector scans the port's stack conservatively; objects the page's JS holds stay), so the
// range is given. Then micropython.mem_info()'s "GC: total" (on the console): the heap's size
// now. The port grows its heap in splits (MICROPY_GC_SPLIT_HEAP_AUTO), so gc.mem_free(), which
// counts what could still be added, is not read.
const SAMPLES = 5;
const LIVE = "import gc\ngc.collect()\n_live = gc.mem_alloc()\n";

export async function heap(page) {
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

// A series of times: its count, median, 90th percentile (the nearest rank), least and most.
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  return { n, median, p90: s[Math.min(n - 1, Math.ceil(0.9 * n) - 1)], min: s[0], max: s[n - 1] };
}
