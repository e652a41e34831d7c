// The page's coach beside the glass (issue 21) against the plain minimax of coachcheck.mjs:
// the scores in a game played in the page (and its tree), the CPU's turn.
// SPDX-License-Identifier: MIT
// Run by host_tests/test_web.py (class web_coachgrid); oxopage.mjs reads the glass.

import * as oxo from "./oxopage.mjs";
import { menu, press } from "./pagekeys.mjs";
import {
  GAME, MIDGAME, SIDE, exploreAndCheck, grid, gridShows, openExplorer, place, twoPlayers, wins,
} from "./coachcheck.mjs";

export async function test_the_scores_beside_the_glass_in_a_game_and_its_tree(t) {
  const page = await oxo.open(t);
  t.assert.equal((await grid(page)).why, "No game on the glass: start 1P or 2P from the menu.");
  await twoPlayers(page);
  const cells = Array(9).fill(0);
  let side = 1;
  // Cheap: the coach answers (and searches) only when the position changes, not every step.
  await gridShows(t, page, cells, side);
  const updates = await page.evaluate(() => [window.oxo.coach.updates, window.oxo.steps]);
  await page.waitForFunction((n) => window.oxo.steps >= n + 30, updates[1]);
  t.assert.equal(await page.evaluate(() => window.oxo.coach.updates), updates[0],
    "the coach answered again with nothing changed");
  for (let k = 0; k < GAME.length; k++) {
    await gridShows(t, page, cells, side);
    if (k === MIDGAME) {
      t.log(`mid-game: ${cells.join("")}, ${SIDE[side]} to move`);
      await openExplorer(page);
      await exploreAndCheck(t, page, cells, side);
    }
    await place(page, GAME[k]);
    cells[GAME[k]] = side;
    side = 3 - side;
  }
  t.assert.ok(wins(cells, 1), "the game was meant to end with X's line");
  await page.waitForFunction(() => /over/.test(document.getElementById("coach-why").textContent));
  const over = await grid(page);
  t.assert.equal(over.why, "The game is over: no moves left to score.");
  t.assert.deepEqual(over.best, []);
}
test_the_scores_beside_the_glass_in_a_game_and_its_tree.timeout = 90;


export async function test_the_cpu_turn_says_so(t) {
  // A 1P game where the CPU starts: set Starts to CPU in the menu, then play.
  const page = await oxo.open(t, { clock: true });
  await press(page, "SELECT");
  await oxo.tick(page, 200);
  const rows = await menu(page, (m) => (m.highlight === 0 ? m : null));
  const starts = rows.rows.findIndex((r) => r.label.startsWith("Start"));
  t.assert.ok(starts > 0, JSON.stringify(rows));
  // While the CPU thinks the page says whose turn it is: watch every answer the coach gives.
  await page.evaluate(() => {
    window.oxoWhy = [];
    const why = document.getElementById("coach-why");
    new MutationObserver(() => window.oxoWhy.push(why.textContent))
      .observe(why, { childList: true, characterData: true, subtree: true });
  });
  for (let k = 0; k < starts; k++) await press(page, "NEXT"), await oxo.tick(page, 100);
  while ((await page.evaluate(() => window.oxoRead.menu())).rows[starts].value !== "CPU") {
    await press(page, "SELECT");
    await oxo.tick(page, 100);
  }
  for (let k = 0; k < starts; k++) await press(page, "PREV"), await oxo.tick(page, 100);
  await press(page, "SELECT");
  await oxo.tick(page, 1500);
  const seen = await page.evaluate(() => window.oxoWhy);
  t.log(JSON.stringify(seen));
  t.assert.ok(seen.includes("The CPU's turn: the scores show when it is yours."), "no CPU turn");
  t.assert.equal((await grid(page)).caption, "Coach: O to move");
}
