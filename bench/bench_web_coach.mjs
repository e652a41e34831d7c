// The coach's figures in Chromium (bench_web_coach.py runs this and prints them): the time to
// show the scores beside the glass, and to open the explorer (its code fetched) and list the
// moves of the empty board.
// SPDX-License-Identifier: MIT
//
//   node bench/bench_web_coach.mjs --site DIR
//
// Prints one JSON object on stdout (times in ms, from window.oxo.coach, which web/coach.js
// keeps: the MicroPython calls alone and with the rendering). Each run is a fresh page.
// Figures only: nothing here passes or fails but a page that does not start (exit 1).

import { COACH_ON } from "../host_tests/web/oxopage.mjs";
import { benchMain, open, press, waitQuiet } from "./pagedriver.mjs";
import { stats } from "./pagemeasures.mjs";

// Until window.oxo.coach[what] is a new measure (not `was`); returns it.
async function measured(page, what, was) {
  const handle = await page.waitForFunction(([what, was]) => {
    const m = window.oxo.coach[what];
    return m && JSON.stringify(m) !== was ? m : null;
  }, [what, JSON.stringify(was)]);
  return handle.jsonValue();
}

const RUNS = 7; // fresh pages

async function measure(browser, server) {
  const out = { chromium: browser.version(), runs: RUNS };
  const keys = ["root_cold", "centre", "scores_first", "scores_next"];
  const runs = Object.fromEntries(keys.flatMap((k) => [[k + "_py", []], [k, []]]));
  runs.root_click = []; // no MicroPython share of its own: the whole wait
  const note = (key, m) => (runs[key + "_py"].push(m.py), runs[key].push(m.total));
  for (let run = 0; run < RUNS; run++) {
    // The device's Coach setting on: the grid shows scores only then (as the glass does).
    const { context, page } = await open(browser, server, { settings: COACH_ON });
    await waitQuiet(page, 200);
    // The explorer opened on the title: its code fetched (explorer.js with coach.js,
    // explorer.bin), then the empty board's moves, coachtree.py imported now. From the click
    // to the 9 moves drawn, and expand's own measure of the listing.
    runs.root_click.push(await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      const tree = () => document.querySelectorAll("#tree > li.node").length === 9;
      const seen = new MutationObserver(() => {
        if (tree()) seen.disconnect(), resolve(performance.now() - t0);
      });
      seen.observe(document.getElementById("explorer"), { childList: true, subtree: true });
      document.querySelector("#explorer > summary").click();
    })));
    const root = await measured(page, "expand", null);
    note("root_cold", root);
    await page.locator('#tree li[data-path="4"] > button').click(); // X centre's replies
    note("centre", await measured(page, "expand", root));
    // A game (1P, the player starts): the scores of the empty board, then after a move and
    // the CPU's answer those of the position with 7 cells free.
    await press(page, "ArrowRight", 100); // title -> menu
    await waitQuiet(page, 200);
    await press(page, "Enter", 100); // 1P vs CPU
    const first = await measured(page, "scores", null);
    note("scores_first", first);
    await waitQuiet(page, 200);
    await press(page, "Enter", 100); // place X where the cursor is
    note("scores_next", await measured(page, "scores", first));
    await context.close();
  }
  for (const [key, xs] of Object.entries(runs)) out[key] = stats(xs);
  return out;
}

benchMain("bench_web_coach.mjs", {}, measure);
