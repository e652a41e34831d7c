// The page's tree explorer (issue 21) against the plain minimax and alpha-beta of
// coachcheck.mjs: every score, mark and count shown, the best line, the cut-off marks; the
// keyboard; a phone.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_coach); oxopage.mjs reads the glass.

import * as oxo from "./oxopage.mjs";
import { menu } from "./pagekeys.mjs";
import { bestLine, exploreAndCheck, markOf, minimax, moves, openExplorer } from "./coachcheck.mjs";

export async function test_the_tree_of_the_empty_board(t) {
  const page = await oxo.open(t);
  await openExplorer(page);
  t.assert.equal(await page.locator("#tree > li.node").count(), 9);
  await exploreAndCheck(t, page, Array(9).fill(0), 1);
}
test_the_tree_of_the_empty_board.timeout = 60;

// -- keyboard and phone --------------------------------------------------------------------------

export async function test_the_explorer_by_keyboard(t) {
  const page = await oxo.open(t);
  const glass = await page.evaluate(() => Array.from(window.oxo.glass));
  // Tab to the explorer's summary, Enter opens it; Tab on to the first move.
  await page.locator("#mute").focus();
  let k = 0;
  while (!(await page.evaluate(() => document.activeElement.matches("#explorer > summary")))) {
    if (++k > 20) t.assert.fail("Tab never reaches the explorer");
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length === 9);
  await page.keyboard.press("Tab");
  const focused = () => page.evaluate(() => {
    const b = document.activeElement;
    return { path: b.closest("li.node")?.dataset.path, expanded: b.getAttribute("aria-expanded"),
      children: b.parentElement.querySelectorAll(":scope > ul:not([hidden]) > li").length };
  });
  t.assert.deepEqual(await focused(), { path: "4", expanded: "false", children: 0 });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement.getAttribute("aria-expanded") === "true");
  t.assert.deepEqual(await focused(), { path: "4", expanded: "true", children: 8 });
  await page.keyboard.press(" ");
  await page.waitForFunction(() => document.activeElement.getAttribute("aria-expanded") === "false");
  t.assert.deepEqual(await focused(), { path: "4", expanded: "false", children: 0 });
  await page.keyboard.press(" ");
  await page.keyboard.press("Tab"); // into the replies: O's first
  t.assert.equal((await focused()).path, "40");
  // The game's keys were not pressed meanwhile: the title is on the glass as it was.
  t.assert.equal(await page.evaluate(() => window.oxoRead.text(window.oxo.glass, 10, 21, 8)),
    "OXO 5110");
  t.assert.ok(glass.length === 504);
  // Screen readers: a button's name says the move, its mark and its counts, as the test's own
  // minimax has them.
  const empty = Array(9).fill(0);
  const x = moves(empty, 1);
  const name = await page.locator('#tree li[data-path="4"] > button').textContent();
  t.assert.match(name, new RegExp(`^X centre\\s*${markOf(x.scores[4])}\\s*\\(${x.scores[4]}\\): ` +
    `draw\\s*best line\\s*minimax ${x.counts[4].toLocaleString("en-US")}`)); // all draw: none best
  const o = moves([0, 0, 0, 0, 1, 0, 0, 0, 0], 2);
  const loss = markOf(o.scores[1]);
  const reply = await page.locator('#tree li[data-path="41"] > button').textContent();
  t.assert.match(reply, new RegExp(`^O top\\s*${loss}\\s*\\(${o.scores[1]}\\): they win with ` +
    `their move ${loss.slice(1)}\\s*minimax ${o.counts[1].toLocaleString("en-US")}`));
}

export async function test_the_coach_and_explorer_on_a_phone(t) {
  const context = await t.newContext({ viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await oxo.open(t, { page: await context.newPage() });
  await page.locator("#explorer > summary").tap();
  await page.waitForFunction(() => document.querySelectorAll("#tree > li.node").length === 9);
  // The deepest the tree goes: the best line to its end.
  const line = bestLine(Array(9).fill(0), 1);
  for (let k = 1; k < line.length; k++) {
    await page.locator(`#tree li[data-path="${line.slice(0, k)}"] > button`).tap();
    await page.waitForFunction((p) =>
      document.querySelector(`#tree li[data-path="${p}"] > ul > li`), line.slice(0, k));
  }
  const seen = await page.evaluate(() => {
    const rect = (el) => el.getBoundingClientRect().toJSON();
    return {
      scroll: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
      targets: [...document.querySelectorAll("#tree button, #explorer > summary")].map(rect),
      grid: rect(document.getElementById("coach-grid")),
      device: rect(document.querySelector(".device")),
    };
  });
  t.log(`scroll ${seen.scroll}, ${seen.targets.length} targets; grid ${JSON.stringify(seen.grid)}`);
  t.assert.ok(seen.scroll[0] <= seen.scroll[1], `it scrolls sideways: ${seen.scroll}`);
  for (const r of seen.targets) {
    t.assert.ok(r.height >= 44 && r.width >= 44, `a ${r.width}x${r.height} target`);
    t.assert.ok(r.right <= 390, `a target past the edge: ${JSON.stringify(r)}`);
  }
  t.assert.ok(seen.grid.right <= 390 && seen.grid.left >= 0, "the coach is off the screen");
  t.assert.ok(seen.grid.top >= seen.device.bottom, "the coach is not below the glass");
}
